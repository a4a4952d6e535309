import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMoney, formatMoneyCompact, formatTime, type DisplayPreferences } from "./format";

const US: DisplayPreferences = { dateFormat: "US", timeFormat: "12h", timezone: "America/New_York", currency: "USD" };
const EU: DisplayPreferences = { dateFormat: "EU", timeFormat: "24h", timezone: "Europe/Oslo", currency: "NOK" };
const instant = new Date("2026-11-22T20:05:00Z");

describe("display formatting", () => {
  it("formats dates as US (short month) or EU (2-digit day/month/year)", () => {
    expect(formatDate(instant, US)).toBe("Nov 22, 2026");
    expect(formatDate(instant, EU)).toBe("22/11/26");
  });

  it("formats times in 12h or 24h, in the user's timezone", () => {
    expect(formatTime(instant, US)).toBe("3:05 PM");
    expect(formatTime(instant, EU)).toBe("21:05");
    expect(formatDate(new Date("2026-11-23T03:00:00Z"), US)).toBe("Nov 22, 2026");
    expect(formatDateTime(instant, US)).toBe("Nov 22, 2026 3:05 PM");
  });

  it("shortens money for chart axes in the user's currency", () => {
    expect([0, 250_000, 1_500_000, 2_000_000].map((n) => formatMoneyCompact(n, US))).toEqual(["$0", "$250K", "$1.5M", "$2M"]);
    expect(formatMoneyCompact(-12_000, { currency: "EUR" })).toBe("-€12K");
    expect(formatMoneyCompact(2_000_000, { currency: "NOK" })).toContain("NOK");
  });

  it("formats money with no fraction digits in every supported currency", () => {
    expect(formatMoney(650000.4, US)).toBe("$650,000");
    expect(formatMoney(19500, { currency: "EUR" })).toBe("€19,500");
    for (const currency of ["NOK", "SEK", "DKK"] as const) {
      const text = formatMoney(1234.56, { currency });
      expect(text).toContain(currency);
      expect(text).toContain("1,235");
    }
  });

  it("falls back to the default timezone for an unknown one instead of throwing", () => {
    expect(formatDate(instant, { ...US, timezone: "Mars/Olympus" })).toBe("Nov 22, 2026");
  });
});
