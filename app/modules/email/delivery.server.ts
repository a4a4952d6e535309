import { and, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import type { Config, EmailQueueMessage } from "~/lib/env.server";
import { claimable, consumeOutgoingBatch, type DeliveryOutcome, dying } from "~/modules/outgoing/queue-delivery.server";
import { fromFor } from "~/lib/mailer.server";
import { HOME_SHARD, shardTag } from "~/lib/shards.server";

// The e-mail queue's consumer (ADR 0056). Each message names an email_outbox row; the claim, the backoff and the dead
// letters are every outgoing queue's (app/modules/outgoing/queue-delivery.server.ts), the provider call is e-mail's.

/** The queues, as wrangler.toml names them. */
export const EMAIL_QUEUE_NAME = "porchlight-email";
export const EMAIL_DEAD_LETTER_QUEUE_NAME = "porchlight-email-dead";

const RESEND_ENDPOINT = "https://api.resend.com/emails";

/** What the provider allows in a tag's value. */
const TAG_VALUE = /^[A-Za-z0-9_-]{1,256}$/;

/**
 * Tags the provider echoes in its webhook events (a bounce, a complaint): the database the row lives in and the row's
 * id, so the event finds it by its key without looking in every database (ADR 0071). An id the provider would refuse
 * as a tag is left out (the event then finds the row by recipient).
 */
function deliveryTags(db: Db, outboxId: string): { name: string; value: string }[] {
  return [
    { name: "shard", value: String(shardTag(db.$client).shard ?? HOME_SHARD) },
    ...(TAG_VALUE.test(outboxId) ? [{ name: "outbox", value: outboxId }] : []),
  ];
}

/**
 * Delivers one outbox row: claims it (queued or retrying, or a stale "sending"), hands it to the provider and marks
 * it sent; a refusal marks it retrying with the error. A row already sent, being sent, dead or unknown is skipped.
 * Without a provider (or to an address under .invalid, RFC 2606, which no provider could deliver: the QA
 * Dashboard's throwaway accounts) the row stays in the outbox, where the development mailbox and the checks read it.
 */
async function deliverEmail(db: Db, config: Pick<Config, "RESEND_API_KEY" | "MAIL_FROM">, outboxId: string, now: number): Promise<DeliveryOutcome> {
  const [row] = await db
    .update(emailOutbox)
    .set({ status: "sending", attempts: sql`${emailOutbox.attempts} + 1`, lastAttemptAt: new Date(now) })
    .where(claimable(emailOutbox, outboxId, now))
    .returning();
  if (!row) return { outcome: "skipped" };
  if (!config.RESEND_API_KEY || /\.invalid$/i.test(row.toAddress.trim())) {
    await db
      .update(emailOutbox)
      .set({ status: "outbox" })
      .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, "sending")));
    return { outcome: "kept" };
  }
  try {
    const response = await fetch(RESEND_ENDPOINT, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${config.RESEND_API_KEY}`,
        "Content-Type": "application/json",
        // The provider keeps the key for a day and answers a repeat with the first send's result instead of mailing
        // again. Sent again by an admin, the e-mail is a new request (its earlier ones were all refused).
        "Idempotency-Key": row.sentAgain === 0 ? row.id : `${row.id}/again-${row.sentAgain}`,
      },
      body: JSON.stringify({
        from: fromFor(config.MAIL_FROM, row.fromName),
        ...(row.replyTo ? { reply_to: row.replyTo } : {}),
        to: [row.toAddress],
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        ...(row.headers ? { headers: row.headers } : {}),
        tags: deliveryTags(db, row.id),
      }),
    });
    const body = (await response.json().catch(() => ({}))) as { id?: string; message?: string };
    if (!response.ok) throw new Error(body.message ?? `provider answered ${response.status}`);
    await db
      .update(emailOutbox)
      .set({ status: "sent", provider: "resend", providerMessageId: body.id ?? null, sentAt: new Date(now), error: null })
      .where(eq(emailOutbox.id, row.id));
    return { outcome: "sent" };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ event: "email_send_failed", kind: row.kind, id: row.id, attempts: row.attempts, message }));
    await db
      .update(emailOutbox)
      .set({ status: "retrying", provider: "resend", error: message })
      .where(and(eq(emailOutbox.id, row.id), eq(emailOutbox.status, "sending")));
    return { outcome: "failed", attempts: row.attempts, error: message };
  }
}

/** A message out of retries: its row is dead (unless it was sent after all). */
async function markEmailDead(db: Db, outboxId: string, now: number): Promise<boolean> {
  const rows = await db
    .update(emailOutbox)
    .set({ status: "dead", deadAt: new Date(now) })
    .where(dying(emailOutbox, outboxId))
    .returning({ id: emailOutbox.id });
  return rows.length > 0;
}

/** The queue() handler for the e-mail queue and its dead letters (queue-delivery.server.ts). */
export function consumeEmailBatch(batch: MessageBatch<EmailQueueMessage>, db: Db, config: Pick<Config, "RESEND_API_KEY" | "MAIL_FROM">) {
  return consumeOutgoingBatch(batch, {
    deadLetterQueue: EMAIL_DEAD_LETTER_QUEUE_NAME,
    idOf: (body) => body.outboxId,
    deliver: (id, now) => deliverEmail(db, config, id, now),
    markDead: (id, now) => markEmailDead(db, id, now),
  });
}
