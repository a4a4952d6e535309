import { describe, expect, it } from "vitest";
import { hashPassword, parsePasswordHash, PBKDF2_ITERATIONS, verifyPassword } from "./password";

describe("password hashing", () => {
  it("uses exactly 100,000 PBKDF2-SHA256 rounds, the most production Workers allow, and stores the count", async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const hash = await hashPassword("correct horse battery staple");
    expect(hash).toMatch(/^pbkdf2_sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    expect(parsePasswordHash(hash)?.iterations).toBe(100_000);
  });

  it("refuses more rounds than production Workers allow, so sign-in cannot break after deploy", async () => {
    await expect(hashPassword("correct horse battery staple", 100_001)).rejects.toThrow(/exceed the Workers limit/);
  });

  it("verifies the right password and rejects others", async () => {
    const hash = await hashPassword("correct horse battery staple");
    expect(await verifyPassword("correct horse battery staple", hash)).toBe(true);
    expect(await verifyPassword("correct horse battery stapl", hash)).toBe(false);
    expect(await verifyPassword("correct horse battery staple", "garbage")).toBe(false);
  });

  it("salts every hash", async () => {
    expect(await hashPassword("same password twice")).not.toBe(await hashPassword("same password twice"));
  });

  it("still verifies hashes stored with an older, lower round count", async () => {
    const old = await hashPassword("an older account password", 1000);
    expect(await verifyPassword("an older account password", old)).toBe(true);
  });
});
