import type Stripe from "stripe";
import { subscribers } from "~/db/schema";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { ownedBy } from "~/lib/tenancy.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { checkoutMode } from "./checkout.server";
import { nextBillingDate } from "./plans";
import { stripeClient } from "./stripe.server";
import { applySubscriptionState } from "./sync.server";

export interface BillingDetails {
  mode: "stripe" | "test" | "unconfigured";
  status: string | null;
  plan: string | null;
  /** Paid seats: 1 on Solo, the Stripe quantity on Team. */
  seats: number;
  billingPeriod: string | null;
  trialEndsAt: number | null;
  nextBillingAt: number | null;
  cancelAtPeriodEnd: boolean;
  canManage: boolean;
  card: { brand: string; last4: string; expMonth: number; expYear: number } | null;
  address: string | null;
  /** Set when Stripe could not be reached: the page says so instead of showing blanks as facts. */
  stripeError: string | null;
}

function formatAddress(address: Stripe.Address | null | undefined): string | null {
  if (!address) return null;
  const parts = [address.line1, address.line2, [address.postal_code, address.city].filter(Boolean).join(" "), address.state, address.country];
  const text = parts.filter(Boolean).join(", ");
  return text || null;
}

/** Settings › Billing: what Porchlight knows, plus the card and address Stripe holds (never stored here). */
export async function getBillingDetails(context: RequestContext, user: SessionUser): Promise<BillingDetails> {
  const row = await context.db.select().from(subscribers).where(ownedBy(subscribers, user.id)).get();
  const mode = checkoutMode(context);
  const live = row?.subscriptionStatus === "active" || row?.subscriptionStatus === "trialing";
  const details: BillingDetails = {
    mode,
    status: row?.subscriptionStatus ?? null,
    plan: row?.plan ?? null,
    seats: row?.seats ?? 1,
    billingPeriod: row?.billingPeriod ?? null,
    trialEndsAt: row?.trialEndsAt?.getTime() ?? null,
    nextBillingAt: row
      ? (nextBillingDate({ status: row.subscriptionStatus, trialEndsAt: row.trialEndsAt, currentPeriodEnd: row.currentPeriodEnd })?.getTime() ?? null)
      : null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    canManage: false,
    card: null,
    address: null,
    stripeError: null,
  };
  if (mode === "test") return { ...details, canManage: live };
  const stripe = stripeClient(context.config);
  if (!stripe || !row?.stripeCustomerId) return details;
  details.canManage = true;
  try {
    const customer = await stripe.customers.retrieve(row.stripeCustomerId, { expand: ["invoice_settings.default_payment_method"] });
    if (customer.deleted) return { ...details, canManage: false };
    details.address = formatAddress(customer.address);
    let method = customer.invoice_settings?.default_payment_method as Stripe.PaymentMethod | string | null;
    if (!method || typeof method === "string") {
      const listed = await stripe.paymentMethods.list({ customer: customer.id, type: "card", limit: 1 });
      method = listed.data[0] ?? null;
    }
    if (method && typeof method !== "string" && method.card) {
      details.card = { brand: method.card.brand, last4: method.card.last4, expMonth: method.card.exp_month, expYear: method.card.exp_year };
      details.address ??= formatAddress(method.billing_details?.address);
    }
  } catch (error) {
    console.error(JSON.stringify({ event: "billing_details_failed", userId: user.id, message: String(error) }));
    details.stripeError = "Payment details could not be loaded from Stripe right now. Please try again in a moment.";
  }
  return details;
}

/** The Stripe Customer Portal (update card, cancel at period end, invoices), or null when unavailable. */
export async function customerPortalUrl(context: RequestContext, request: Request, user: SessionUser): Promise<string | null> {
  const stripe = stripeClient(context.config);
  if (!stripe) return null;
  const row = await context.db.select({ customer: subscribers.stripeCustomerId }).from(subscribers).where(ownedBy(subscribers, user.id)).get();
  if (!row?.customer) return null;
  const session = await stripe.billingPortal.sessions.create({
    customer: row.customer,
    return_url: `${appOrigin(context, request)}/settings?tab=billing`,
  });
  return session.url;
}

/**
 * Test mode's stand-in for the portal's cancel button: cancellation takes effect at the end of the period,
 * through the same state code as Stripe's subscription.updated event.
 */
export async function setTestCancelAtPeriodEnd(context: RequestContext, user: SessionUser, cancel: boolean) {
  const row = await context.db.select().from(subscribers).where(ownedBy(subscribers, user.id)).get();
  if (!row || (row.subscriptionStatus !== "active" && row.subscriptionStatus !== "trialing")) return "not-live" as const;
  return applySubscriptionState(
    context.db,
    user.id,
    { status: row.subscriptionStatus, cancelAtPeriodEnd: cancel },
    { id: `test_cancel_${newId()}`, type: "test.subscription.updated", createdAt: new Date() },
  );
}

export type EndSubscriptionResult = { ok: true; ended: boolean } | { ok: false; message: string };

/**
 * Ends the subscription at once, for an account being deleted: no further charge, no renewal.
 * With Stripe, the subscription is cancelled there first (if Stripe cannot be reached nothing changes here and
 * the caller stops); in test mode, the same state code as Stripe's deletion event. An account with nothing
 * live (never subscribed, already ended) has nothing to end.
 */
export async function endSubscriptionNow(context: RequestContext, userId: SessionUser["id"]): Promise<EndSubscriptionResult> {
  const row = await context.db.select().from(subscribers).where(ownedBy(subscribers, userId)).get();
  if (!row || row.subscriptionStatus === "canceled" || row.subscriptionStatus === "inactive") return { ok: true, ended: false };
  const stripe = checkoutMode(context) === "stripe" ? stripeClient(context.config) : null;
  if (stripe && row.stripeSubscriptionId) {
    try {
      await stripe.subscriptions.cancel(row.stripeSubscriptionId, {}, { idempotencyKey: `account-delete-${row.stripeSubscriptionId}` });
    } catch (error) {
      // Already gone at Stripe (cancelled in the portal, deleted by support): there is nothing left to stop.
      const code = (error as { code?: string; statusCode?: number }).code;
      if (code !== "resource_missing") {
        console.error(JSON.stringify({ event: "subscription_cancel_failed", userId, message: String(error) }));
        return {
          ok: false,
          message: "Your subscription could not be cancelled at Stripe right now, so nothing was changed. Please try again in a few minutes.",
        };
      }
    }
  }
  await applySubscriptionState(
    context.db,
    userId,
    { status: "canceled", cancelAtPeriodEnd: false },
    { id: `account_deleted_${newId()}`, type: "porchlight.account.deleted", createdAt: new Date() },
  );
  return { ok: true, ended: true };
}
