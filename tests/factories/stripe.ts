import Stripe from "stripe";
import { env, exports } from "cloudflare:workers";
import { inject } from "vitest";
import type { Env } from "~/lib/env.server";

const WEBHOOK_SECRET = "whsec_porchlight_test_secret";
const worker = (exports as unknown as { default: Fetcher }).default;
const crypto = Stripe.createSubtleCryptoProvider();

let sequence = 0;
/** A Stripe event envelope as Stripe sends it. `created` is in seconds. */
export function stripeEvent(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
  sequence += 1;
  return { id: `evt_test_${Date.now()}_${sequence}`, object: "event", type, created, livemode: false, api_version: "2025-10-29", data: { object } };
}

export function subscriptionObject(input: {
  id?: string;
  customer: string;
  userId?: string;
  status: string;
  interval?: "month" | "year";
  trialEnd?: number;
  periodEnd?: number;
}) {
  return {
    id: input.id ?? `sub_${input.customer}`,
    object: "subscription",
    customer: input.customer,
    status: input.status,
    metadata: input.userId ? { userId: input.userId } : {},
    cancel_at_period_end: false,
    trial_end: input.trialEnd ?? null,
    items: {
      object: "list",
      data: [
        { id: "si_1", current_period_end: input.periodEnd ?? null, price: { id: "price_x", recurring: { interval: input.interval ?? "month" } } },
      ],
    },
  };
}

/** Posts an event to the webhook, signed as Stripe would sign it (optionally at another time or secret). */
export async function postWebhook(event: unknown, options: { timestamp?: number; secret?: string; body?: string } = {}) {
  const payload = JSON.stringify(event);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
    cryptoProvider: crypto,
  });
  return worker.fetch(
    new Request("http://localhost/api/stripe/webhook", {
      method: "POST",
      headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
      body: options.body ?? payload,
    }),
  );
}

/** The Worker's settings with Stripe configured against the local fake Stripe API (tests/fakes). */
export function stripeEnv(): Env {
  return {
    ...(env as Env),
    STRIPE_SECRET_KEY: "sk_test_porchlight_fake",
    STRIPE_PRICE_MONTHLY: "price_solo_monthly",
    STRIPE_PRICE_YEARLY: "price_solo_yearly",
    STRIPE_PRICE_TEAM_MONTHLY: "price_team_monthly",
    STRIPE_PRICE_TEAM_YEARLY: "price_team_yearly",
    STRIPE_API_BASE: inject("fakeStripeBase"),
  };
}

export type FakeRequest = { method: string; path: string; body: Record<string, string>; idempotencyKey: string | null; authorization: string | null };

/** Talks to the fake's control endpoints: seed objects, complete sessions, read what was requested. */
export async function fakeStripe<T = unknown>(path: string, json?: unknown): Promise<T> {
  const response = await fetch(
    `${inject("fakeStripeBase")}${path}`,
    json === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) },
  );
  return response.json<T>();
}
