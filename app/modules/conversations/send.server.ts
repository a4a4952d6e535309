import { and, eq, sql } from "drizzle-orm";
import { agentProfiles, contactEmails, contacts, crmActivities, type EmailVia } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { personalHtml, sendEmail } from "~/lib/mailer.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { requestShard } from "~/lib/shards.server";
import type { UserId } from "~/modules/auth/session.server";
import type { FairHousingFlag } from "~/modules/ai/draft-types";
import { checkFairHousing } from "~/modules/ai/fair-housing";
import { GmailError, MailFormatError, openGmailMailbox } from "~/modules/gmail/mailbox.server";
import { contactUnsubscribeUrl } from "~/modules/intake/first-reply.server";
import { userCard } from "~/modules/team/names.server";
import { MERGE_MESSAGES, unfilledFields } from "~/modules/templates/merge";
import { templateForUse } from "~/modules/templates/templates.server";
import { SEND_MESSAGES, type ComposeInput } from "./compose";
import { newReplyKey, replyAddress } from "./reply-address.server";

// Sending an e-mail to a contact (ADR 0071): from the agent's connected Gmail, else through Porchlight's provider as
// "Agent via Porchlight" with a reply address of its own. Each send is checked first (the contact is the agent's and
// has a working address, no merge field left unfilled, the Fair Housing phrases reviewed, the day's limit), then logged
// on the contact's e-mail log and timeline with how it went.

export type SendOutcome =
  | { ok: true; emailId: string; via: EmailVia; from: string }
  | {
      ok: false;
      status: 400 | 404 | 409 | 429 | 502;
      error: string;
      fieldErrors: Record<string, string>;
      flags?: FairHousingFlag[];
      final?: boolean;
    };

export interface SendOptions {
  /** Marketing e-mail (an action plan's): carries the agent's postal address and a one-click unsubscribe; never to a contact who unsubscribed. */
  marketing?: boolean;
  /** The app's address, for the unsubscribe link of marketing e-mail. */
  origin?: string | null;
  now?: Date;
  /** Sent by an action plan's step: its run, and the plan's name (the timeline says which plan sent it). */
  planRunId?: string;
  planName?: string;
}

const refuse = (status: 400 | 404 | 409 | 429 | 502, error: string, field = "form", flags?: FairHousingFlag[]): SendOutcome => ({
  ok: false,
  status,
  error,
  fieldErrors: { [field]: error },
  ...(flags ? { flags } : {}),
});

/** A refusal after which nothing more may go to the contact (no address, bounced, unsubscribed from marketing). */
const final = (error: string): SendOutcome => ({ ok: false, status: 400, error, fieldErrors: { form: error }, final: true });

/** Sends the e-mail the agent wrote (or a plan's) to one of their contacts, and logs it; what went wrong otherwise. */
export async function sendContactEmail(
  context: RequestContext,
  userId: UserId,
  contactId: string,
  input: ComposeInput,
  options: SendOptions = {},
): Promise<SendOutcome> {
  const { db, config } = context;
  const now = options.now ?? new Date();
  const unfilled = unfilledFields(`${input.subject}\n${input.body}`);
  if (unfilled.length > 0) return refuse(400, MERGE_MESSAGES.unfilled(unfilled), "body");
  if (!input.reviewed) {
    const flags = checkFairHousing(`${input.subject}\n${input.body}`);
    if (flags.length > 0) return refuse(409, SEND_MESSAGES.fairHousing, "body", flags);
  }
  const [contactRows, profileRows] = await db.batch([
    db
      .select({ id: contacts.id, name: contacts.name, email: contacts.email, optOut: contacts.emailOptOutAt, bounced: contacts.emailBouncedAt })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
      .limit(1),
    db.select({ postalAddress: agentProfiles.postalAddress }).from(agentProfiles).where(eq(agentProfiles.userId, userId)).limit(1),
  ]);
  const contact = contactRows[0];
  if (!contact) return refuse(404, "No such contact.");
  const to = contact.email?.trim();
  if (!to) return final(SEND_MESSAGES.noAddress(contact.name));
  if (contact.bounced) return final(SEND_MESSAGES.bounced(contact.name));
  if (options.marketing && contact.optOut) return final(SEND_MESSAGES.optedOut(contact.name));
  const postal = profileRows[0]?.postalAddress?.trim();
  if (options.marketing && !postal) return refuse(400, SEND_MESSAGES.noPostalAddress);
  if (options.marketing && !options.origin) return refuse(400, SEND_MESSAGES.noOrigin);

  const limit = await hitRateLimit(context.cloudflare.env.KV, "contact-email", userId, RATE_LIMITS.contactEmail, now.getTime());
  if (!limit.allowed) return refuse(429, SEND_MESSAGES.tooMany);

  const [agent, template] = await Promise.all([
    userCard(db, userId),
    input.templateId ? templateForUse(db, userId, input.templateId) : Promise.resolve(null),
  ]);
  const name = agent?.name ?? "Your agent";
  const unsubscribe = options.marketing ? await contactUnsubscribeUrl({ config, env: context.cloudflare.env }, options.origin!, contact.id) : null;
  const footer = options.marketing
    ? { lines: [`${name} · ${postal}`, "You get this because you are in touch with me about a home."], unsubscribe: unsubscribe! }
    : undefined;
  const text = footer ? `${input.body}\n\n--\n${footer.lines.join("\n")}\nTo get no more e-mails like this: ${unsubscribe}` : input.body;
  const html = personalHtml(input.body, footer);
  const headers = unsubscribe ? { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" } : undefined;

  const id = newId();
  const activityId = newId();
  const mailbox = await openGmailMailbox(context, userId);
  let row: typeof contactEmails.$inferInsert;
  if (mailbox) {
    try {
      const sent = await mailbox.send({ to, subject: input.subject, text, html, headers, fromName: name });
      row = {
        via: "gmail",
        fromAddress: mailbox.address,
        threadId: sent.threadId,
        providerMessageId: sent.messageId,
        rfcMessageId: sent.rfcMessageId,
      } as typeof row;
    } catch (error) {
      if (error instanceof GmailError && error.code === "needs_reconnect") return refuse(502, SEND_MESSAGES.gmailReconnect);
      if (error instanceof GmailError || error instanceof MailFormatError) return refuse(502, error.message);
      throw error;
    }
  } else {
    const replyKey = newReplyKey(requestShard(context.cloudflare.env));
    row = { via: "porchlight", fromAddress: config.MAIL_FROM, replyKey, outboxId: id } as typeof row;
  }
  await db.batch([
    db.insert(crmActivities).values({
      id: activityId,
      userId,
      contactId: contact.id,
      // A plan's e-mail is Porchlight's, not the agent's answer (speed to lead keeps measuring the agent).
      type: options.planRunId ? "plan_email" : "email_sent",
      occurredAt: now,
      notes: input.body.slice(0, 2_000),
      // The template it came from stays here when the template is deleted (the log's template_id is then cleared), so
      // Reports' follow-up e-mail counts it under a deleted template, not as written by hand.
      meta: {
        emailId: id,
        subject: input.subject,
        via: row.via,
        status: "sent",
        ...(template ? { templateId: template.id } : {}),
        ...(options.planName ? { plan: options.planName } : {}),
      },
    }),
    db.insert(contactEmails).values({
      ...row,
      id,
      userId,
      contactId: contact.id,
      direction: "out",
      toAddress: to,
      subject: input.subject,
      body: input.body,
      status: "sent",
      templateId: template?.id ?? null,
      planRunId: options.planRunId ?? null,
      activityId,
      occurredAt: now,
    }),
  ]);
  if (row.via === "porchlight") {
    const queued = await sendEmail(context, {
      kind: "contact_email",
      key: id,
      userId,
      to,
      subject: input.subject,
      text,
      html,
      headers,
      fromName: name,
      replyTo: replyAddress(row.replyKey!, config.INTAKE_DOMAIN),
    });
    if (queued.status === "dead") {
      await markFailed(context, userId, id, SEND_MESSAGES.notQueued);
      return refuse(502, SEND_MESSAGES.notQueued);
    }
  }
  return { ok: true, emailId: id, via: row.via, from: row.fromAddress };
}

/** An e-mail that never left: failed on the log and on the timeline. */
async function markFailed(context: RequestContext, userId: UserId, emailId: string, error: string) {
  const { db } = context;
  await db.batch([
    db
      .update(contactEmails)
      .set({ status: "failed", error })
      .where(and(eq(contactEmails.id, emailId), eq(contactEmails.userId, userId))),
    db
      .update(crmActivities)
      .set({ meta: sql`json_set(coalesce(${crmActivities.meta}, '{}'), '$.status', 'failed')` })
      .where(and(eq(crmActivities.userId, userId), sql`${crmActivities.id} = (select activity_id from contact_emails where id = ${emailId})`)),
  ]);
}
