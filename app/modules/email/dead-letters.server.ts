import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import type { Config } from "~/lib/env.server";
import { HOME_SHARD } from "~/lib/shards.server";
import { DEAD_LISTED, deliveryFiguresAcross, newestDeadAcross, type DeliveryFigures } from "~/modules/outgoing/queue-delivery.server";

// What the Operations Center shows of e-mail delivery (ADR 0056): the e-mails being retried and the dead letters,
// and an admin's "Send again" for a dead one.

/**
 * The e-mail queue's figures as of `now` over every account database (ADR 0060): one definition for the Monitoring tab
 * and the dead_emails_24h threshold.
 */
export function emailDeliveryFigures(databases: readonly Db[], now: number): Promise<DeliveryFigures> {
  return deliveryFiguresAcross(databases, emailOutbox, emailOutbox, now);
}

/** The newest dead e-mails over every account database, each with its database, and what the provider last said. */
export function listDeadEmails(databases: readonly Db[]) {
  return newestDeadAcross(databases, deadEmails);
}

function deadEmails(db: Db) {
  return db
    .select({
      id: emailOutbox.id,
      to: emailOutbox.toAddress,
      subject: emailOutbox.subject,
      error: emailOutbox.error,
      attempts: emailOutbox.attempts,
      deadAt: emailOutbox.deadAt,
    })
    .from(emailOutbox)
    .where(eq(emailOutbox.status, "dead"))
    .orderBy(desc(emailOutbox.deadAt))
    .limit(DEAD_LISTED);
}

export type SendAgainOutcome = { ok: true; message: string } | { ok: false; error: string };

/**
 * "Send again" on a dead e-mail of account database `shard`: the row goes back to queued (attempts from zero) in one
 * conditional UPDATE and its id on the queue, with its database. Pressed twice, or by two admins at once, only the first
 * finds the row dead: the e-mail is queued once.
 */
export async function sendDeadEmailAgain(
  db: Db,
  config: Pick<Config, "emailQueue">,
  outboxId: string,
  shard = HOME_SHARD,
): Promise<SendAgainOutcome> {
  const [row] = await db
    .update(emailOutbox)
    .set({ status: "queued", attempts: 0, deadAt: null, sentAgain: sql`${emailOutbox.sentAgain} + 1` })
    .where(and(eq(emailOutbox.id, outboxId), eq(emailOutbox.status, "dead")))
    .returning({ id: emailOutbox.id, to: emailOutbox.toAddress });
  if (!row) {
    const [existing] = await db.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.id, outboxId));
    if (!existing) return { ok: false, error: "That e-mail is not among the dead letters." };
    return { ok: true, message: "That e-mail was already sent again." };
  }
  try {
    await config.emailQueue.send({ outboxId: row.id, ...(shard === HOME_SHARD ? {} : { shard }) });
  } catch (error) {
    const message = `not queued: ${error instanceof Error ? error.message : String(error)}`;
    await db.update(emailOutbox).set({ status: "dead", deadAt: new Date(), error: message }).where(eq(emailOutbox.id, row.id));
    return { ok: false, error: "The e-mail queue did not take it. Try again in a minute." };
  }
  return { ok: true, message: `Queued again for ${row.to}.` };
}
