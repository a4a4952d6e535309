import { and, eq, inArray } from "drizzle-orm";
import { checkoutSessions, subscribers } from "~/db/schema";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { clientIp, hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { ownedBy } from "~/lib/tenancy.server";
import { EMAIL_PATTERN } from "~/modules/auth/auth.messages";
import type { SessionUser } from "~/modules/auth/session.server";
import { TRIAL_DAYS, type BillingPeriod } from "./plans";
import { stripeClient } from "./stripe.server";
import { hasHadTrial } from "./sync.server";
import { handleStripeEvent } from "./webhooks.server";

/** Error codes of spec section 8 ("Signup Error"): the page maps them to its texts. */
type CheckoutError = "invalid_email" | "config_error" | "rate_limited" | "failed";
export type CheckoutResult = { ok: true; url: string } | { ok: false; error: CheckoutError; retryAfterSeconds?: number };

const CHECKOUT_TTL_MS = 24 * 3600 * 1000;

/** Whether this account still has its free trial (one per normalised e-mail or Stripe customer). */
export async function trialAvailable(context: RequestContext, user: SessionUser): Promise<boolean> {
  const subscriber = await context.db.select({ customer: subscribers.stripeCustomerId }).from(subscribers).where(ownedBy(subscribers, user.id)).get();
  return !(await hasHadTrial(context.db, user.email, subscriber?.customer));
}

/** The mode checkout runs in: Stripe with keys; the local test checkout only outside production. */
export function checkoutMode(context: RequestContext): "stripe" | "test" | "unconfigured" {
  if (context.config.STRIPE_SECRET_KEY) return "stripe";
  return context.config.isDev ? "test" : "unconfigured";
}

function markPending(context: RequestContext, user: SessionUser) {
  // Only an account without a live subscription waits on checkout; a canceled one keeps its history.
  return context.db
    .update(subscribers)
    .set({ subscriptionStatus: "pending_checkout", updatedAt: new Date() })
    .where(ownedBy(subscribers, user.id, inArray(subscribers.subscriptionStatus, ["inactive", "pending_checkout"])));
}

/** create-checkout (spec section 7): starts a subscription checkout and returns where to send the browser. */
export async function createCheckout(context: RequestContext, request: Request, user: SessionUser, period: BillingPeriod): Promise<CheckoutResult> {
  if (!EMAIL_PATTERN.test(user.email)) return { ok: false, error: "invalid_email" };
  const limit = await hitRateLimit(context.cloudflare.env.KV, "checkout", `${user.id}:${clientIp(request)}`, RATE_LIMITS.trialCheckout);
  if (!limit.allowed) return { ok: false, error: "rate_limited", retryAfterSeconds: limit.retryAfterSeconds };

  const mode = checkoutMode(context);
  if (mode === "unconfigured") return { ok: false, error: "config_error" };
  const withTrial = await trialAvailable(context, user);
  const id = newId();
  const record = {
    id,
    userId: user.id,
    billingPeriod: period,
    withTrial,
    expiresAt: new Date(Date.now() + CHECKOUT_TTL_MS),
  };

  if (mode === "test") {
    await context.db.batch([context.db.insert(checkoutSessions).values({ ...record, provider: "test" }), markPending(context, user)]);
    return { ok: true, url: `/billing/test-checkout/${id}` };
  }

  const { config } = context;
  const price = period === "yearly" ? config.STRIPE_PRICE_YEARLY : config.STRIPE_PRICE_MONTHLY;
  const stripe = stripeClient(config);
  if (!price || !stripe) return { ok: false, error: "config_error" };
  try {
    const subscriber = await context.db
      .select({ customer: subscribers.stripeCustomerId })
      .from(subscribers)
      .where(ownedBy(subscribers, user.id))
      .get();
    const customer =
      subscriber?.customer ??
      (await stripe.customers.create({ email: user.email, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}` })).id;
    const origin = appOrigin(context, request);
    const session = await stripe.checkout.sessions.create(
      {
        mode: "subscription",
        customer,
        client_reference_id: user.id,
        line_items: [{ price, quantity: 1 }],
        payment_method_collection: "always",
        subscription_data: { ...(withTrial ? { trial_period_days: TRIAL_DAYS } : {}), metadata: { userId: user.id, plan: "solo" } },
        metadata: { userId: user.id, checkoutId: id, trial: withTrial ? "1" : "0", period },
        success_url: `${origin}/app/welcome?success=1&trial=${withTrial ? 1 : 0}&session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${origin}/trial/start?canceled=1`,
      },
      { idempotencyKey: `checkout-${id}` },
    );
    if (!session.url) return { ok: false, error: "failed" };
    await context.db.batch([
      context.db.insert(checkoutSessions).values({ ...record, provider: "stripe" }),
      context.db.update(subscribers).set({ stripeCustomerId: customer }).where(ownedBy(subscribers, user.id)),
      markPending(context, user),
    ]);
    return { ok: true, url: session.url };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ event: "checkout_failed", userId: user.id, message }));
    return { ok: false, error: /email/i.test(message) ? "invalid_email" : "failed" };
  }
}

/** A test-mode checkout of this user that is still open, or null (404 for anyone else's). */
export async function openTestCheckout(context: RequestContext, user: SessionUser, id: string) {
  return context.db
    .select()
    .from(checkoutSessions)
    .where(ownedBy(checkoutSessions, user.id, and(eq(checkoutSessions.id, id), eq(checkoutSessions.provider, "test"))))
    .get();
}

/**
 * Right after Stripe Checkout the browser can arrive before the webhook. With the session id Stripe put in
 * the success URL, fetch the session and, if it is complete and this user's, apply it through the same
 * handler as the webhook's checkout.session.completed (idempotent under its own event id).
 */
export async function syncCompletedCheckout(context: RequestContext, user: SessionUser, sessionId: string): Promise<boolean> {
  const stripe = stripeClient(context.config);
  if (!stripe || !/^cs_[\w]+$/.test(sessionId)) return false;
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    if (session.status !== "complete" || session.client_reference_id !== user.id) return false;
    const event = {
      id: `pull_${session.id}`,
      object: "event",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: { object: session },
    } as unknown as Parameters<typeof handleStripeEvent>[1];
    const { result } = await handleStripeEvent(context.db, event);
    return result === "applied" || result === "duplicate";
  } catch (error) {
    console.error(JSON.stringify({ event: "checkout_sync_failed", userId: user.id, message: String(error) }));
    return false;
  }
}
