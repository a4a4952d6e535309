import { addDays, addMonths, possibleTodays } from "~/lib/dates";
import { startOfDayIn } from "~/lib/dates/zones";
import { describe, expect, it } from "vitest";
import { DEFAULT_STAGES } from "~/modules/pipeline/stages";
import { DEFAULT_PLAN } from "~/modules/commissions/plan.schema";
import { chartMonths, dueWhen, leadSources, METRIC_DEFINITIONS, sphereGrowth, upcomingFrom } from "./metrics";
import { closedDealsFrom, closedPerformance, type ClosedDealRow } from "./performance";

describe("dashboard dates", () => {
  it("moves days and months across year ends and leap days", () => {
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(addMonths("2026-01", -1)).toBe("2025-12");
    expect(addMonths("2026-11", 14)).toBe("2028-01");
    expect(chartMonths("2026-06-15")).toEqual([
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
    ]);
  });

  it("knows the three dates today can be on Earth", () => {
    expect(possibleTodays(new Date("2026-12-31T23:30:00Z"))).toEqual(["2026-12-30", "2026-12-31", "2027-01-01"]);
  });

  it("finds the first instant of a day in a timezone, DST and odd offsets included", () => {
    expect(new Date(startOfDayIn("2026-06-01", "America/New_York")).toISOString()).toBe("2026-06-01T04:00:00.000Z");
    expect(new Date(startOfDayIn("2026-12-01", "America/New_York")).toISOString()).toBe("2026-12-01T05:00:00.000Z");
    // The day DST starts at 02:00 still begins at midnight EST; the day it ends, at midnight PDT.
    expect(new Date(startOfDayIn("2026-03-08", "America/New_York")).toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(new Date(startOfDayIn("2026-11-01", "America/Los_Angeles")).toISOString()).toBe("2026-11-01T07:00:00.000Z");
    expect(new Date(startOfDayIn("2026-01-01", "Asia/Kathmandu")).toISOString()).toBe("2025-12-31T18:15:00.000Z");
    expect(new Date(startOfDayIn("2026-12-01", "Pacific/Kiritimati")).toISOString()).toBe("2026-11-30T10:00:00.000Z");
    expect(new Date(startOfDayIn("2026-12-01", "UTC")).toISOString()).toBe("2026-12-01T00:00:00.000Z");
    // Havana skips midnight when DST starts (00:00 → 01:00): that day begins at 01:00 CDT.
    expect(new Date(startOfDayIn("2026-03-08", "America/Havana")).toISOString()).toBe("2026-03-08T05:00:00.000Z");
  });

  it("says how a due date reads against today", () => {
    expect([
      dueWhen("2026-06-14", "2026-06-15"),
      dueWhen("2026-06-15", "2026-06-15"),
      dueWhen("2026-06-16", "2026-06-15"),
      dueWhen("2026-06-17", "2026-06-15"),
    ]).toEqual(["overdue", "today", "tomorrow", "later"]);
  });
});

describe("dashboard figures from rows", () => {
  it("compares sphere growth only when there is something to compare with", () => {
    expect(sphereGrowth(4, 3)).toEqual({ added: 4, before: 3, changePct: 33 });
    expect(sphereGrowth(1, 4)).toEqual({ added: 1, before: 4, changePct: -75 });
    expect(sphereGrowth(5, 0)).toEqual({ added: 5, before: 0, changePct: null });
  });

  it("merges the closings read for each possible today into the next ones from the real today", () => {
    const rows = [
      { id: "b", closeOn: "2026-06-14" },
      { id: "a", closeOn: "2026-06-15" },
      { id: "c", closeOn: "2026-06-15" },
      { id: "d", closeOn: "2026-06-20" },
      { id: "e", closeOn: null },
    ];
    expect(upcomingFrom(rows, "2026-06-15", 2).map((r) => r.id)).toEqual(["a", "c"]);
    expect(upcomingFrom(rows, "2026-06-14", 5).map((r) => r.id)).toEqual(["b", "a", "c", "d"]);
  });

  it("orders lead sources by count, then by name, leaving out empty ones", () => {
    expect(
      leadSources([
        { source: "website", n: 3 },
        { source: "other", n: 0 },
        { source: "referral", n: 3 },
        { source: "open_house", n: 5 },
      ]),
    ).toEqual([
      { source: "open_house", count: 5 },
      { source: "referral", count: 3 },
      { source: "website", count: 3 },
    ]);
  });

  it("prices closed deals through the cap in closed-date order, whole cap years only", () => {
    const plan = { ...DEFAULT_PLAN, brokerageSplitPct: 50, brokerageCapCents: 500_000, capYearStart: "01-01" };
    const won = (id: string, closedDate: string, dealValueCents: number): ClosedDealRow => ({
      id,
      stage: "closed_won",
      closedDate,
      dealValueCents,
      commissionRate: 3,
      referralFeePct: null,
      brokerageSplitPct: null,
      teamSplitPct: null,
      transactionFeeCents: null,
      eoFeeCents: null,
      franchiseFeePct: null,
    });
    expect(closedDealsFrom("2025-07")).toBe("2024-07-01");
    const result = closedPerformance({
      months: chartMonths("2026-03-10"),
      stages: DEFAULT_STAGES,
      plan,
      // $300,000 then $300,000 at 3 %: $9,000 gross each, split 50 % = $4,500, cap $5,000. The lost deal is not
      // volume; the one before the charts is in neither.
      closed: [
        won("y", "2026-01-20", 30_000_000),
        won("x", "2026-01-05", 30_000_000),
        { ...won("z", "2026-01-06", 10_000_000), stage: "closed_lost" },
        won("w", "2024-12-10", 10_000_000),
      ],
    });
    const january = result.months.find((m) => m.month === "2026-01")!;
    // x: split $4,500 → net $4,500. y: only $500 of cap left → net $8,500.
    expect(january).toEqual({ month: "2026-01", deals: 2, sharedDeals: 0, volumeCents: 60_000_000, gciCents: 1_800_000, netCents: 1_300_000 });
    expect(result.months.filter((m) => m.month !== "2026-01").every((m) => m.deals === 0 && m.netCents === 0)).toBe(true);
    // An open deal closing this cap year: nothing left of the cap, so no split.
    const open = { ...won("o", "", 10_000_000), stage: "lead", expectedCloseDate: "2026-05-01" };
    expect(result.openBreakdown(open, "2026-03-10").netCents).toBe(300_000);
    // Next cap year: the full split.
    expect(result.openBreakdown({ ...open, expectedCloseDate: "2027-02-01" }, "2026-03-10").netCents).toBe(150_000);
  });

  it("defines every metric in words", () => {
    for (const metric of Object.values(METRIC_DEFINITIONS)) {
      expect(metric.label.length).toBeGreaterThan(3);
      expect(metric.definition).toMatch(/^[A-Z].{30,}\.$/);
    }
    const labels = Object.values(METRIC_DEFINITIONS).map((m) => m.label);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
