import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { applyTestClock, parseTestNow, shiftClock } from "~/lib/clock";

describe("the test clock (TEST_NOW)", () => {
  it("shifts Date to an instant and keeps it ticking, without breaking Date's other uses", () => {
    const saved = globalThis.Date;
    try {
      shiftClock("2031-07-04T12:00:00Z");
      const now = Date.now();
      expect(now - Date.parse("2031-07-04T12:00:00Z")).toBeGreaterThanOrEqual(0);
      expect(now - Date.parse("2031-07-04T12:00:00Z")).toBeLessThan(60_000);
      expect(new Date().getUTCFullYear()).toBe(2031);
      expect(new Date(0).getTime()).toBe(0);
      expect(new Date("2026-01-05T00:00:00Z").toISOString()).toBe("2026-01-05T00:00:00.000Z");
      expect(new Date(2027, 0, 5).getDate()).toBe(5);
      expect(Date.UTC(2026, 0, 1)).toBe(Date.parse("2026-01-01T00:00:00Z"));
      expect(new Date() instanceof Date).toBe(true);
      expect(new saved() instanceof Date).toBe(true);
      expect(typeof (Date as unknown as () => string)()).toBe("string");
      // The same instant again keeps the running clock; another one re-bases it.
      shiftClock("2031-07-04T12:00:00Z");
      expect(Date.now()).toBeGreaterThanOrEqual(now);
      shiftClock("2031-03-14T06:30:00Z");
      expect(new Date().toISOString().slice(0, 10)).toBe("2031-03-14");
    } finally {
      globalThis.Date = saved;
    }
  });

  it("refuses a value that is not an instant with a zone", () => {
    expect(() => parseTestNow("2027-03-14")).toThrow(/ISO instant/);
    expect(() => parseTestNow("tomorrow")).toThrow(/ISO instant/);
    expect(parseTestNow("2027-03-14T06:30:00Z")).toBe(Date.UTC(2027, 2, 14, 6, 30));
  });

  it("is never applied in production", () => {
    const saved = globalThis.Date;
    try {
      applyTestClock({ APP_ENV: "production", TEST_NOW: "2030-01-01T00:00:00Z" });
      expect(globalThis.Date).toBe(saved);
      applyTestClock({ TEST_NOW: "2030-01-01T00:00:00Z" });
      expect(globalThis.Date).toBe(saved);
    } finally {
      globalThis.Date = saved;
    }
  });

  it("runs this suite at TEST_NOW when it is set", () => {
    const testNow = (env as unknown as { TEST_NOW?: string }).TEST_NOW;
    const expected = testNow
      ? parseTestNow(testNow)
      : ((globalThis.Date as DateConstructor & { realDate?: DateConstructor }).realDate?.now() ?? Date.now());
    // The suite has run for minutes at most since the clock was set.
    expect(Math.abs(Date.now() - expected)).toBeLessThan(30 * 60_000);
  });
});
