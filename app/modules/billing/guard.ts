import type { SubscriptionState } from "./subscription.server";

/** Where a signed-in user without a subscription goes to start the 14-day trial. */
export const START_TRIAL_PATH = "/trial/start";
export const BILLING_EXPIRED_PATH = "/pricing?billing=expired";

export type BillingDecision = { allow: true; logged?: string } | { allow: false; redirectTo: string };

/**
 * The billing guard of decisions.md: active and trialing pass; past_due and canceled go to pricing;
 * no subscription, inactive and pending_checkout go to start the trial; a failed status read passes
 * (and is logged), so an outage of the status read never locks a paying agent out.
 */
export function decideBillingAccess(state: SubscriptionState): BillingDecision {
  if (!state.known) return { allow: true, logged: `subscription status unknown: ${state.error}` };
  switch (state.status) {
    case "active":
    case "trialing":
      return { allow: true };
    case "past_due":
    case "canceled":
      return { allow: false, redirectTo: BILLING_EXPIRED_PATH };
    case null:
    case "inactive":
    case "pending_checkout":
      return { allow: false, redirectTo: START_TRIAL_PATH };
    default:
      return { allow: true, logged: `unexpected subscription status: ${String(state.status)}` };
  }
}
