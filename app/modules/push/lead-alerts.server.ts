import { MINUTE_MS } from "~/lib/dates";
import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { contacts, leadAlerts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { leadAnswered } from "~/modules/reports/figures.server";
import { LEAD_REMINDER_MINUTES } from "./lead-alerts";
import { type OutgoingPush, queuePushes } from "./push-delivery.server";

// Speed to lead (ADR 0032): a new lead raises an alert, pushed to the agent's devices; it waits, timed
// live on the dashboard, until its first call, text, e-mail sent or meeting (figures.server.ts, the one definition
// of a lead and its wait); at LEAD_REMINDER_MINUTES without one, the cron sends one reminder.

/** The cron reminds only about leads that arrived within this window: a reminder an hour late helps nobody. */
const REMINDER_WINDOW_MINUTES = 60;

/** Answered: the lead's first response is logged (figures.server.ts). */
const answered = leadAnswered(leadAlerts.contactId);

const contactLine = (contact: { phone: string | null; email: string | null }) => contact.phone ?? contact.email ?? "No phone or e-mail yet";

type LeadContact = { id: string; name: string; phone: string | null; email: string | null };

/** "Ann Lee, Bo Park, Cy Diaz and 3 more": the first few of `total` names. */
function someNames(names: string[], total = names.length): string {
  const shown = names.slice(0, 3);
  const rest = total - shown.length;
  if (rest > 0) return `${shown.join(", ")} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}` : (shown[0] ?? "");
}

type PushContext = Parameters<typeof queuePushes>[0];

/**
 * Queues the push for leads that arrived together (one added by hand, or an import's rows marked New): one message
 * for one lead, one message naming a few for several, so a 300-row import is one notification, not 300. The push
 * queue's consumer marks their alerts pushed when a device took it. Returns how many pushes were queued (0 or 1).
 */
function pushArrivedLeads(context: PushContext, userId: UserId, leads: LeadContact[], now: number): Promise<number> {
  const [only] = leads;
  if (!only) return Promise.resolve(0);
  const message =
    leads.length === 1
      ? {
          title: `New lead: ${only.name}`,
          body: `${contactLine(only)}. Reach out in the next ${LEAD_REMINDER_MINUTES} minutes.`,
          url: `/contacts/${only.id}`,
          tag: `lead-${only.id}`,
        }
      : {
          title: `${leads.length} new leads imported`,
          body: `${someNames(leads.map((l) => l.name))}. Reach out in the next ${LEAD_REMINDER_MINUTES} minutes.`,
          url: "/dashboard",
          tag: `leads-${now}`,
        };
  // One lead's alert is raised once (lead_alerts' key), an import's leads arrive in one millisecond: either names the push.
  const key = leads.length === 1 ? `lead-alert:${only.id}` : `lead-import:${userId}:${now}`;
  const contactIds = leads.length <= 90 ? leads.map((l) => l.id) : null;
  return queuePushes(context, [{ userId, key, kind: "lead_alert", ...message, leads: { arrivedAt: now, contactIds } }]);
}

/** Hands a push to waitUntil, after the response has gone; a failure is logged, never the caller's. */
function later(context: RequestContext, work: Promise<unknown>): void {
  context.cloudflare.ctx.waitUntil(
    work.then(
      () => undefined,
      (error: unknown) => console.error(JSON.stringify({ event: "lead_alert_failed", message: String(error) })),
    ),
  );
}

/**
 * A new lead arrived (added by hand, here or on another device, or sent from the phone's offline queue): keep the
 * alert and queue its push to the agent's devices. Returns how many pushes were queued (0 or 1). Call it after the
 * response where possible (`waitUntil`).
 */
export async function raiseLeadAlert(context: PushContext, userId: UserId, contact: LeadContact, now = Date.now()): Promise<number> {
  // The contact is a lead from now on, unless it was made as one (createLead, an import row marked New) already.
  const [[raised]] = await context.db.batch([
    context.db
      .insert(leadAlerts)
      .values({ contactId: contact.id, userId, arrivedAt: now })
      .onConflictDoNothing()
      .returning({ contactId: leadAlerts.contactId }),
    context.db
      .update(contacts)
      .set({ leadAt: sql`coalesce(${contacts.leadAt}, ${now})` })
      .where(and(eq(contacts.id, contact.id), eq(contacts.userId, userId))),
  ]);
  if (!raised) return 0;
  return pushArrivedLeads(context, userId, [contact], now);
}

/** Raises the alert after the response has gone (`waitUntil`); a failure is logged, never the caller's. */
export function raiseLeadAlertLater(context: RequestContext, userId: UserId, contact: LeadContact): void {
  later(context, raiseLeadAlert(context, userId, contact));
}

/**
 * An import's rows marked New: their alerts were written with the contacts, in the import's transaction, at
 * `arrivedAt` (leadAlertsFor); this queues them as one push. Returns how many pushes were queued.
 */
function pushImportedLeads(context: PushContext, userId: UserId, leads: LeadContact[], arrivedAt: number): Promise<number> {
  return pushArrivedLeads(context, userId, leads, arrivedAt);
}

/** pushImportedLeads after the response has gone. */
export function pushImportedLeadsLater(context: RequestContext, userId: UserId, leads: LeadContact[], arrivedAt: number): void {
  if (leads.length > 0) later(context, pushImportedLeads(context, userId, leads, arrivedAt));
}

/**
 * Agents reminded per cron run, those whose leads have waited longest first; the next run (five minutes on) takes
 * the rest. Each costs two queries and a push row, so a run stays far inside D1's 1,000 queries per invocation,
 * which the cron's other jobs share.
 */
const REMINDER_AGENTS_PER_RUN = 150;

/**
 * The cron's reminder: every lead that arrived LEAD_REMINDER_MINUTES ago or more (within the last hour) with no
 * response and no reminder yet is reminded once, in one push per agent (a single lead by name; several, as a count
 * with a few names, so an import's leads are one reminder), queued on the push queue. Marked reminded whether or not
 * a device takes it. Per agent it is one claiming statement however many leads wait, so one agent's 20,000-row
 * import never crowds out another agent's reminder. Returns how many leads were reminded and how many pushes queued.
 */
export async function sendLeadReminders(context: PushContext, now = Date.now()): Promise<{ reminded: number; queued: number }> {
  const dueFor = (userId?: string) =>
    and(
      userId ? eq(leadAlerts.userId, userId) : undefined,
      isNull(leadAlerts.remindedAt),
      lte(leadAlerts.arrivedAt, now - LEAD_REMINDER_MINUTES * MINUTE_MS),
      gt(leadAlerts.arrivedAt, now - REMINDER_WINDOW_MINUTES * MINUTE_MS),
      sql`not ${answered}`,
    );
  const agents = await context.db
    .select({ userId: leadAlerts.userId })
    .from(leadAlerts)
    .where(dueFor())
    .groupBy(leadAlerts.userId)
    .orderBy(sql`min(${leadAlerts.arrivedAt})`)
    .limit(REMINDER_AGENTS_PER_RUN)
    .all();
  let reminded = 0;
  const pushes: OutgoingPush[] = [];
  for (const { userId } of agents) {
    // Claimed first, so two overlapping cron runs never both remind.
    const claimed = await context.db
      .update(leadAlerts)
      .set({ remindedAt: now })
      .where(dueFor(userId))
      .returning({ contactId: leadAlerts.contactId, arrivedAt: leadAlerts.arrivedAt });
    if (claimed.length === 0) continue;
    reminded += claimed.length;
    // The first few by arrival, then name (an import's leads arrive in the same millisecond).
    const named = await context.db
      .select({ id: contacts.id, name: contacts.name, phone: contacts.phone, email: contacts.email, arrivedAt: leadAlerts.arrivedAt })
      .from(leadAlerts)
      .innerJoin(contacts, and(eq(contacts.id, leadAlerts.contactId), eq(contacts.userId, userId)))
      .where(and(eq(leadAlerts.userId, userId), eq(leadAlerts.remindedAt, now)))
      .orderBy(leadAlerts.arrivedAt, contacts.name)
      .limit(3)
      .all();
    const [oldest] = named;
    if (!oldest) continue;
    const minutes = Math.floor((now - oldest.arrivedAt) / MINUTE_MS);
    const message =
      claimed.length === 1
        ? {
            title: `Still waiting: ${oldest.name}`,
            body: `${minutes} minutes since they arrived, with no reply yet. ${contactLine(oldest)}.`,
            url: `/contacts/${oldest.id}`,
            tag: `lead-${oldest.id}`,
          }
        : {
            title: `Still waiting: ${claimed.length} new leads`,
            body: `${someNames(
              named.map((l) => l.name),
              claimed.length,
            )}, with no reply yet; the first arrived ${minutes} minutes ago.`,
            url: "/dashboard",
            tag: "lead-reminders",
          };
    // The claim's instant names the reminder: a run that claimed nothing for the agent writes no push.
    pushes.push({ userId, key: `lead-reminder:${userId}:${now}`, kind: "lead_reminder", ...message });
  }
  const queued = await queuePushes(context, pushes);
  return { reminded, queued };
}
