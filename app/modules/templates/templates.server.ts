import { and, asc, desc, eq, gte, inArray, isNull, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { agentProfiles, contacts, crmTasks, crmTemplates, deals, properties, teamMembers, type CrmTemplate } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { formatCentsWhole } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { localNow } from "~/modules/tasks/due";
import { userCard } from "~/modules/team/names.server";
import { firstNameOf, signatureOf, type MergeValues } from "./merge";
import type { TemplateScope, TemplateView } from "./template-kinds";
import { STARTER_TEMPLATES, type TemplateInput } from "./templates";

// Templates (ADR 0070): an agent's own, and their team's, which the team's owner and admins write and every member
// reads and may copy. Every write names the signed-in user, and a write to the team's re-checks their role in the same
// statement: an admin demoted or gone since the page loaded changes nothing.

const MANAGERS = ["owner", "admin"] as const;

/** The teams the user belongs to (one at most), as a subquery: a team template is readable while they are a member. */
const myTeam = (db: Db, userId: UserId) => db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, userId));
/** The team the user manages (owner or admin), as a subquery. */
const teamIManage = (db: Db, userId: UserId) =>
  db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.userId, userId), inArray(teamMembers.role, [...MANAGERS])));

const view = (t: CrmTemplate): TemplateView => ({
  id: t.id,
  kind: t.kind,
  name: t.name,
  subject: t.subject,
  body: t.body,
  scope: t.teamId ? "team" : "mine",
  updatedAt: t.updatedAt.toISOString(),
});

/** The user's own templates and their team's, by kind and name. */
export async function listTemplates(context: RequestContext, userId: UserId): Promise<TemplateView[]> {
  const rows = await context.db
    .select()
    .from(crmTemplates)
    .where(or(and(eq(crmTemplates.userId, userId), isNull(crmTemplates.teamId)), inArray(crmTemplates.teamId, myTeam(context.db, userId))))
    .orderBy(asc(crmTemplates.kind), asc(crmTemplates.name));
  return rows.map(view);
}

/** One template the user may use (their own, or their current team's), or null. */
export async function templateForUse(db: Db, userId: UserId, id: string): Promise<TemplateView | null> {
  const row = await db
    .select()
    .from(crmTemplates)
    .where(
      and(
        eq(crmTemplates.id, id),
        or(and(eq(crmTemplates.userId, userId), isNull(crmTemplates.teamId)), inArray(crmTemplates.teamId, myTeam(db, userId))),
      ),
    )
    .get();
  return row ? view(row) : null;
}

/** The template the user may change: their own, or their team's while they manage it. */
const changeable = (db: Db, userId: UserId, id: string) =>
  and(
    eq(crmTemplates.id, id),
    or(and(eq(crmTemplates.userId, userId), isNull(crmTemplates.teamId)), inArray(crmTemplates.teamId, teamIManage(db, userId))),
  );

/**
 * A new template, the user's own or (scope "team") their team's. A team template is written only while the user
 * manages the team, checked in the insert itself; null when they do not.
 */
export async function createTemplate(context: RequestContext, userId: UserId, input: TemplateInput, scope: TemplateScope): Promise<string | null> {
  const id = newId();
  const now = Date.now();
  const subject = input.kind === "email" ? input.subject : null;
  if (scope === "mine") {
    await context.db.insert(crmTemplates).values({ id, userId, kind: input.kind, name: input.name, subject, body: input.body });
    return id;
  }
  const result = await context.db.run(sql`
    insert into crm_templates (id, user_id, team_id, kind, name, subject, body, created_at, updated_at)
    select ${id}, ${userId}, tm.team_id, ${input.kind}, ${input.name}, ${subject}, ${input.body}, ${now}, ${now}
    from team_members tm where tm.user_id = ${userId} and tm.role in ('owner', 'admin')`);
  return result.meta.changes === 1 ? id : null;
}

/** Saves a template the user may change; false when it is gone or not theirs to change. */
export async function updateTemplate(context: RequestContext, userId: UserId, id: string, input: TemplateInput): Promise<boolean> {
  const rows = await context.db
    .update(crmTemplates)
    .set({ kind: input.kind, name: input.name, subject: input.kind === "email" ? input.subject : null, body: input.body, updatedAt: new Date() })
    .where(changeable(context.db, userId, id))
    .returning({ id: crmTemplates.id });
  return rows.length === 1;
}

/** Deletes a template the user may change; its name, or null when it is gone or not theirs. */
export async function deleteTemplate(context: RequestContext, userId: UserId, id: string): Promise<string | null> {
  const rows = await context.db
    .delete(crmTemplates)
    .where(changeable(context.db, userId, id))
    .returning({ name: crmTemplates.name });
  return rows[0]?.name ?? null;
}

/** Copies one of the team's templates into the user's own (checked in the same statement); the copy's id, or null. */
export async function copyTeamTemplate(context: RequestContext, userId: UserId, id: string): Promise<{ id: string; name: string } | null> {
  const copy = newId();
  const now = Date.now();
  const rows = await context.db.all<{ name: string }>(sql`
    insert into crm_templates (id, user_id, team_id, kind, name, subject, body, copied_from, created_at, updated_at)
    select ${copy}, ${userId}, null, t.kind, t.name, t.subject, t.body, t.id, ${now}, ${now}
    from crm_templates t
    where t.id = ${id} and t.team_id in (select team_id from team_members where user_id = ${userId})
    returning name`);
  return rows[0] ? { id: copy, name: rows[0].name } : null;
}

/** Adds the starter templates the user does not have yet (by starter, even if renamed); how many were added. */
export async function addStarterTemplates(context: RequestContext, userId: UserId): Promise<number> {
  const had = await context.db
    .select({ starter: crmTemplates.starter })
    .from(crmTemplates)
    .where(and(eq(crmTemplates.userId, userId), isNull(crmTemplates.teamId)));
  const have = new Set(had.map((r) => r.starter));
  const missing = STARTER_TEMPLATES.filter((s) => !have.has(s.key));
  if (missing.length === 0) return 0;
  await context.db
    .insert(crmTemplates)
    .values(missing.map((s) => ({ id: newId(), userId, kind: s.kind, name: s.name, subject: s.subject, body: s.body, starter: s.key })));
  return missing.length;
}

/** Contacts to preview a template on: the user's most recently changed, newest first. */
export function previewContacts(context: RequestContext, userId: UserId): Promise<{ id: string; name: string }[]> {
  return context.db
    .select({ id: contacts.id, name: contacts.name })
    .from(contacts)
    .where(eq(contacts.userId, userId))
    .orderBy(desc(contacts.updatedAt))
    .limit(50);
}

const TIME = /^(\d{2}):(\d{2})/;
/** "Sat, Mar 14 at 10:30 AM" for a task's local day and time (the day alone without a time). */
function appointmentLabel(day: string, time: string | null): string {
  const date = new Date(`${day}T12:00:00Z`).toLocaleDateString("en-US", { weekday: "short", month: "short", day: "numeric", timeZone: "UTC" });
  const match = time ? TIME.exec(time) : null;
  if (!match) return date;
  const hour = Number(match[1]);
  return `${date} at ${hour % 12 === 0 ? 12 : hour % 12}:${match[2]} ${hour < 12 ? "AM" : "PM"}`;
}

/**
 * What one of the user's contacts fills a template with, or null when the contact is not theirs. The property is the
 * contact's open deal's (else their latest deal's, else the home they asked about last); the appointment is their
 * next open showing on the user's tasks, from today in the user's timezone. One round trip.
 */
export async function mergeValuesFor(context: RequestContext, userId: UserId, contactId: string): Promise<MergeValues | null> {
  const { db } = context;
  const prefs = await getDisplayPreferences(context, userId);
  const today = localNow(prefs.timezone).date;
  const [contact, deal, home, showing, profile] = await db.batch([
    db
      .select({ name: contacts.name })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, userId)))
      .limit(1),
    db
      .select({ address: deals.propertyAddress, valueCents: deals.dealValueCents })
      .from(deals)
      .where(and(eq(deals.contactId, contactId), eq(deals.userId, userId)))
      .orderBy(sql`${deals.closedDate} is not null`, desc(deals.updatedAt))
      .limit(1),
    db
      .select({ address: properties.address, priceCents: properties.priceCents })
      .from(properties)
      .where(and(eq(properties.contactId, contactId), eq(properties.userId, userId)))
      .orderBy(desc(properties.createdAt))
      .limit(1),
    db
      .select({ day: crmTasks.dueDate, time: crmTasks.dueTime })
      .from(crmTasks)
      .where(
        and(
          eq(crmTasks.userId, userId),
          eq(crmTasks.contactId, contactId),
          eq(crmTasks.status, "open"),
          eq(crmTasks.type, "showing"),
          gte(crmTasks.dueDate, today),
        ),
      )
      .orderBy(asc(crmTasks.dueDate), asc(crmTasks.dueTime))
      .limit(1),
    db
      .select({ brokerage: agentProfiles.brokerage, signature: agentProfiles.signature })
      .from(agentProfiles)
      .where(eq(agentProfiles.userId, userId))
      .limit(1),
  ]);
  if (!contact[0]) return null;
  const agent = (await userCard(db, userId)) ?? { name: "", phone: null, email: "" };
  const address = deal[0]?.address?.trim() || home[0]?.address?.trim() || null;
  const cents = deal[0]?.valueCents || home[0]?.priceCents || null;
  return {
    "first name": firstNameOf(contact[0].name),
    "property address": address,
    price: cents ? formatCentsWhole(cents, prefs) : null,
    "appointment time": showing[0] ? appointmentLabel(showing[0].day, showing[0].time) : null,
    "agent name": agent.name,
    "agent phone": agent.phone ?? "",
    signature: signatureOf({ name: agent.name, phone: agent.phone, brokerage: profile[0]?.brokerage, signature: profile[0]?.signature }),
  };
}
