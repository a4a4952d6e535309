import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import type { Db } from "~/db/client.server";
import { subscribers } from "~/db/schema";
import type { BillingPeriod } from "./plans";
import { PLANS, type Plan } from "~/db/enums";
import { statusFromStripe } from "./plans";
import {
  applySubscriptionState,
  claimTrialStatement,
  completeCheckoutStatement,
  userIdForCustomer,
  type ApplyResult,
  type SubscriptionUpdate,
} from "./sync.server";

/** Statuses a paid invoice may turn into "active": not canceled, and not an account that never checked out. */
const PAYABLE_STATUSES = ["past_due", "trialing", "pending_checkout", "active"] as const;

const idOf = (value: string | { id: string } | null | undefined) => (typeof value === "string" ? value : (value?.id ?? null));
const seconds = (value: number | null | undefined) => (value ? new Date(value * 1000) : null);

function periodOf(subscription: Stripe.Subscription): BillingPeriod | null {
  const interval = subscription.items?.data?.[0]?.price?.recurring?.interval;
  return interval === "year" ? "yearly" : interval === "month" ? "monthly" : null;
}

export function stateFromSubscription(subscription: Stripe.Subscription, deleted = false): SubscriptionUpdate {
  // Newer API versions keep the period on the subscription item.
  const item = subscription.items?.data?.[0] as { current_period_end?: number } | undefined;
  const periodEnd = item?.current_period_end ?? (subscription as unknown as { current_period_end?: number }).current_period_end;
  // The plan is named in the subscription's metadata (set at checkout and at each plan change); the seats
  // are its quantity. An event without them leaves both as they were.
  const plan = (PLANS as readonly string[]).includes(subscription.metadata?.plan ?? "") ? (subscription.metadata.plan as Plan) : undefined;
  const quantity = subscription.items?.data?.[0]?.quantity;
  return {
    ...(plan ? { plan } : {}),
    ...(plan && typeof quantity === "number" && quantity > 0 ? { seats: quantity } : {}),
    status: deleted ? "canceled" : statusFromStripe(subscription.status),
    billingPeriod: periodOf(subscription),
    stripeCustomerId: idOf(subscription.customer),
    stripeSubscriptionId: subscription.id,
    trialEndsAt: seconds(subscription.trial_end),
    currentPeriodEnd: seconds(periodEnd),
    cancelAtPeriodEnd: subscription.cancel_at_period_end,
  };
}

async function userFor(db: Db, metadataUserId: string | null | undefined, customer: string | null) {
  if (metadataUserId) return metadataUserId;
  return customer ? userIdForCustomer(db, customer) : null;
}

export interface EventOutcome {
  result: ApplyResult | "ignored";
  userId: string | null;
}

/**
 * The agent a Stripe event is about, as the event itself says (no database read): what finds the account's database
 * (ADR 0060). Checkout sessions carry the user id as client_reference_id, subscriptions in their metadata, invoices in
 * their subscription's metadata snapshot. Null when the event names no agent.
 */
export function eventUserId(event: Stripe.Event): string | null {
  switch (event.type) {
    case "checkout.session.completed":
      return event.data.object.client_reference_id ?? event.data.object.metadata?.userId ?? null;
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return event.data.object.metadata?.userId ?? null;
    case "invoice.paid":
    case "invoice.payment_failed":
      return event.data.object.parent?.subscription_details?.metadata?.userId ?? null;
    default:
      return null;
  }
}

/** Applies one verified Stripe event. Unknown event types are acknowledged and ignored. */
export async function handleStripeEvent(db: Db, event: Stripe.Event): Promise<EventOutcome> {
  const found =
    (userId: string) =>
    async (result: Promise<ApplyResult>): Promise<EventOutcome> => ({ result: await result, userId });
  const none = (result: EventOutcome["result"]): EventOutcome => ({ result, userId: null });
  const applied = { id: event.id, type: event.type, createdAt: new Date(event.created * 1000) };
  switch (event.type) {
    case "checkout.session.completed": {
      const session = event.data.object;
      const userId = session.client_reference_id ?? session.metadata?.userId ?? null;
      if (!userId) return none("unknown-user");
      const subscriber = await db.select().from(subscribers).where(eq(subscribers.userId, userId)).get();
      if (!subscriber) return none("unknown-user");
      const customer = idOf(session.customer);
      const withTrial = session.metadata?.trial === "1";
      const extra = [
        ...(session.metadata?.checkoutId ? [completeCheckoutStatement(db, session.metadata.checkoutId)] : []),
        ...(withTrial ? [claimTrialStatement(db, { email: subscriber.email, userId, stripeCustomerId: customer })] : []),
      ];
      // The subscription events carry the precise status; until they arrive the trial (or plan) has begun.
      return found(userId)(
        applySubscriptionState(
          db,
          userId,
          {
            status: withTrial ? "trialing" : "active",
            stripeCustomerId: customer,
            stripeSubscriptionId: idOf(session.subscription),
            billingPeriod: session.metadata?.period === "yearly" ? "yearly" : session.metadata?.period === "monthly" ? "monthly" : undefined,
          },
          applied,
          extra,
        ),
      );
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted": {
      const subscription = event.data.object;
      const userId = await userFor(db, subscription.metadata?.userId, idOf(subscription.customer));
      if (!userId) return none("unknown-user");
      return found(userId)(
        applySubscriptionState(db, userId, stateFromSubscription(subscription, event.type === "customer.subscription.deleted"), applied),
      );
    }
    case "invoice.paid":
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      const userId = await userFor(db, null, idOf(invoice.customer));
      if (!userId) return none("unknown-user");
      if (event.type === "invoice.payment_failed") return found(userId)(applySubscriptionState(db, userId, { status: "past_due" }, applied));
      // A paid invoice of 0 (the trial's first invoice) says nothing about the status; a real payment
      // brings a past-due account back to active. It never revives a canceled subscription (Stripe can
      // report a last invoice paid after the cancellation): only a new checkout or subscription event does.
      if (!invoice.amount_paid) return none("ignored");
      return found(userId)(applySubscriptionState(db, userId, { status: "active" }, applied, [], PAYABLE_STATUSES));
    }
    default:
      return none("ignored");
  }
}
