import { describe, expect, it } from "vitest";
import { BILLING_EXPIRED_PATH, decideBillingAccess, START_TRIAL_PATH } from "./guard";

describe("billing decision", () => {
  it("follows decisions.md for every status", () => {
    expect(decideBillingAccess({ known: true, status: "active", plan: "solo" })).toEqual({ allow: true });
    expect(decideBillingAccess({ known: true, status: "trialing", plan: "solo" })).toEqual({ allow: true });
    expect(decideBillingAccess({ known: true, status: "past_due", plan: "solo" })).toEqual({ allow: false, redirectTo: BILLING_EXPIRED_PATH });
    expect(decideBillingAccess({ known: true, status: "canceled", plan: "solo" })).toEqual({ allow: false, redirectTo: BILLING_EXPIRED_PATH });
    expect(decideBillingAccess({ known: true, status: "inactive", plan: "solo" })).toEqual({ allow: false, redirectTo: START_TRIAL_PATH });
    expect(decideBillingAccess({ known: true, status: "pending_checkout", plan: "solo" })).toEqual({ allow: false, redirectTo: START_TRIAL_PATH });
    expect(decideBillingAccess({ known: true, status: null, plan: null })).toEqual({ allow: false, redirectTo: START_TRIAL_PATH });
  });

  it("allows, and says why, when the status could not be read", () => {
    const decision = decideBillingAccess({ known: false, error: "D1_ERROR: timeout" });
    expect(decision).toEqual({ allow: true, logged: "subscription status unknown: D1_ERROR: timeout" });
  });
});
