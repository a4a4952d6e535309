import Stripe from "stripe";
import type { Config } from "~/lib/env.server";

/** Webhook signatures older than this are refused (Stripe's default tolerance). */
const WEBHOOK_TOLERANCE_SECONDS = 300;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** A Stripe client on Workers' fetch, or null when no secret key is configured. */
export function stripeClient(config: Config): Stripe | null {
  if (!config.STRIPE_SECRET_KEY) return null;
  const base = config.STRIPE_API_BASE ? new URL(config.STRIPE_API_BASE) : null;
  return new Stripe(config.STRIPE_SECRET_KEY, {
    httpClient: Stripe.createFetchHttpClient(),
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base ? { host: base.hostname, port: Number(base.port || 80), protocol: base.protocol.replace(":", "") as "http" | "https" } : {}),
  });
}

/** Verifies the Stripe-Signature header over the raw body and returns the event, or throws. */
export function verifyWebhook(rawBody: string, signature: string, secret: string, receivedAt?: number): Promise<Stripe.Event> {
  return Stripe.webhooks.constructEventAsync(rawBody, signature, secret, WEBHOOK_TOLERANCE_SECONDS, cryptoProvider, receivedAt);
}
