import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, eq, inArray, or, sql } from "drizzle-orm";
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
// configuration refuses without a VAPID key pair.

/** Push services keep a message this long for a device that is off, then drop it: a lead alert is about now. */
const PUSH_TTL_SECONDS = 30 * 60;
/** A subscription whose sends failed this many times in a row (not a 404 or 410, which end it at once) is dropped. */
const MAX_FAILURES = 5;
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

export interface PushMessage {
  title: string;
  body: string;
  /** The app page a tap opens. */
  url: string;
  /** Messages with the same tag replace each other on the device (the reminder replaces the first alert). */
  tag: string;
}

/**
 * Sends a message to every device of the agent; returns how many push services took it. Push off, or no device:
 * nothing is sent. A 404 or 410 (the subscription is gone) deletes the subscription; other failures are counted.
 */
export async function pushToUser(
  context: Pick<RequestContext, "db" | "config">,
  userId: UserId,
  message: PushMessage,
  now = Date.now(),
): Promise<number> {
  const publicKey = pushPublicKey(context.config);
  if (!publicKey || !context.config.VAPID_PRIVATE_KEY) return 0;
  const vapid = {
    subject: context.config.VAPID_SUBJECT ?? `mailto:${context.config.SALES_INBOX}`,
    publicKey,
    privateKey: context.config.VAPID_PRIVATE_KEY,
  };
  const all = await context.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).all();
  // Checked again before any request: a subscription kept before the rule, or written around it, is never
  // contacted; it is dropped like one the push service says is gone.
  const refused = all.filter((device) => pushEndpointProblem(device.endpoint, context.config.PUSH_TEST_HOSTS) !== null);
  if (refused.length) console.warn(JSON.stringify({ event: "push_endpoint_refused", subscriptions: refused.length }));
  const devices = all.filter((device) => !refused.includes(device));
  let delivered = 0;
  const gone: string[] = refused.map((device) => device.id);
  const failed: string[] = [];
  const sent: string[] = [];
  await Promise.all(
    devices.map(async (device) => {
      try {
        const payload = await buildPushPayload(
          {
            data: { title: message.title, body: message.body, url: message.url, tag: message.tag },
            options: { ttl: PUSH_TTL_SECONDS, urgency: "high", topic: message.tag.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32) || "porchlight" },
          },
          { endpoint: device.endpoint, expirationTime: null, keys: { p256dh: device.p256dh, auth: device.auth } },
          vapid,
        );
        // A push service answers 201; a redirect is not followed (it could point anywhere) and counts as a failure.
        const response = await fetch(device.endpoint, { method: "POST", headers: payload.headers, body: payload.body, redirect: "manual" });
        if (response.status === 404 || response.status === 410) gone.push(device.id);
        else if (response.ok) {
          delivered += 1;
          sent.push(device.id);
        } else failed.push(device.id);
      } catch (error) {
        console.error(JSON.stringify({ event: "push_failed", detail: error instanceof Error ? error.message : String(error) }));
        failed.push(device.id);
      }
    }),
  );
  if (gone.length) await context.db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
  if (sent.length) await context.db.update(pushSubscriptions).set({ lastSentAt: now, failures: 0 }).where(inArray(pushSubscriptions.id, sent));
  if (failed.length) {
    await context.db
      .update(pushSubscriptions)
      .set({ failures: sql`${pushSubscriptions.failures} + 1` })
      .where(inArray(pushSubscriptions.id, failed));
    await context.db
      .delete(pushSubscriptions)
      .where(and(inArray(pushSubscriptions.id, failed), sql`${pushSubscriptions.failures} >= ${MAX_FAILURES}`));
  }
  return delivered;
}
