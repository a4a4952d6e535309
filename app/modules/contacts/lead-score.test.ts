import { DAY_MS } from "~/lib/dates";
import { describe, expect, it } from "vitest";
import { LEAD_SCORE_MAX, leadScoreBand, newContactScore, recencyPoints, scoreLead, type LeadScoreInput } from "./lead-score";

// A fixed clock: every test reads times relative to it.
const NOW = Date.UTC(2026, 10, 23, 15, 0, 0);
const daysAgo = (days: number, extraMs = 0) => NOW - days * DAY_MS - extraMs;

const base: LeadScoreInput = {
  status: "cold",
  budgetMin: null,
  budgetMax: null,
  lastActivity: daysAgo(200),
  createdAt: daysAgo(300),
  activityCount90d: 0,
  source: "other",
  openDeals: 0,
  hasEmail: false,
  hasPhone: false,
};
const score = (fields: Partial<LeadScoreInput>) => scoreLead({ ...base, ...fields }, NOW);
const factor = (fields: Partial<LeadScoreInput>, key: string) => score(fields).factors.find((f) => f.key === key)!;

describe("lead score model", () => {
  it("has ceilings that add up to 100, and lists every factor with its ceiling", () => {
    expect(Object.values(LEAD_SCORE_MAX).reduce((a, b) => a + b, 0)).toBe(100);
    const { factors } = score({});
    expect(factors.map((f) => f.key)).toEqual(["status", "recency", "engagement", "budget", "source", "deals", "reachable"]);
    for (const f of factors) expect(f.max).toBe(LEAD_SCORE_MAX[f.key]);
  });

  it("is the sum of its factors", () => {
    const result = score({ status: "warm", budgetMax: 500_000, lastActivity: daysAgo(12), activityCount90d: 4, source: "website", hasEmail: true });
    expect(result.score).toBe(result.factors.reduce((sum, f) => sum + f.points, 0));
    expect(result.score).toBe(18 + 16 + 12 + 8 + 6 + 0 + 3);
  });

  it("gives the most to a hot, recent, engaged, referred lead with a budget, a deal and both ways to reach them", () => {
    const best = score({
      status: "hot",
      budgetMin: 400_000,
      budgetMax: 500_000,
      lastActivity: NOW,
      createdAt: daysAgo(30),
      activityCount90d: 12,
      source: "referral",
      openDeals: 2,
      hasEmail: true,
      hasPhone: true,
    });
    expect(best.score).toBe(100);
    expect(best.factors.every((f) => f.points === f.max)).toBe(true);
  });

  it("gives the least to a cold lead untouched for months with nothing else, and stays within 0–100", () => {
    const worst = score({});
    expect(worst.score).toBe(5 + 2);
    for (const count of [-5, 0, 1e9]) {
      const s = score({ activityCount90d: count, openDeals: count }).score;
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(100);
    }
  });

  it("scores status: hot 30, warm 18, cold 5", () => {
    expect(factor({ status: "hot" }, "status")).toEqual({ key: "status", points: 30, max: 30, reason: "Hot status" });
    expect(factor({ status: "warm" }, "status")).toMatchObject({ points: 18, reason: "Warm status" });
    expect(factor({ status: "cold" }, "status")).toMatchObject({ points: 5, reason: "Cold status" });
  });

  it("scores budget: a range 10, a maximum 8, a minimum 5, none 0", () => {
    expect(factor({ budgetMin: 300_000, budgetMax: 400_000 }, "budget")).toMatchObject({ points: 10, reason: "Budget range given" });
    expect(factor({ budgetMax: 400_000 }, "budget")).toMatchObject({ points: 8, reason: "Maximum budget given" });
    expect(factor({ budgetMin: 300_000 }, "budget")).toMatchObject({ points: 5, reason: "Only a minimum budget given" });
    expect(factor({}, "budget")).toMatchObject({ points: 0, reason: "No budget given" });
    // Zero is a budget someone typed, not a missing one.
    expect(factor({ budgetMax: 0 }, "budget").points).toBe(8);
  });

  it("scores recency by whole days: 20 up to 3 days, 19 on day 4, 1 on day 59, 0 from day 60", () => {
    const at = (days: number, extraMs = 0) => factor({ lastActivity: daysAgo(days, extraMs) }, "recency");
    expect(at(0)).toMatchObject({ points: 20, reason: "Last activity today" });
    expect(at(1)).toMatchObject({ points: 20, reason: "Last activity yesterday" });
    expect(at(3, DAY_MS - 1)).toMatchObject({ points: 20, reason: "Last activity 3 days ago" });
    expect(at(4)).toMatchObject({ points: 19, reason: "Last activity 4 days ago" });
    expect(at(12).reason).toBe("Last activity 12 days ago");
    expect(at(59, DAY_MS - 1)).toMatchObject({ points: 1, reason: "Last activity 59 days ago" });
    expect(at(60)).toMatchObject({ points: 0, reason: "Last activity 60 days ago" });
    expect(at(400).points).toBe(0);
    // Never rising with time, and never below 0 or above 20.
    for (let d = 0; d < 80; d++) {
      expect(recencyPoints(d + 1)).toBeLessThanOrEqual(recencyPoints(d));
      expect(recencyPoints(d)).toBeGreaterThanOrEqual(0);
      expect(recencyPoints(d)).toBeLessThanOrEqual(20);
    }
  });

  it("counts a future activity as today, and a contact nobody has logged anything for from when it was added", () => {
    expect(factor({ lastActivity: NOW + 3 * DAY_MS }, "recency")).toMatchObject({ points: 20, reason: "Last activity today" });
    expect(factor({ createdAt: daysAgo(5), lastActivity: daysAgo(5) }, "recency")).toMatchObject({
      points: 19,
      reason: "Added 5 days ago, no activity yet",
    });
    // An activity dated before the contact was added: the adding is the newer event.
    expect(factor({ createdAt: daysAgo(2), lastActivity: daysAgo(10), activityCount90d: 1 }, "recency")).toMatchObject({
      points: 20,
      reason: "Added 2 days ago",
    });
  });

  it("scores engagement by activities in the last 90 days, up to 15 from six", () => {
    const points = [0, 1, 2, 3, 4, 5, 6, 7, 50].map((n) => factor({ activityCount90d: n }, "engagement").points);
    expect(points).toEqual([0, 4, 7, 10, 12, 14, 15, 15, 15]);
    expect(factor({ activityCount90d: 0 }, "engagement").reason).toBe("No activities in the last 90 days");
    expect(factor({ activityCount90d: 1 }, "engagement").reason).toBe("1 activity in the last 90 days");
    expect(factor({ activityCount90d: 4 }, "engagement").reason).toBe("4 activities in the last 90 days");
  });

  it("scores source: referral 10, open house 8, website 6, social 5, cold call 3, other 2", () => {
    const points = (["referral", "open_house", "website", "social_media", "cold_call", "other"] as const).map(
      (source) => factor({ source }, "source").points,
    );
    expect(points).toEqual([10, 8, 6, 5, 3, 2]);
    expect(factor({ source: "referral" }, "source").reason).toBe("Came by referral");
  });

  it("scores open deals: 10 for one or more", () => {
    expect(factor({ openDeals: 0 }, "deals")).toMatchObject({ points: 0, reason: "No open deals" });
    expect(factor({ openDeals: 1 }, "deals")).toMatchObject({ points: 10, reason: "1 open deal" });
    expect(factor({ openDeals: 3 }, "deals")).toMatchObject({ points: 10, reason: "3 open deals" });
  });

  it("scores reachability: e-mail and phone 5, one of them 3", () => {
    expect(factor({ hasEmail: true, hasPhone: true }, "reachable")).toMatchObject({ points: 5, reason: "E-mail and phone on file" });
    expect(factor({ hasEmail: true }, "reachable")).toMatchObject({ points: 3, reason: "E-mail on file, no phone" });
    expect(factor({ hasPhone: true }, "reachable")).toMatchObject({ points: 3, reason: "Phone on file, no e-mail" });
    expect(factor({}, "reachable")).toMatchObject({ points: 0, reason: "No e-mail or phone" });
  });

  it("scores a new contact as added now, with no activities or deals", () => {
    const fresh = newContactScore({ status: "hot", budgetMax: 600_000, source: "referral", email: "a@example.com", phone: null }, NOW);
    expect(fresh.leadScore).toBe(30 + 20 + 0 + 8 + 10 + 0 + 3);
    expect(fresh.leadScoredAt.getTime()).toBe(NOW);
    expect(fresh.leadScoreFactors.find((f) => f.key === "recency")?.reason).toBe("Added today, no activity yet");
    expect(newContactScore({}, NOW).leadScore).toBe(5 + 20 + 2);
  });

  it("puts scores in bands: 70 and up high, 40–69 medium, below 40 low", () => {
    expect([100, 70, 69, 40, 39, 0].map(leadScoreBand)).toEqual(["high", "high", "medium", "medium", "low", "low"]);
  });
});
