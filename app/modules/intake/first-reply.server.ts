import { and, asc, desc, eq, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, crmActivities, leadFirstReplies, leadReplyTemplates, userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { hmacSign, hmacVerify, newId } from "~/lib/crypto";
import { addDays } from "~/lib/dates";
import type { Config, Env } from "~/lib/env.server";
import { personalHtml, sendEmail } from "~/lib/mailer.server";
import { linkIdOn, requestShard, routeRequestByKey, shardOfLinkId, unprefixedLinkId } from "~/lib/shards.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { liveSubscription } from "~/modules/billing/plan-change.server";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { rememberAppOrigin, rememberedAppOrigin } from "~/modules/ops/app-origin.server";
import { instantOf, localNow } from "~/modules/tasks/due";
import { userCard } from "~/modules/team/names.server";
import { DEFAULT_REPLY, isReplySource, mergeValues, REPLY_SOURCES, type ReplySource, type ReplyTemplateInput } from "./first-reply";
import { fillFields } from "~/modules/templates/merge";
import { stopPlanRuns } from "~/modules/plans/stop.server";

// A new lead's instant first reply (ADR 0068). When a lead from a source the agent turned the reply on for arrives
// (by e-mail or the lead API) with an e-mail address, one row in lead_first_replies is written for the contact (its
// unique index makes it once per lead), due at once inside the agent's sending hours or when they next open. A due
// reply goes out at once through the outgoing-mail queue (ADR 0056), "<agent> via Porchlight" with Reply-To the
// agent; the five-minute cron sends those that waited for the hours. Before sending, each is checked again: a lead
// the agent has answered, one that unsubscribed, a contact gone or a reply turned off is skipped, with the reason.

/** What sending needs: the account's database and its env (the shard for the unsubscribe link), and the config. */
export type Sender = { db: Db; config: Config; env: Env };
const senderOf = (context: RequestContext): Sender => ({ db: context.db, config: context.config, env: context.cloudflare.env });

/** Replies the cron sends per database and run: a run stays far inside one invocation's queries. */
const DUE_PER_RUN = 50;

// ---- Settings -----------------------------------------------------------------------------------------------

export interface FirstReplySettings {
  hours: { from: number; until: number };
  templates: { source: ReplySource; enabled: boolean; subject: string; body: string }[];
  agent: { name: string; phone: string | null };
  recent: { id: string; contactId: string; contactName: string; status: string; reason: string | null; dueAt: number; sentAt: number | null }[];
}

export async function loadFirstReplySettings(context: RequestContext, userId: UserId): Promise<FirstReplySettings> {
  const [hours, rows, agent, recent] = await Promise.all([
    sendingHours(context.db, userId),
    context.db.select().from(leadReplyTemplates).where(ownedBy(leadReplyTemplates, userId)),
    agentOf(context.db, userId),
    context.db
      .select({
        id: leadFirstReplies.id,
        contactId: leadFirstReplies.contactId,
        contactName: contacts.name,
        status: leadFirstReplies.status,
        reason: leadFirstReplies.reason,
        dueAt: leadFirstReplies.dueAt,
        sentAt: leadFirstReplies.sentAt,
      })
      .from(leadFirstReplies)
      .innerJoin(contacts, and(eq(contacts.id, leadFirstReplies.contactId), eq(contacts.userId, userId)))
      .where(ownedBy(leadFirstReplies, userId))
      .orderBy(desc(leadFirstReplies.createdAt))
      .limit(10),
  ]);
  const bySource = new Map(rows.map((r) => [r.source, r]));
  return {
    hours,
    templates: REPLY_SOURCES.map((source) => {
      const row = bySource.get(source);
      return { source, enabled: row?.enabled ?? false, subject: row?.subject ?? DEFAULT_REPLY.subject, body: row?.body ?? DEFAULT_REPLY.body };
    }),
    agent,
    recent: recent.map((r) => ({ ...r, dueAt: r.dueAt.getTime(), sentAt: r.sentAt?.getTime() ?? null })),
  };
}

/** Saves one source's reply. The app's address is remembered for the e-mails' unsubscribe links. */
export async function saveReplyTemplate(context: RequestContext, userId: UserId, input: ReplyTemplateInput, origin: string): Promise<void> {
  const now = new Date();
  await context.db
    .insert(leadReplyTemplates)
    .values({
      id: newId(),
      userId,
      source: input.source,
      enabled: input.enabled,
      subject: input.subject,
      body: input.body,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [leadReplyTemplates.userId, leadReplyTemplates.source],
      set: { enabled: input.enabled, subject: input.subject, body: input.body, updatedAt: now },
    });
  if (!context.config.PUBLIC_URL) await rememberAppOrigin(context.cloudflare.env.KV, origin);
}

export async function saveReplyHours(context: RequestContext, userId: UserId, hours: { from: number; until: number }): Promise<void> {
  await context.db
    .insert(userPreferences)
    .values({ userId, replyFromMinute: hours.from, replyUntilMinute: hours.until })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { replyFromMinute: hours.from, replyUntilMinute: hours.until, updatedAt: new Date() },
    });
}

/** The agent's sending hours and timezone: when instant replies and action plans' steps may go out. */
export async function sendingHours(db: Db, userId: string) {
  const row = await db
    .select({ from: userPreferences.replyFromMinute, until: userPreferences.replyUntilMinute, timezone: userPreferences.timezone })
    .from(userPreferences)
    .where(eq(userPreferences.userId, userId))
    .get();
  return { from: row?.from ?? 480, until: row?.until ?? 1260, timezone: row?.timezone ?? "America/New_York" };
}

/** The agent as a lead sees them: the name they go by, their phone, their e-mail for replies. */
async function agentOf(db: Db, userId: string): Promise<{ name: string; phone: string | null; email: string }> {
  return (await userCard(db, userId)) ?? { name: "Your agent", phone: null, email: "" };
}

/**
 * The first moment at or after `at` inside the sending hours [from, until) on the agent's clock: `at` itself, later
 * today, or tomorrow's opening.
 */
export function nextSendingMoment(at: Date, hours: { from: number; until: number; timezone: string }): Date {
  const now = localNow(hours.timezone, at);
  const minute = Number(now.time.slice(0, 2)) * 60 + Number(now.time.slice(3, 5));
  if (minute >= hours.from && minute < hours.until) return at;
  const day = minute < hours.from ? now.date : addDays(now.date, 1);
  const hh = String(Math.floor(hours.from / 60)).padStart(2, "0");
  const mm = String(hours.from % 60).padStart(2, "0");
  return instantOf(day, `${hh}:${mm}`, hours.timezone);
}

// ---- Queuing and sending ---------------------------------------------------------------------------------------

/**
 * A new lead just placed: when the agent has the reply on for its source and the lead has an e-mail address, its reply
 * is written (once per contact) and, when due now, sent. Never throws: a reply that fails is logged, and a pending
 * one is the cron's to send.
 */
export async function queueFirstReply(
  context: RequestContext,
  userId: UserId,
  lead: { contactId: string; email: string | null; source: string; property: string | null },
  at = new Date(),
): Promise<void> {
  try {
    if (!lead.email || !isReplySource(lead.source)) return;
    const template = await context.db
      .select({ id: leadReplyTemplates.id })
      .from(leadReplyTemplates)
      .where(ownedBy(leadReplyTemplates, userId, eq(leadReplyTemplates.source, lead.source), eq(leadReplyTemplates.enabled, true)))
      .get();
    if (!template) return;
    const dueAt = nextSendingMoment(at, await sendingHours(context.db, userId));
    const [row] = await context.db
      .insert(leadFirstReplies)
      .values({ id: newId(), userId, contactId: lead.contactId, source: lead.source, property: lead.property, dueAt, createdAt: at })
      .onConflictDoNothing()
      .returning();
    if (row && dueAt.getTime() <= at.getTime()) await sendFirstReply(senderOf(context), row.id, at);
  } catch (error) {
    console.error(JSON.stringify({ event: "first_reply_failed", contactId: lead.contactId, message: String(error) }));
  }
}

type Outcome = "sent" | "skipped" | "waiting";

/**
 * Sends one pending reply, after checking it again: claimed pending → sent in the statement that claims it, so two
 * senders (the request and the cron) send it once; the outbox key is the reply's id, so a retry is the same e-mail.
 */
export async function sendFirstReply(sender: Sender, replyId: string, at = new Date()): Promise<Outcome> {
  const { db } = sender;
  const reply = await db.select().from(leadFirstReplies).where(eq(leadFirstReplies.id, replyId)).get();
  if (!reply || reply.status !== "pending") return "skipped";
  const skip = async (reason: string): Promise<Outcome> => {
    await db
      .update(leadFirstReplies)
      .set({ status: "skipped", reason })
      .where(and(eq(leadFirstReplies.id, reply.id), eq(leadFirstReplies.status, "pending")));
    return "skipped";
  };
  const [contact, template, hours] = await Promise.all([
    db
      .select({ id: contacts.id, name: contacts.name, email: contacts.email, optOut: contacts.emailOptOutAt, answered: contacts.firstResponseAt })
      .from(contacts)
      .where(ownedBy(contacts, reply.userId as UserId, eq(contacts.id, reply.contactId)))
      .get(),
    db
      .select()
      .from(leadReplyTemplates)
      .where(ownedBy(leadReplyTemplates, reply.userId as UserId, eq(leadReplyTemplates.source, reply.source)))
      .get(),
    sendingHours(db, reply.userId),
  ]);
  if (!contact) return skip("The contact was deleted.");
  if (!contact.email) return skip("The contact has no e-mail address.");
  if (contact.optOut) return skip("The contact unsubscribed from e-mail.");
  if (contact.answered) return skip("You reached out first.");
  if (!template?.enabled) return skip("The instant reply for this source was turned off.");
  if (!(await liveSubscription({ db }, reply.userId as UserId))) return skip("The subscription is not active.");
  // The hours may have changed since it was queued: outside them, it waits for their next opening.
  const next = nextSendingMoment(at, hours);
  if (next.getTime() > at.getTime()) {
    await db
      .update(leadFirstReplies)
      .set({ dueAt: next })
      .where(and(eq(leadFirstReplies.id, reply.id), eq(leadFirstReplies.status, "pending")));
    return "waiting";
  }
  const origin = sender.config.PUBLIC_URL ?? (await rememberedAppOrigin(sender.env.KV));
  if (!origin) return skip("Porchlight does not know its own address for the unsubscribe link yet.");

  const [claimed] = await db
    .update(leadFirstReplies)
    .set({ status: "sent", sentAt: at, outboxId: reply.id })
    .where(and(eq(leadFirstReplies.id, reply.id), eq(leadFirstReplies.status, "pending")))
    .returning({ id: leadFirstReplies.id });
  if (!claimed) return "skipped";
  const agent = await agentOf(db, reply.userId);
  const values = mergeValues({ name: contact.name, property: reply.property }, agent);
  const subject = fillFields(template.subject, values).replace(/\s+/g, " ");
  const body = fillFields(template.body, values);
  const unsubscribe = await contactUnsubscribeUrl(sender, origin, contact.id);
  const why = `You got this because you asked about a home${isReplySource(reply.source) ? ` through ${SOURCE_LABELS[reply.source]}` : ""}.`;
  await sendEmail(sender, {
    kind: "first_reply",
    key: reply.id,
    userId: reply.userId,
    to: contact.email,
    subject,
    text: `${body}\n\n--\n${why} To get no more e-mails like this: ${unsubscribe}`,
    html: personalHtml(body, { lines: [why], unsubscribe }),
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
    fromName: agent.name,
    replyTo: agent.email || undefined,
  });
  // On the contact's timeline: Porchlight's own record (a system activity), not the agent's answer, so the lead's
  // speed-to-lead timer keeps running until the agent reaches out.
  await db
    .insert(crmActivities)
    .values({
      id: `first-reply-${reply.id}`,
      userId: reply.userId,
      contactId: contact.id,
      type: "auto_reply",
      occurredAt: at,
      notes: subject,
      meta: { replyId: reply.id, source: reply.source },
    })
    .onConflictDoNothing();
  return "sent";
}

/** The cron's pass on one database: the replies due by now that are still pending, oldest first. */
export async function sendDueFirstReplies(sender: Sender, at = new Date()): Promise<{ sent: number; skipped: number; waiting: number }> {
  const due = await sender.db
    .select({ id: leadFirstReplies.id })
    .from(leadFirstReplies)
    .where(and(eq(leadFirstReplies.status, "pending"), lte(leadFirstReplies.dueAt, at)))
    .orderBy(asc(leadFirstReplies.dueAt))
    .limit(DUE_PER_RUN);
  const tally = { sent: 0, skipped: 0, waiting: 0 };
  for (const { id } of due) {
    try {
      tally[await sendFirstReply(sender, id, at)] += 1;
    } catch (error) {
      console.error(JSON.stringify({ event: "first_reply_failed", id, message: String(error) }));
    }
  }
  return tally;
}

// ---- Unsubscribe ------------------------------------------------------------------------------------------------

// The link names the contact (with its database's prefix, ADR 0060) and is signed under the session secret, so it
// works without signing in; a mail app's one-click unsubscribe (RFC 8058) POSTs to the same address.
const unsubscribeMessage = (contact: string) => `contact-unsubscribe:${contact}`;

export async function contactUnsubscribeUrl(sender: Pick<Sender, "config" | "env">, origin: string, contactId: string): Promise<string> {
  const contact = linkIdOn(requestShard(sender.env), contactId);
  const signature = await hmacSign(sender.config.SESSION_SECRET, unsubscribeMessage(contact));
  return `${origin.replace(/\/+$/, "")}/unsubscribe?c=${encodeURIComponent(contact)}&s=${signature}`;
}

/** The contact a link names, when it is one of ours and the request can read that contact's database. */
export async function verifyContactUnsubscribe(context: RequestContext, contact: string | null, signature: string | null): Promise<string | null> {
  if (!contact || !signature || contact.length > 80 || signature.length > 100) return null;
  if (!(await hmacVerify(context.config.SESSION_SECRET, unsubscribeMessage(contact), signature).catch(() => false))) return null;
  return routeRequestByKey(context.cloudflare.env, shardOfLinkId(contact)) ? unprefixedLinkId(contact) : null;
}

/** Marks the contact as unsubscribed (the first time counts) and skips their pending reply. */
export async function unsubscribeContact(db: Db, contactId: string, at = new Date()): Promise<boolean> {
  const [done] = await db.batch([
    db
      .update(contacts)
      .set({ emailOptOutAt: sql`coalesce(${contacts.emailOptOutAt}, ${at.getTime()})` })
      .where(eq(contacts.id, contactId))
      .returning({ id: contacts.id, userId: contacts.userId }),
    db
      .update(leadFirstReplies)
      .set({ status: "skipped", reason: "The contact unsubscribed from e-mail." })
      .where(and(eq(leadFirstReplies.contactId, contactId), eq(leadFirstReplies.status, "pending"))),
  ]);
  // Nothing automatic goes to them again: their action plans stop too (ADR 0072).
  for (const row of done) await stopPlanRuns(db, row.userId, row.id, "The contact unsubscribed.", at);
  return done.length > 0;
}
