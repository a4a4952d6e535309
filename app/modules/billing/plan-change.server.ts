import type Stripe from "stripe";
import { subscribers, type Plan } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { checkoutMode } from "./checkout.server";
import type { BillingPeriod } from "./plans";
import { stripeClient } from "./stripe.server";
import { applySubscriptionState } from "./sync.server";
import { stateFromSubscription } from "./webhooks.server";

// Plan and seat changes of a live subscription (ADR 0033). Stripe is asked first; Porchlight records the
// change only once Stripe has it, so the two never disagree. The switch between Solo and Team takes effect on the
// next billing cycle (spec: "Plan changes take effect next billing cycle"): no proration, the new price is on the
// next invoice. Seats added or removed on the Team plan are prorated by Stripe. In test mode (no Stripe keys, never
// in production) the same state is recorded through the same code as a Stripe event.

export type PlanChangeResult = { ok: true } | { ok: false; message: string };

export const PLAN_CHANGE_MESSAGES = {
  notLive: "Plan changes need a subscription in good standing. Open Billing to subscribe or fix the payment.",
  notConfigured: "The Team plan is not set up for online checkout on this server yet. Write to hello@porchlight.app and we will switch you.",
  stripeDown: "Stripe could not be reached, so nothing was changed. Please try again in a minute.",
} as const;

function priceFor(context: RequestContext, plan: Plan, period: BillingPeriod | null): string | undefined {
  const { config } = context;
  if (plan === "team") return period === "yearly" ? config.STRIPE_PRICE_TEAM_YEARLY : config.STRIPE_PRICE_TEAM_MONTHLY;
  if (plan === "solo") return period === "yearly" ? config.STRIPE_PRICE_YEARLY : config.STRIPE_PRICE_MONTHLY;
  return undefined;
}

/** The subscription row of the user who pays, if it is live (active or trialing). */
export async function liveSubscription(context: Pick<RequestContext, "db">, payerId: UserId) {
  const row = await context.db.select().from(subscribers).where(ownedBy(subscribers, payerId)).get();
  return row && (row.subscriptionStatus === "active" || row.subscriptionStatus === "trialing") ? row : null;
}

/**
 * Sets the payer's plan and seats: in Stripe first (the subscription's one item gets the plan's price for the same
 * period, and the seats as its quantity), then here. `prorate` is false for a plan switch (next billing cycle) and
 * true for seats on the Team plan.
 */
export async function setPlanAndSeats(
  context: RequestContext,
  payerId: UserId,
  plan: Plan,
  seats: number,
  prorate: boolean,
): Promise<PlanChangeResult> {
  const row = await liveSubscription(context, payerId);
  if (!row) return { ok: false, message: PLAN_CHANGE_MESSAGES.notLive };
  if (row.plan === plan && row.seats === seats) return { ok: true };
  const event = { id: `plan_change_${newId()}`, type: "porchlight.plan.changed", createdAt: new Date() };
  const mode = checkoutMode(context);
  if (mode === "test") {
    await applySubscriptionState(context.db, payerId, { status: row.subscriptionStatus, plan, seats }, event);
    return { ok: true };
  }
  const stripe = mode === "stripe" ? stripeClient(context.config) : null;
  const price = priceFor(context, plan, row.billingPeriod);
  if (!stripe || !price || !row.stripeSubscriptionId) return { ok: false, message: PLAN_CHANGE_MESSAGES.notConfigured };
  let updated: Stripe.Subscription;
  try {
    const current = await stripe.subscriptions.retrieve(row.stripeSubscriptionId);
    const item = current.items.data[0];
    if (!item) return { ok: false, message: PLAN_CHANGE_MESSAGES.notConfigured };
    updated = await stripe.subscriptions.update(
      row.stripeSubscriptionId,
      {
        items: [{ id: item.id, price, quantity: seats }],
        proration_behavior: prorate ? "create_prorations" : "none",
        metadata: { userId: payerId, plan },
      },
      { idempotencyKey: `${event.id}` },
    );
  } catch (error) {
    console.error(JSON.stringify({ event: "plan_change_failed", userId: payerId, plan, seats, message: String(error) }));
    return { ok: false, message: PLAN_CHANGE_MESSAGES.stripeDown };
  }
  await applySubscriptionState(context.db, payerId, { ...stateFromSubscription(updated), plan, seats }, event);
  return { ok: true };
}

/**
 * Ends the payer's subscription at the end of the period already paid (a team's former owner, whose seat the new
 * owner pays from now on: ADR 0039), or takes that back (`end` false). Stripe first, as above; in test mode the same
 * state code as Stripe's subscription.updated event.
 */
export async function endAtPeriodEnd(context: RequestContext, payerId: UserId, end: boolean): Promise<PlanChangeResult> {
  const row = await liveSubscription(context, payerId);
  if (!row) return { ok: false, message: PLAN_CHANGE_MESSAGES.notLive };
  const event = { id: `period_end_${newId()}`, type: "porchlight.subscription.period_end", createdAt: new Date() };
  const mode = checkoutMode(context);
  if (mode === "test") {
    await applySubscriptionState(context.db, payerId, { status: row.subscriptionStatus, cancelAtPeriodEnd: end }, event);
    return { ok: true };
  }
  const stripe = mode === "stripe" ? stripeClient(context.config) : null;
  if (!stripe || !row.stripeSubscriptionId) return { ok: false, message: PLAN_CHANGE_MESSAGES.notConfigured };
  let updated: Stripe.Subscription;
  try {
    updated = await stripe.subscriptions.update(row.stripeSubscriptionId, { cancel_at_period_end: end }, { idempotencyKey: event.id });
  } catch (error) {
    console.error(JSON.stringify({ event: "period_end_failed", userId: payerId, end, message: String(error) }));
    return { ok: false, message: PLAN_CHANGE_MESSAGES.stripeDown };
  }
  await applySubscriptionState(context.db, payerId, stateFromSubscription(updated), event);
  return { ok: true };
}
