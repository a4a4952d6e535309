import { and, eq } from "drizzle-orm";
import { checkoutSessions, subscribers, type CheckoutSession } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { TRIAL_DAYS } from "./plans";
import { applySubscriptionState, claimTrialStatement, completeCheckoutStatement } from "./sync.server";

const DAY = 24 * 3600 * 1000;

/**
 * Local test mode (no Stripe keys, not production): completing the test checkout applies the same
 * subscription state a Stripe webhook would, through the same code.
 */
export async function completeTestCheckout(context: RequestContext, user: SessionUser, checkout: CheckoutSession) {
  const now = Date.now();
  const trialEndsAt = checkout.withTrial ? new Date(now + TRIAL_DAYS * DAY) : null;
  const periodDays = checkout.billingPeriod === "yearly" ? 365 : 30;
  return applySubscriptionState(
    context.db,
    user.id,
    {
      status: checkout.withTrial ? "trialing" : "active",
      billingPeriod: checkout.billingPeriod,
      trialEndsAt,
      // As Stripe does: during a trial the current period is the trial, so it ends (and the first charge
      // falls) on the trial's last day; a paid start runs one billing period from now.
      currentPeriodEnd: trialEndsAt ?? new Date(now + periodDays * DAY),
      cancelAtPeriodEnd: false,
    },
    { id: `test_checkout_${checkout.id}`, type: "test.checkout.completed", createdAt: new Date(now) },
    [
      completeCheckoutStatement(context.db, checkout.id),
      ...(checkout.withTrial ? [claimTrialStatement(context.db, { email: user.email, userId: user.id })] : []),
    ],
  );
}

export async function abandonTestCheckout(context: RequestContext, user: SessionUser, checkout: CheckoutSession) {
  await context.db.batch([
    context.db
      .update(checkoutSessions)
      .set({ status: "abandoned" })
      .where(ownedBy(checkoutSessions, user.id, eq(checkoutSessions.id, checkout.id))),
    context.db
      .update(subscribers)
      .set({ subscriptionStatus: "inactive", updatedAt: new Date() })
      .where(ownedBy(subscribers, user.id, and(eq(subscribers.subscriptionStatus, "pending_checkout")))),
  ]);
}
