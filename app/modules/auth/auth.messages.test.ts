import { describe, expect, it } from "vitest";
import { EMAIL_PATTERN } from "./auth.messages";
import { registerClientAttempt } from "./client-attempts";

class MemoryStorage implements Storage {
  private data = new Map<string, string>();
  get length() {
    return this.data.size;
  }
  clear() {
    this.data.clear();
  }
  getItem(key: string) {
    return this.data.get(key) ?? null;
  }
  key(index: number) {
    return [...this.data.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  setItem(key: string, value: string) {
    this.data.set(key, value);
  }
}

describe("e-mail pattern", () => {
  it("accepts ordinary addresses and refuses malformed ones", () => {
    for (const ok of ["dana@example.com", "first.last+tag@sub.example.co.uk"]) expect(EMAIL_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ["", "dana", "dana@", "@example.com", "dana@example", "da na@example.com"]) expect(EMAIL_PATTERN.test(bad), bad).toBe(false);
  });
});

describe("browser attempt limit", () => {
  it("allows 5 attempts in 60 seconds, refuses the 6th, and allows again once the window passes", () => {
    const storage = new MemoryStorage();
    const t0 = 1_000_000;
    for (let i = 0; i < 5; i++) expect(registerClientAttempt(storage, t0 + i)).toBe(true);
    expect(registerClientAttempt(storage, t0 + 10)).toBe(false);
    expect(JSON.parse(storage.getItem("auth_attempts")!)).toHaveLength(5);
    expect(registerClientAttempt(storage, t0 + 60_001)).toBe(true);
  });

  it("recovers from a corrupted log", () => {
    const storage = new MemoryStorage();
    storage.setItem("auth_attempts", "{not json");
    expect(registerClientAttempt(storage)).toBe(true);
  });
});
