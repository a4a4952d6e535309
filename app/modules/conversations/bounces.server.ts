import { and, eq, isNull, or, sql } from "drizzle-orm";
import { stopPlanRuns } from "~/modules/plans/stop.server";
import type { Db } from "~/db/client.server";
import { contactEmails, contacts, crmActivities, emailOutbox, leadFirstReplies } from "~/db/schema";

// Bounces and complaints of e-mails the agent sent to contacts (ADR 0071): the provider's webhook for e-mail sent as
// "Agent via Porchlight", a mail system's report in the Gmail thread for e-mail sent from Gmail. Either way the e-mail
// on the contact's log and its timeline activity say so, and the contact is marked: a bounce sets email_bounced_at, a
// complaint email_opt_out_at (as an unsubscribe does), so nothing more is sent to them. One batch; applying the same
// report again changes nothing.

export type DeliveryProblem = "bounced" | "complained";

/** An e-mail on the log the agent sent. */
export interface OutboundEmail {
  id: string;
  userId: string;
  contactId: string | null;
  activityId: string | null;
}

type Batchable = Parameters<Db["batch"]>[0][number];

/** The contact's mark for the problem, kept at its first date. */
function markContact(db: Db, userId: string, contactId: string, problem: DeliveryProblem, at: Date, onlyIfNew?: string) {
  const set =
    problem === "bounced"
      ? { emailBouncedAt: sql`coalesce(${contacts.emailBouncedAt}, ${at.getTime()})` }
      : { emailOptOutAt: sql`coalesce(${contacts.emailOptOutAt}, ${at.getTime()})` };
  return db
    .update(contacts)
    .set(set)
    .where(
      and(
        eq(contacts.id, contactId),
        eq(contacts.userId, userId),
        // A report seen again (the same bounce in a Gmail thread read by the next pass) does not mark the contact once
        // more: the agent may have corrected their address since.
        onlyIfNew ? sql`exists (select 1 from contact_emails where id = ${onlyIfNew} and status <> ${problem})` : undefined,
      ),
    );
}

/** The statements that mark one e-mail and its contact, in the order they must run (the contact's check comes first). */
function emailStatements(db: Db, email: OutboundEmail, problem: DeliveryProblem, at: Date): Batchable[] {
  return [
    ...(email.contactId ? [markContact(db, email.userId, email.contactId, problem, at, email.id)] : []),
    ...(email.activityId
      ? [
          db
            .update(crmActivities)
            .set({ meta: sql`json_set(coalesce(${crmActivities.meta}, '{}'), '$.status', ${problem})` })
            .where(and(eq(crmActivities.id, email.activityId), eq(crmActivities.userId, email.userId))),
        ]
      : []),
    db
      .update(contactEmails)
      .set({ status: problem })
      .where(and(eq(contactEmails.id, email.id), eq(contactEmails.userId, email.userId), eq(contactEmails.direction, "out"))),
  ];
}

/** Marks one e-mail the agent sent (and its contact) bounced or complained about. */
export async function markEmailProblem(db: Db, email: OutboundEmail, problem: DeliveryProblem, at = new Date()): Promise<void> {
  const [first, ...rest] = emailStatements(db, email, problem, at);
  await db.batch([first!, ...rest]);
  if (email.contactId) await stopPlanRuns(db, email.userId, email.contactId, stopReason(problem), at);
}

/** Why a bounce or a complaint stops the contact's action plans (ADR 0072). */
const stopReason = (problem: DeliveryProblem) => (problem === "bounced" ? "The contact's address bounced." : "The contact marked an e-mail as spam.");

/**
 * Marks what an outbox e-mail carried: the e-mails on contacts' logs sent through it and, for a lead's instant first
 * reply (its outbox key is the lead_first_replies row's id), that lead's contact. False when it carried neither (a
 * digest, a sign-in link: nothing of a contact's to mark).
 */
export async function markOutboxProblem(db: Db, outbox: { id: string; kind: string }, problem: DeliveryProblem, at = new Date()): Promise<boolean> {
  const [emails, firstReply] = await Promise.all([
    db
      .select({ id: contactEmails.id, userId: contactEmails.userId, contactId: contactEmails.contactId, activityId: contactEmails.activityId })
      .from(contactEmails)
      .where(and(eq(contactEmails.outboxId, outbox.id), eq(contactEmails.direction, "out")))
      .all(),
    outbox.kind === "first_reply"
      ? db
          .select({ userId: leadFirstReplies.userId, contactId: leadFirstReplies.contactId })
          .from(leadFirstReplies)
          .where(eq(leadFirstReplies.id, outbox.id))
          .get()
      : Promise.resolve(undefined),
  ]);
  const statements: Batchable[] = emails.flatMap((email) => emailStatements(db, email, problem, at));
  if (firstReply) statements.push(markContact(db, firstReply.userId, firstReply.contactId, problem, at));
  const touched = [
    ...emails.filter((e) => e.contactId).map((e) => ({ userId: e.userId, contactId: e.contactId! })),
    ...(firstReply ? [firstReply] : []),
  ];
  const [first, ...rest] = statements;
  if (!first) return false;
  await db.batch([first, ...rest]);
  for (const { userId, contactId } of touched) await stopPlanRuns(db, userId, contactId, stopReason(problem), at);
  return true;
}

/**
 * The outbox e-mail the provider's event names, in one database: by the outbox id the provider echoes in its tags
 * (its primary key), else by its recipient and the provider's id (the recipient index). Undefined when it is not there.
 */
export function findOutboxEmail(db: Db, providerId: string, hint: { outboxId?: string; to?: string }) {
  const where = hint.outboxId
    ? and(eq(emailOutbox.id, hint.outboxId), or(eq(emailOutbox.providerMessageId, providerId), isNull(emailOutbox.providerMessageId)))
    : hint.to
      ? and(eq(emailOutbox.toAddress, hint.to), eq(emailOutbox.providerMessageId, providerId))
      : undefined;
  if (!where) return Promise.resolve(undefined);
  return db.select({ id: emailOutbox.id, kind: emailOutbox.kind }).from(emailOutbox).where(where).get();
}
