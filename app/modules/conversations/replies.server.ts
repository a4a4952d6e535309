import { and, eq, gte, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { REPLIED_STOP_REASON, stopPlanRuns } from "~/modules/plans/stop.server";
import type { Db } from "~/db/client.server";
import type { EmailVia } from "~/db/enums";
import { contactEmails, contacts, crmActivities } from "~/db/schema";
import { createRequestContext } from "~/lib/context.server";
import { sha256 } from "~/lib/crypto";
import type { Config, Env } from "~/lib/env.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { HOME_SHARD, shardDatabases, shardEnv } from "~/lib/shards.server";
import { INTAKE_MAX_BYTES, type IncomingMail } from "~/modules/intake/intake.server";
import { readMail } from "~/modules/intake/mail.server";
import { queuePushes } from "~/modules/push/push-delivery.server";
import { markEmailProblem } from "./bounces.server";
import { readReplyAddress } from "./reply-address.server";
import { replyText } from "./reply-text";

// Replies from contacts (ADR 0071). An e-mail sent as "Agent via Porchlight" carries a reply address of its own,
// reply-<key>@INTAKE_DOMAIN; Email Routing hands a reply to it to the Worker's email() handler, which calls
// receiveReply. The key names its database, so the reply is routed before any read. A reply is recorded on the contact's
// e-mail log (direction "in") and timeline (an "email_received" system activity) in one batch, once however often it
// is delivered, and pushed to the agent. Replies in the agent's Gmail threads take the same path from the cron
// (gmail-replies.server.ts).

export const REPLY_MESSAGES = {
  noSuchAddress: "No Porchlight conversation at this address: the e-mail it answers is not known here.",
  tooLarge: "This reply is too large for Porchlight (512 KB at most). Send it again without attachments.",
  tooMany: "Too many e-mails to this Porchlight reply address in the last hour. Try again later.",
} as const;

/** How far back an e-mail's Date may set when a reply was written (as for a lead e-mail). */
const SENT_AT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** When a message arrived by its Date: within a week before it reached us, never after. */
export function boundedArrival(sentAt: Date | null, receivedAt: Date): Date {
  const received = receivedAt.getTime();
  const sent = sentAt?.getTime() ?? received;
  return new Date(Math.min(received, Math.max(sent, received - SENT_AT_MAX_AGE_MS)));
}

/** A reply to record: the e-mail it answered (its row on the log) and what came back. */
export interface IncomingReply {
  repliesTo: { id: string; userId: string; contactId: string | null; contactName: string | null };
  via: EmailVia;
  from: string;
  to: string;
  subject: string;
  /** The reply's own words (replyText), not the quoted e-mail. */
  text: string;
  occurredAt: Date;
  /** What names the message for its mailbox: its Message-ID (via Porchlight) or Gmail's id; null when it has none. */
  identity: string | null;
  rfcMessageId: string | null;
  threadId?: string | null;
  providerMessageId?: string | null;
  /** An automatic reply (out of office): recorded, flagged, not pushed; plans may ignore it. */
  auto: boolean;
}

/** The log row's id for a message: fixed by its owner, mailbox and identity, so a second delivery is the same row. */
async function replyId(reply: IncomingReply): Promise<string> {
  if (!reply.identity) return crypto.randomUUID();
  return `in_${(await sha256(`${reply.repliesTo.userId}\n${reply.via}\n${reply.identity}`)).slice(0, 32)}`;
}

type Batchable = Parameters<Db["batch"]>[0][number];

/**
 * Records a reply on the contact's e-mail log and timeline (when the contact is still there), in one batch. Returns the
 * log row's id and whether it is new (false: the same message was recorded before).
 */
export async function recordReply(db: Db, reply: IncomingReply): Promise<{ id: string; isNew: boolean }> {
  const id = await replyId(reply);
  const { userId, contactId } = reply.repliesTo;
  const seen = await db
    .select({ id: contactEmails.id })
    .from(contactEmails)
    .where(and(eq(contactEmails.id, id), eq(contactEmails.userId, userId)))
    .get();
  if (seen) return { id, isNew: false };
  const activityId = contactId ? `email-received-${id}` : null;
  const statements: Batchable[] = [];
  // The activity first: the log row points at it.
  if (contactId && activityId)
    statements.push(
      db
        .insert(crmActivities)
        .values({
          id: activityId,
          userId,
          contactId,
          type: "email_received",
          occurredAt: reply.occurredAt,
          notes: reply.text.slice(0, 5_000) || null,
          meta: { emailId: id, subject: reply.subject, ...(reply.auto ? { auto: 1 } : {}) },
        })
        .onConflictDoNothing(),
    );
  const insert = db
    .insert(contactEmails)
    .values({
      id,
      userId,
      contactId,
      direction: "in",
      via: reply.via,
      fromAddress: reply.from.slice(0, 320),
      toAddress: reply.to.slice(0, 320),
      subject: reply.subject.slice(0, 500),
      body: reply.text,
      status: "received",
      threadId: reply.threadId ?? null,
      providerMessageId: reply.providerMessageId ?? null,
      rfcMessageId: reply.rfcMessageId,
      repliesTo: reply.repliesTo.id,
      activityId,
      occurredAt: reply.occurredAt,
    })
    .onConflictDoNothing()
    .returning({ id: contactEmails.id });
  const results = await db.batch([...statements, insert] as unknown as [Batchable, ...Batchable[]]);
  const inserted = results.at(-1) as unknown as { id: string }[];
  // A person's reply stops the contact's action plans (ADR 0072): the agent takes the conversation from here.
  if (inserted.length > 0 && !reply.auto && contactId) await stopPlanRuns(db, userId, contactId, REPLIED_STOP_REASON, reply.occurredAt);
  return { id, isNew: inserted.length > 0 };
}

/** "Jane Whitmore replied: <subject>", opening the contact's page. Nothing for an automatic reply or a deleted contact. */
export function pushReply(context: { db: Db; config: Config }, reply: IncomingReply, emailId: string): Promise<number> {
  const { userId, contactId, contactName } = reply.repliesTo;
  if (reply.auto || !contactId) return Promise.resolve(0);
  const subject = reply.subject.replace(/^\s*((re|aw|sv|fwd?)\s*:\s*)+/i, "").trim() || "(no subject)";
  return queuePushes(context, [
    {
      userId,
      key: `email-reply:${emailId}`,
      kind: "email_reply",
      title: `${contactName || "Your contact"} replied: ${subject}`.slice(0, 120),
      body: reply.text.replace(/\s+/g, " ").slice(0, 140) || "Open the contact to read it.",
      url: `/contacts/${contactId}`,
      tag: `reply-${contactId}`,
    },
  ]);
}

/** The e-mail the agent sent with this reply key, with its contact as it is now. */
function sentWithKey(db: Db, key: string) {
  return db
    .select({
      id: contactEmails.id,
      userId: contactEmails.userId,
      contactId: contactEmails.contactId,
      activityId: contactEmails.activityId,
      contactName: contacts.name,
    })
    .from(contactEmails)
    .leftJoin(contacts, and(eq(contacts.id, contactEmails.contactId), eq(contacts.userId, contactEmails.userId)))
    .where(and(eq(contactEmails.replyKey, key), eq(contactEmails.direction, "out")))
    .get();
}

export type ReplyOutcome = { ok: true; status: "recorded" | "duplicate" | "bounce"; emailId: string | null } | { ok: false; reject: string };

/** Takes one e-mail to a reply address: rejected with a reason, or recorded as a reply (or a bounce) on the contact's log. */
export async function receiveReply(env: Env, ctx: ExecutionContext, mail: IncomingMail, receivedAt = new Date()): Promise<ReplyOutcome> {
  if (mail.rawSize > INTAKE_MAX_BYTES) return { ok: false, reject: REPLY_MESSAGES.tooLarge };
  const home = createRequestContext(env, ctx, "");
  const address = readReplyAddress(mail.to, home.config.INTAKE_DOMAIN);
  if (!address || address.shard >= shardDatabases(env).length) return { ok: false, reject: REPLY_MESSAGES.noSuchAddress };
  const context = address.shard === HOME_SHARD ? home : createRequestContext(shardEnv(env, address.shard), ctx, "");
  const sent = await sentWithKey(context.db, address.key);
  if (!sent) return { ok: false, reject: REPLY_MESSAGES.noSuchAddress };
  const limit = await hitRateLimit(env.KV, "reply-email", address.key, RATE_LIMITS.replyEmail);
  if (!limit.allowed) return { ok: false, reject: REPLY_MESSAGES.tooMany };

  const raw = typeof mail.raw === "string" ? mail.raw : await new Response(mail.raw).arrayBuffer();
  if ((typeof raw === "string" ? new TextEncoder().encode(raw).length : raw.byteLength) > INTAKE_MAX_BYTES)
    return { ok: false, reject: REPLY_MESSAGES.tooLarge };
  const read = await readMail(raw);
  // A mail system's report sent to the reply address rather than to the provider: the e-mail bounced.
  if (read.deliveryReport) {
    await markEmailProblem(context.db, sent, "bounced", receivedAt);
    return { ok: true, status: "bounce", emailId: sent.id };
  }
  const reply: IncomingReply = {
    repliesTo: sent,
    via: "porchlight",
    from: read.input.from.address || mail.from,
    to: mail.to.trim().toLowerCase(),
    subject: read.input.subject,
    text: replyText(read.input.text),
    occurredAt: boundedArrival(read.sentAt, receivedAt),
    identity: read.messageId,
    rfcMessageId: read.messageId,
    auto: read.autoSubmitted,
  };
  const recorded = await recordReply(context.db, reply);
  if (!recorded.isNew) return { ok: true, status: "duplicate", emailId: recorded.id };
  ctx.waitUntil(
    pushReply(context, reply, recorded.id).catch((error: unknown) =>
      console.error(JSON.stringify({ event: "reply_push_failed", message: error instanceof Error ? error.message : String(error) })),
    ),
  );
  return { ok: true, status: "recorded", emailId: recorded.id };
}

/**
 * A reply a person wrote, by its timeline activity's meta: an automatic reply (out of office) is flagged `auto: 1`.
 * A reply with no activity (its contact was gone) counts as a person's. Plans and Reports' follow-up e-mail both ask this.
 */
export const personReply = (activityMeta: SQL | AnySQLiteColumn): SQL => sql`coalesce(json_extract(${activityMeta}, '$.auto'), 0) = 0`;

/**
 * When the contact last replied to the agent since `since` (an automatic reply, an out-of-office, not counted), or
 * null. What an action plan asks before each step: a reply stops the plan.
 */
export async function contactRepliedAt(db: Db, userId: string, contactId: string, since: Date): Promise<Date | null> {
  const row = await db
    .select({ at: sql<number | null>`max(${contactEmails.occurredAt})` })
    .from(contactEmails)
    .leftJoin(crmActivities, and(eq(crmActivities.id, contactEmails.activityId), eq(crmActivities.userId, contactEmails.userId)))
    .where(
      and(
        eq(contactEmails.contactId, contactId),
        eq(contactEmails.userId, userId),
        eq(contactEmails.direction, "in"),
        gte(contactEmails.occurredAt, since),
        personReply(crmActivities.meta),
      ),
    )
    .get();
  return row?.at ? new Date(row.at) : null;
}
