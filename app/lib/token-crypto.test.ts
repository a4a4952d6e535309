import { describe, expect, it } from "vitest";
import { decryptToken, encryptToken, TokenCryptoError } from "./token-crypto.server";

const KEY = btoa(String.fromCharCode(...new Uint8Array(32).map((_, i) => i + 1)));
const OTHER_KEY = btoa(String.fromCharCode(...new Uint8Array(32).map((_, i) => 200 - i)));

describe("token encryption at rest", () => {
  it("round-trips a token and never stores it in the clear", async () => {
    const stored = await encryptToken(KEY, "ya29.secret-token-é", "gmail:u1:access");
    expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    expect(stored).not.toContain("secret-token");
    expect(await decryptToken(KEY, stored, "gmail:u1:access")).toBe("ya29.secret-token-é");
  });

  it("uses a fresh IV for every value", async () => {
    const [a, b] = await Promise.all([encryptToken(KEY, "same", "p"), encryptToken(KEY, "same", "p")]);
    expect(a.split(".")[1]).not.toBe(b.split(".")[1]);
    expect(a).not.toBe(b);
  });

  it("refuses another key, another purpose, an altered value and an unknown version", async () => {
    const stored = await encryptToken(KEY, "token", "gmail:u1:refresh");
    await expect(decryptToken(OTHER_KEY, stored, "gmail:u1:refresh")).rejects.toBeInstanceOf(TokenCryptoError);
    await expect(decryptToken(KEY, stored, "gmail:u2:refresh")).rejects.toBeInstanceOf(TokenCryptoError);
    const [version, iv, sealed] = stored.split(".");
    const flipped = `${version}.${iv}.${sealed!.slice(0, -2)}${sealed!.endsWith("AA") ? "AB" : "AA"}`;
    await expect(decryptToken(KEY, flipped, "gmail:u1:refresh")).rejects.toBeInstanceOf(TokenCryptoError);
    await expect(decryptToken(KEY, `v2.${iv}.${sealed}`, "gmail:u1:refresh")).rejects.toThrow("not in a known format");
  });
});
