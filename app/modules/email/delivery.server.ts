import { and, eq, inArray, lt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { MINUTE_MS } from "~/lib/dates";
import type { Config, EmailQueueMessage } from "~/lib/env.server";

// The e-mail queue's consumer (ADR 0056). Each message names an email_outbox row; the row, not the message, says
// whether the e-mail still has to go: a consumer claims it in one conditional UPDATE before calling the provider, so
// a message delivered twice (Queues deliver at least once) or a retry racing a late first attempt sends it once.

/** The queues, as wrangler.toml names them. */
export const EMAIL_QUEUE_NAME = "porchlight-email";
export const EMAIL_DEAD_LETTER_QUEUE_NAME = "porchlight-email-dead";
/** wrangler.toml's max_retries for the e-mail queue: after this many retries the message goes to the dead letters. */
export const EMAIL_MAX_RETRIES = 5;
/** The first retry's delay; each further retry waits twice as long (30 s, 60 s, 120 s, 240 s, 480 s). */
const RETRY_BASE_SECONDS = 30;
/** Queues accept delays of up to 24 hours (a retry's delaySeconds); the backoff never gets near it, but it is the ceiling. */
const RETRY_MAX_SECONDS = 24 * 60 * 60;
/**
 * A row left "sending" this long belongs to a consumer that ended without finishing (a queue consumer runs for 15
 * minutes at most), so a later delivery may claim it again; the provider's Idempotency-Key keeps that from mailing twice.
 */
const STALE_SENDING_MS = 15 * MINUTE_MS;

const RESEND_ENDPOINT = "https://api.resend.com/emails";

/** How long to wait before the retry that follows the `attempts`-th failed attempt. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_SECONDS);
}

export type DeliveryOutcome = { outcome: "sent" | "kept" | "skipped" } | { outcome: "failed"; attempts: number; error: string };

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
    .where(
      and(
        eq(emailOutbox.id, outboxId),
        or(
          inArray(emailOutbox.status, ["queued", "retrying"]),
          and(eq(emailOutbox.status, "sending"), lt(emailOutbox.lastAttemptAt, new Date(now - STALE_SENDING_MS))),
        ),
      ),
    )
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
        from: config.MAIL_FROM,
        to: [row.toAddress],
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody,
        ...(row.headers ? { headers: row.headers } : {}),
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
    .where(and(eq(emailOutbox.id, outboxId), inArray(emailOutbox.status, ["queued", "retrying", "sending"])))
    .returning({ id: emailOutbox.id });
  return rows.length > 0;
}

/**
 * The Worker's queue() handler for both e-mail queues: the e-mail queue delivers each message and retries a refused
 * one with exponential backoff; the dead-letter queue marks its messages' rows dead. Messages are handled one by one,
 * each acknowledged or retried on its own, so one refusal never sends the rest of the batch again.
 */
export async function consumeEmailBatch(
  batch: MessageBatch<EmailQueueMessage>,
  dbOf: (shard: number) => Db,
  config: Pick<Config, "RESEND_API_KEY" | "MAIL_FROM">,
) {
  for (const message of batch.messages) {
    const outboxId = message.body?.outboxId;
    if (typeof outboxId !== "string") {
      message.ack();
      continue;
    }
    // The row lives in the database of the account that sent it (ADR 0060).
    const shard = message.body.shard;
    const db = dbOf(typeof shard === "number" && Number.isInteger(shard) ? shard : 0);
    if (batch.queue === EMAIL_DEAD_LETTER_QUEUE_NAME) {
      await markEmailDead(db, outboxId, Date.now());
      message.ack();
      continue;
    }
    const result = await deliverEmail(db, config, outboxId, Date.now());
    if (result.outcome === "failed") message.retry({ delaySeconds: retryDelaySeconds(result.attempts) });
    else message.ack();
  }
}
