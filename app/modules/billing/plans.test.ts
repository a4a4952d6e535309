import { describe, expect, it } from "vitest";
import { nextBillingDate, SOLO_PRICES, statusFromStripe, trialEmailKey } from "./plans";

describe("plans", () => {
  it("prices the yearly plan at $32 a month, $96 a year less than monthly", () => {
    expect(SOLO_PRICES.yearly.amountCents / 12 / 100).toBe(32);
    expect(SOLO_PRICES.monthly.amountCents * 12 - SOLO_PRICES.yearly.amountCents).toBe(9600);
  });
});

describe("one trial per customer key", () => {
  it("treats case, spaces and +tags as the same address", () => {
    expect(trialEmailKey(" Dana+trial2@Example.COM ")).toBe("dana@example.com");
  });
  it("ignores dots for Gmail only", () => {
    expect(trialEmailKey("d.a.n.a@googlemail.com")).toBe("dana@gmail.com");
    expect(trialEmailKey("d.ana@example.com")).toBe("d.ana@example.com");
  });
});

describe("Stripe status mapping", () => {
  it("maps every Stripe subscription status", () => {
    expect(statusFromStripe("trialing")).toBe("trialing");
    expect(statusFromStripe("active")).toBe("active");
    expect(statusFromStripe("past_due")).toBe("past_due");
    expect(statusFromStripe("unpaid")).toBe("past_due");
    expect(statusFromStripe("paused")).toBe("past_due");
    expect(statusFromStripe("canceled")).toBe("canceled");
    expect(statusFromStripe("incomplete")).toBe("pending_checkout");
    expect(statusFromStripe("incomplete_expired")).toBe("inactive");
  });
});

describe("next billing date", () => {
  const trialEndsAt = new Date("2026-03-15T10:00:00Z");
  const periodEnd = new Date("2026-04-14T10:00:00Z");
  it("is the trial's end while trialing, even when a later period end is stored", () => {
    expect(nextBillingDate({ status: "trialing", trialEndsAt, currentPeriodEnd: periodEnd })).toEqual(trialEndsAt);
  });
  it("is the period end once paying, and none without a live subscription", () => {
    expect(nextBillingDate({ status: "active", trialEndsAt, currentPeriodEnd: periodEnd })).toEqual(periodEnd);
    expect(nextBillingDate({ status: "canceled", trialEndsAt, currentPeriodEnd: periodEnd })).toBeNull();
    expect(nextBillingDate({ status: "past_due", trialEndsAt: null, currentPeriodEnd: periodEnd })).toBeNull();
  });
});

describe("teamSwitchTerms", () => {
  it("names the new price per seat, the minimum and the Solo price it replaces", async () => {
    const { teamSwitchTerms } = await import("./plans");
    expect(teamSwitchTerms("monthly", "Jan 3, 2027")).toBe(
      "From your next billing period (Jan 3, 2027) the Team plan costs $35 a seat per month, at least 2 seats: $70 a month instead of $40 a month on the Solo plan. Each member you add takes a seat, prorated. Everything in your account stays as it is.",
    );
    expect(teamSwitchTerms("yearly", null)).toContain("$336 a seat per year, at least 2 seats: $672 a year instead of $384 a year");
  });
});
