import { Hono } from "hono";
import { appOrigin, createRequestContext } from "~/lib/context.server";
import { getConfig } from "~/lib/env.server";
import { sendWelcomeEmailOnce } from "~/modules/billing/welcome.server";
import { verifyWebhook } from "~/modules/billing/stripe.server";
import { eventUserId, handleStripeEvent } from "~/modules/billing/webhooks.server";
import { routeToUser } from "~/modules/shards/directory.server";
import type { ApiEnv } from "./api-env";

/** POST /api/stripe/webhook: Stripe's events, verified on the raw body, applied once each. */
export const stripeApi = new Hono<ApiEnv>().post("/stripe/webhook", async (c) => {
  const config = getConfig(c.env);
  if (!config.STRIPE_WEBHOOK_SECRET) return c.json({ error: "Stripe webhooks are not configured." }, 503);
  const signature = c.req.header("Stripe-Signature");
  if (!signature) return c.json({ error: "Missing Stripe-Signature header." }, 400);
  const body = await c.req.text();
  let event;
  try {
    event = await verifyWebhook(body, signature, config.STRIPE_WEBHOOK_SECRET);
  } catch (error) {
    console.warn(JSON.stringify({ event: "stripe_webhook_rejected", message: error instanceof Error ? error.message : String(error) }));
    return c.json({ error: "Invalid signature." }, 400);
  }
  // The event is applied in the database of the account it names (ADR 0060); one that names none is looked up at home.
  await routeToUser(c.env, eventUserId(event));
  const context = createRequestContext(c.env, c.executionCtx, "");
  const { result, userId } = await handleStripeEvent(context.db, event);
  console.log(JSON.stringify({ event: "stripe_webhook", id: event.id, type: event.type, result }));
  // auth-welcome: the first event that makes the subscription live sends the welcome e-mail, once.
  if (result === "applied" && userId) await sendWelcomeEmailOnce(context, appOrigin(context, c.req.raw), userId);
  // Stripe retries anything but 2xx; an event for an unknown customer will not become known by retrying.
  return c.json({ received: true, result });
});
