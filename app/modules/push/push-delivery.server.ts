import { buildPushPayload } from "@block65/webcrypto-web-push";
import { and, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { leadAlerts, pushOutbox, pushSubscriptions, users } from "~/db/schema";
import type { Config, PushQueueMessage } from "~/lib/env.server";
import { shardTag } from "~/lib/shards.server";
import {
  claimable,
  consumeOutgoingBatch,
  DEAD_LISTED,
  deliveryFiguresAcross,
  newestDeadAcross,
  type DeliveryFigures,
  type DeliveryOutcome,
  dying,
  SEND_BATCH_MAX,
} from "~/modules/outgoing/queue-delivery.server";
import { pushEndpointProblem } from "./endpoint";
import { pushPublicKey, type PushConfig } from "./push.server";

// Push through the push queue (ADR 0056), the way e-mail goes: the sender writes a push_outbox row (its id is the
// message's idempotency key) and puts the id on the queue; the consumer claims the row, sends to each of the agent's
// devices not yet reached, and records which took it, so a retry (a push service that answered 5xx) sends only to
// the others. Retries back off and end in the dead letters like e-mail's (app/modules/outgoing/queue-delivery.server.ts).

/** The queues, as wrangler.toml names them. */
export const PUSH_QUEUE_NAME = "porchlight-push";
export const PUSH_DEAD_LETTER_QUEUE_NAME = "porchlight-push-dead";

/** Push services keep a message this long for a device that is off, then drop it: a lead alert is about now. */
const PUSH_TTL_SECONDS = 30 * 60;
/** A subscription whose sends failed this many times in a row (not a 404 or 410, which end it at once) is dropped. */
const MAX_FAILURES = 5;

export interface PushMessage {
  title: string;
  body: string;
  /** The app page a tap opens. */
  url: string;
  /** Messages with the same tag replace each other on the device (the reminder replaces the first alert). */
  tag: string;
}

export interface OutgoingPush extends PushMessage {
  userId: string;
  /** The message's idempotency key: the same key queued twice is one push. */
  key: string;
  kind: "lead_alert" | "lead_reminder" | "email_reply";
  /** The lead alerts it announces, marked pushed once a device took it. */
  leads?: { arrivedAt: number; contactIds: string[] | null };
}

type QueueContext = { db: Db; config: PushConfig & Pick<Config, "pushQueue"> };

/**
 * Writes each push's row and puts the new ones on the push queue (sendBatch, at most 100 a call). A key written
 * before is not queued again. Nothing is written while push is off. Returns how many were queued.
 */
export async function queuePushes(context: QueueContext, pushes: OutgoingPush[]): Promise<number> {
  if (pushes.length === 0 || !pushPublicKey(context.config)) return 0;
  const { db } = context;
  // One statement however many pushes: their rows as one JSON parameter (D1 binds at most 100 per statement).
  const rows = pushes.map((p) => ({
    id: p.key,
    userId: p.userId,
    kind: p.kind,
    title: p.title,
    body: p.body,
    url: p.url,
    tag: p.tag,
    leads: p.leads ? JSON.stringify(p.leads) : null,
  }));
  const written = (
    await db.all<{ id: string }>(sql`
      insert into push_outbox (id, user_id, kind, title, body, url, tag, leads)
      select json_extract(value, '$.id'), json_extract(value, '$.userId'), json_extract(value, '$.kind'),
        json_extract(value, '$.title'), json_extract(value, '$.body'), json_extract(value, '$.url'),
        json_extract(value, '$.tag'), json_extract(value, '$.leads')
      from json_each(${JSON.stringify(rows)}) where true
      on conflict (id) do nothing
      returning id`)
  ).map((r) => r.id);
  let queued = 0;
  for (let i = 0; i < written.length; i += SEND_BATCH_MAX) {
    const ids = written.slice(i, i + SEND_BATCH_MAX);
    try {
      await context.config.pushQueue.sendBatch(ids.map((pushId) => ({ body: { pushId, ...shardTag(context.db.$client) } })));
      queued += ids.length;
    } catch (error) {
      // The queue refused them: dead at once, counted and listed like any dead letter.
      const message = `not queued: ${error instanceof Error ? error.message : String(error)}`;
      console.error(JSON.stringify({ event: "push_enqueue_failed", pushes: ids.length, message }));
      const now = new Date();
      await db.update(pushOutbox).set({ status: "dead", error: message, deadAt: now, lastAttemptAt: now }).where(inArray(pushOutbox.id, ids));
    }
  }
  return queued;
}

/** What one device's push service said: taken, gone (404/410: the subscription is over) or refused. */
type DeviceAnswer = { id: string; answer: "sent" | "gone" | "refused"; detail?: string };

async function sendToDevice(
  device: typeof pushSubscriptions.$inferSelect,
  message: PushMessage,
  vapid: { subject: string; publicKey: string; privateKey: string },
): Promise<DeviceAnswer> {
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
    if (response.status === 404 || response.status === 410) return { id: device.id, answer: "gone" };
    if (response.ok) return { id: device.id, answer: "sent" };
    return { id: device.id, answer: "refused", detail: `push service answered ${response.status}` };
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ event: "push_failed", detail }));
    return { id: device.id, answer: "refused", detail };
  }
}

/**
 * Delivers one push_outbox row: claims it, sends it to each of the agent's devices it has not reached yet and
 * records those that took it. A push service that refused (5xx, a redirect, no answer) makes the message retry, for
 * those devices only; a 404 or 410 ends the subscription. When retries have dropped every refusing device (five
 * failures in a row) and none took it, the message still counts as failed, so it ends in the dead letters.
 */
async function deliverPush(db: Db, config: PushConfig, pushId: string, now: number): Promise<DeliveryOutcome> {
  const [row] = await db
    .update(pushOutbox)
    .set({ status: "sending", attempts: sql`${pushOutbox.attempts} + 1`, lastAttemptAt: new Date(now) })
    .where(claimable(pushOutbox, pushId, now))
    .returning();
  if (!row) return { outcome: "skipped" };
  const stillSending = and(eq(pushOutbox.id, row.id), eq(pushOutbox.status, "sending"));
  const publicKey = pushPublicKey(config);
  if (!publicKey || !config.VAPID_PRIVATE_KEY) {
    await db.update(pushOutbox).set({ status: "off" }).where(stillSending);
    return { outcome: "kept" };
  }
  const vapid = { subject: config.VAPID_SUBJECT ?? `mailto:${config.SALES_INBOX}`, publicKey, privateKey: config.VAPID_PRIVATE_KEY };
  const all = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, row.userId)).all();
  // Checked again before any request: a subscription kept before the rule, or written around it, is never
  // contacted; it is dropped like one the push service says is gone.
  const refused = all.filter((device) => pushEndpointProblem(device.endpoint, config.PUSH_TEST_HOSTS) !== null);
  if (refused.length) console.warn(JSON.stringify({ event: "push_endpoint_refused", subscriptions: refused.length }));
  const devices = all.filter((device) => !refused.includes(device) && !row.sentTo.includes(device.id));
  const answers = await Promise.all(devices.map((device) => sendToDevice(device, row, vapid)));
  const gone = [...refused.map((device) => device.id), ...answers.filter((a) => a.answer === "gone").map((a) => a.id)];
  const sent = answers.filter((a) => a.answer === "sent").map((a) => a.id);
  const failed = answers.filter((a) => a.answer === "refused");
  if (gone.length) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, gone));
  if (sent.length) await db.update(pushSubscriptions).set({ lastSentAt: now, failures: 0 }).where(inArray(pushSubscriptions.id, sent));
  if (failed.length) {
    const ids = failed.map((f) => f.id);
    await db
      .update(pushSubscriptions)
      .set({ failures: sql`${pushSubscriptions.failures} + 1` })
      .where(inArray(pushSubscriptions.id, ids));
    await db.delete(pushSubscriptions).where(and(inArray(pushSubscriptions.id, ids), sql`${pushSubscriptions.failures} >= ${MAX_FAILURES}`));
  }
  const sentTo = [...row.sentTo, ...sent];
  // Refused before and nowhere left to try: the earlier refusal stands.
  const error = failed.length
    ? `${failed.length} of ${devices.length} devices not reached: ${failed[0]!.detail}`
    : sentTo.length === 0
      ? row.error
      : null;
  if (error) {
    await db.update(pushOutbox).set({ status: "retrying", sentTo, error }).where(stillSending);
    return { outcome: "failed", attempts: row.attempts, error };
  }
  await db
    .update(pushOutbox)
    .set({ status: "sent", sentTo, sentAt: new Date(now), error: null })
    .where(stillSending);
  if (row.leads && sent.length > 0) {
    // Up to 90 leads (D1 binds at most 100 parameters) are named by id; past that, the agent's alerts of that
    // millisecond are the import's.
    const { arrivedAt, contactIds } = row.leads;
    await db
      .update(leadAlerts)
      .set({ pushedAt: now })
      .where(
        and(
          eq(leadAlerts.userId, row.userId),
          eq(leadAlerts.arrivedAt, arrivedAt),
          isNull(leadAlerts.pushedAt),
          contactIds ? inArray(leadAlerts.contactId, contactIds) : undefined,
        ),
      );
  }
  return { outcome: "sent" };
}

/** A message out of retries: its row is dead (unless it was sent after all). */
function markPushDead(db: Db, pushId: string, now: number) {
  return db
    .update(pushOutbox)
    .set({ status: "dead", deadAt: new Date(now) })
    .where(dying(pushOutbox, pushId));
}

/** The queue() handler for the push queue and its dead letters. */
export function consumePushBatch(batch: MessageBatch<PushQueueMessage>, db: Db, config: PushConfig) {
  return consumeOutgoingBatch(batch, {
    deadLetterQueue: PUSH_DEAD_LETTER_QUEUE_NAME,
    idOf: (body) => body.pushId,
    deliver: (id, now) => deliverPush(db, config, id, now),
    markDead: (id, now) => markPushDead(db, id, now),
  });
}

/**
 * The push queue's figures as of `now` over every account database (ADR 0060): one definition for the Monitoring tab and
 * the dead_pushes_24h threshold.
 */
export function pushDeliveryFigures(databases: readonly Db[], now: number): Promise<DeliveryFigures> {
  return deliveryFiguresAcross(databases, pushOutbox, pushOutbox, now);
}

/** The newest dead pushes over every account database, with the agent they were for and what the push service last said. */
export function listDeadPushes(databases: readonly Db[]) {
  return newestDeadAcross(databases, deadPushes);
}

function deadPushes(db: Db) {
  return db
    .select({
      id: pushOutbox.id,
      to: users.email,
      subject: pushOutbox.title,
      error: pushOutbox.error,
      attempts: pushOutbox.attempts,
      deadAt: pushOutbox.deadAt,
    })
    .from(pushOutbox)
    .innerJoin(users, eq(users.id, pushOutbox.userId))
    .where(eq(pushOutbox.status, "dead"))
    .orderBy(desc(pushOutbox.deadAt))
    .limit(DEAD_LISTED);
}
