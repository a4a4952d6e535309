import { and, eq, gt, isNull, lte, sql } from "drizzle-orm";
import { SYSTEM_ACTIVITY_SQL } from "~/db/enums";
import { contacts, crmActivities, leadAlerts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { LEAD_REMINDER_MINUTES, LEAD_WAIT_SHOWN_HOURS } from "./lead-alerts";
import { pushToUser } from "./push.server";

// Speed to lead (issue 20, ADR 0032): a new lead raises an alert, pushed to the agent's devices; it waits, timed
// live on the dashboard, until the first activity is logged with the contact; at LEAD_REMINDER_MINUTES without one,
// the cron sends one reminder.

export { LEAD_REMINDER_MINUTES, LEAD_WAIT_SHOWN_HOURS };
/** The cron reminds only about leads that arrived within this window: a reminder an hour late helps nobody. */
const REMINDER_WINDOW_MINUTES = 60;

const MINUTE_MS = 60_000;

/** Answered: an activity with the contact exists (stage changes are written by the pipeline, not the agent). */
const answered = sql`exists (select 1 from ${crmActivities} where ${crmActivities.contactId} = ${leadAlerts.contactId} and ${crmActivities.type} not in (${sql.raw(SYSTEM_ACTIVITY_SQL)}))`;

const contactLine = (contact: { phone: string | null; email: string | null }) => contact.phone ?? contact.email ?? "No phone or e-mail yet";

/**
 * A new lead arrived (added by hand, here or on another device, or sent from the phone's offline queue): keep the
 * alert and push it to the agent's devices. Returns how many devices took it. Call it after the response where
 * possible (`waitUntil`): the push services answer in their own time.
 */
export async function raiseLeadAlert(
  context: Pick<RequestContext, "db" | "config">,
  userId: UserId,
  contact: { id: string; name: string; phone: string | null; email: string | null },
  now = Date.now(),
): Promise<number> {
  const [raised] = await context.db.insert(leadAlerts).values({ contactId: contact.id, userId, arrivedAt: now }).onConflictDoNothing().returning({ contactId: leadAlerts.contactId });
  if (!raised) return 0;
  const delivered = await pushToUser(context, userId, { title: `New lead: ${contact.name}`, body: `${contactLine(contact)}. Reach out in the next ${LEAD_REMINDER_MINUTES} minutes.`, url: `/contacts/${contact.id}`, tag: `lead-${contact.id}` }, now);
  if (delivered > 0) await context.db.update(leadAlerts).set({ pushedAt: now }).where(eq(leadAlerts.contactId, contact.id));
  return delivered;
}

/** Raises the alert after the response has gone (`waitUntil`); a failure is logged, never the caller's. */
export function raiseLeadAlertLater(context: RequestContext, userId: UserId, contact: { id: string; name: string; phone: string | null; email: string | null }): void {
  context.cloudflare.ctx.waitUntil(raiseLeadAlert(context, userId, contact).then(
    () => undefined,
    (error: unknown) => console.error(JSON.stringify({ event: "lead_alert_failed", message: String(error) })),
  ));
}

export interface WaitingLead {
  contactId: string;
  name: string;
  phone: string | null;
  email: string | null;
  /** Epoch ms. */
  arrivedAt: number;
}

/** The agent's new leads with no response yet, oldest first (the dashboard's live timers). */
export async function waitingLeads(context: Pick<RequestContext, "db">, userId: UserId, now = Date.now()): Promise<WaitingLead[]> {
  return context.db
    .select({ contactId: leadAlerts.contactId, name: contacts.name, phone: contacts.phone, email: contacts.email, arrivedAt: leadAlerts.arrivedAt })
    .from(leadAlerts)
    .innerJoin(contacts, and(eq(contacts.id, leadAlerts.contactId), eq(contacts.userId, userId)))
    .where(and(eq(leadAlerts.userId, userId), gt(leadAlerts.arrivedAt, now - LEAD_WAIT_SHOWN_HOURS * 3_600_000), sql`not ${answered}`))
    .orderBy(leadAlerts.arrivedAt)
    .limit(20)
    .all();
}

/**
 * The cron's reminder: every lead that arrived LEAD_REMINDER_MINUTES ago or more (within the last hour) with no
 * response and no reminder yet gets one push. Marked reminded whether or not a device took it: one reminder each.
 */
export async function sendLeadReminders(context: Pick<RequestContext, "db" | "config">, now = Date.now()): Promise<{ reminded: number; delivered: number }> {
  const due = await context.db
    .select({ contactId: leadAlerts.contactId, userId: leadAlerts.userId, arrivedAt: leadAlerts.arrivedAt, name: contacts.name, phone: contacts.phone, email: contacts.email })
    .from(leadAlerts)
    .innerJoin(contacts, eq(contacts.id, leadAlerts.contactId))
    .where(and(isNull(leadAlerts.remindedAt), lte(leadAlerts.arrivedAt, now - LEAD_REMINDER_MINUTES * MINUTE_MS), gt(leadAlerts.arrivedAt, now - REMINDER_WINDOW_MINUTES * MINUTE_MS), sql`not ${answered}`))
    .limit(200)
    .all();
  let delivered = 0;
  for (const lead of due) {
    const minutes = Math.floor((now - lead.arrivedAt) / MINUTE_MS);
    // Claimed first, so two overlapping cron runs never both remind.
    const [claimed] = await context.db.update(leadAlerts).set({ remindedAt: now }).where(and(eq(leadAlerts.contactId, lead.contactId), isNull(leadAlerts.remindedAt))).returning({ contactId: leadAlerts.contactId });
    if (!claimed) continue;
    delivered += await pushToUser(context, lead.userId as UserId, { title: `Still waiting: ${lead.name}`, body: `${minutes} minutes since they arrived, with no reply yet. ${contactLine(lead)}.`, url: `/contacts/${lead.contactId}`, tag: `lead-${lead.contactId}` }, now);
  }
  return { reminded: due.length, delivered };
}
