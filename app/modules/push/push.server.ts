import { and, eq, or, sql } from "drizzle-orm";
import * as z from "zod";
import { pushSubscriptions } from "~/db/schema";
import type { Config } from "~/lib/env.server";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { pushEndpointProblem } from "./endpoint";

// Web Push (ADR 0032): the devices an agent turned alerts on for, and sending to them. Real Web Push:
// each message is encrypted to the device's keys (RFC 8291) and signed with the deployment's VAPID key (RFC 8292);
// the push service (the browser maker's) only carries it. On only with the PUSH_NOTIFICATIONS flag, which the
// configuration refuses without a VAPID key pair. Sending goes through the push queue (push-delivery.server.ts).

/** Subscriptions one agent may hold: every phone, tablet and browser they use, with room to spare. */
export const MAX_SUBSCRIPTIONS = 20;

export type PushConfig = Pick<
  Config,
  "FEATURE_FLAGS" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "SALES_INBOX" | "PUSH_TEST_HOSTS"
>;

/** The public key browsers subscribe with, or null when push is off. */
export function pushPublicKey(config: PushConfig): string | null {
  return config.FEATURE_FLAGS?.PUSH_NOTIFICATIONS && config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY ? config.VAPID_PUBLIC_KEY : null;
}

const base64url = (what: string, bytes: number) =>
  z
    .string({ error: `The subscription's ${what} is missing.` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `The subscription's ${what} is not base64url.`)
    .refine((value) => Math.floor((value.replace(/=+$/, "").length * 3) / 4) === bytes, `The subscription's ${what} has the wrong length.`);

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const PushSubscriptionSchema = z.object(
  {
    endpoint: z
      .url({ error: "The subscription's endpoint must be an https address.", protocol: /^https$/ })
      .max(1_000, "The subscription's endpoint is too long."),
    keys: z.object({ p256dh: base64url("p256dh key", 65), auth: base64url("auth secret", 16) }, { error: "The subscription's keys are missing." }),
  },
  { error: "Send the subscription as JSON." },
);
export type PushSubscriptionInput = z.infer<typeof PushSubscriptionSchema>;

export type SaveResult = { ok: true } | { ok: false; status: 400 | 409; error: string };

export const HELD_ELSEWHERE =
  "Alerts for this browser are on for another Porchlight account. Turn them off there, or turn alerts off and on again in this browser.";

/**
 * Keeps a device's subscription for the agent. Only an endpoint at a browser's push service is kept (endpoint.ts);
 * anything else is a 400 and changes nothing. An endpoint another agent holds moves to this agent only with proof
 * that this is the same browser: the same keys, which only that browser (and Porchlight) knows. That is the
 * case of a second agent signing in on a shared device, and one device then alerts one agent. Different keys
 * are a 409, checked in the same statement that writes, so nobody takes over a device by knowing its endpoint.
 */
export async function saveSubscription(
  context: Pick<RequestContext, "db" | "config">,
  userId: UserId,
  input: PushSubscriptionInput,
  now = Date.now(),
): Promise<SaveResult> {
  const problem = pushEndpointProblem(input.endpoint, context.config.PUSH_TEST_HOSTS);
  if (problem) return { ok: false, status: 400, error: problem };
  const held = await context.db
    .select({ n: sql<number>`count(*)` })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), sql`${pushSubscriptions.endpoint} <> ${input.endpoint}`))
    .get();
  if ((held?.n ?? 0) >= MAX_SUBSCRIPTIONS)
    return { ok: false, status: 409, error: `Alerts are on for ${MAX_SUBSCRIPTIONS} devices already. Turn them off on one you no longer use first.` };
  const saved = await context.db
    .insert(pushSubscriptions)
    .values({
      id: crypto.randomUUID(),
      userId,
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      createdAt: now,
      failures: 0,
    })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, createdAt: now, failures: 0, lastSentAt: null },
      setWhere: or(
        eq(pushSubscriptions.userId, userId),
        and(eq(pushSubscriptions.p256dh, input.keys.p256dh), eq(pushSubscriptions.auth, input.keys.auth)),
      ),
    })
    .returning({ id: pushSubscriptions.id });
  if (saved.length === 0) return { ok: false, status: 409, error: HELD_ELSEWHERE };
  return { ok: true };
}

/** Turns alerts off for one of the agent's devices. Another agent's endpoint is left alone. */
export async function removeSubscription(context: RequestContext, userId: UserId, endpoint: string): Promise<boolean> {
  const removed = await context.db
    .delete(pushSubscriptions)
    .where(ownedBy(pushSubscriptions, userId, eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return removed.length > 0;
}

export async function countSubscriptions(context: Pick<RequestContext, "db">, userId: UserId): Promise<number> {
  const row = await context.db.select({ n: sql<number>`count(*)` }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).get();
  return row?.n ?? 0;
}
