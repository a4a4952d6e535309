import { and, asc, desc, eq, gt, inArray, isNull, lte, or } from "drizzle-orm";
import * as z from "zod";
import { LEAD_MODES, type LeadMode } from "~/db/enums";
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_ROWS, LEAD_MODE_LABELS } from "./leads";
export { LEAD_MODE_LABELS };
import type { Db } from "~/db/client.server";
import { contacts, crmActivities, deals, teamLeads, teamMembers, teams, type TeamLead } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { fieldErrors } from "~/lib/schema-fields";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { autoMap, parseCsv } from "~/modules/contacts/csv";
import { validateRows } from "~/modules/contacts/import";
import { createLead } from "~/modules/contacts/contacts.server";
import { raiseLeadAlertLater } from "~/modules/push/lead-alerts.server";
import { canManage, listMembers, type Membership } from "./team.server";

// Lead distribution (issue 21, ADR 0038). A team's new leads wait in team_leads until an agent has them:
//   - pond: they stay there; any available member claims one, or the owner/admins assign it;
//   - round robin: each goes at once to the next available member after the one who got the last;
//   - first to claim: each is offered to every available member for the claim window; the first to claim it gets it,
//     and when the window passes unclaimed, round robin takes it (the five-minute cron, and any read of the page).
// An assigned lead becomes a contact in the agent's own account, created at that moment (so speed to lead is the
// agent's own, from when they got it), with an "assignment" activity on its timeline and a new-lead alert.
// Claims and assignments are single conditional UPDATEs: of two agents claiming at once, exactly one gets the lead.

export const LEAD_MESSAGES = {
  managersOnly: "Only the team's owner and admins can do that.",
  notFound: "That lead was not found.",
  taken: "Another agent has this lead already.",
  windowPassed: "The claim window for this lead has passed: it went to the next agent in the rotation.",
  unavailable: "You are marked unavailable for new leads. Turn availability on to claim one.",
  notAMember: "Choose a member of your team.",
  answered: "This lead has been answered or has a deal, so it stays with its agent. Move the contact over by hand if you must.",
  sameAgent: "The lead is with that agent already.",
  window: "The claim window is a whole number of minutes from 1 to 1,440.",
  mode: "Choose how new leads reach your agents.",
  noFile: "Choose a CSV file of leads to import.",
  fileTooLarge: "That file is too large: a leads file can be at most 1 MB.",
  tooManyRows: (n: number) => `That file has ${n.toLocaleString("en-US")} rows: import at most 100 leads at a time. Split it into smaller files.`,
  noNameColumn: "The file needs a Name column (or First name and Last name) in its first row.",
} as const;

/** A lead from the team's form, as the contact it becomes: a hot lead, with the message as its notes. */
const leadInput = (form: FormData) =>
  ContactInputSchema.safeParse({ name: form.get("name") ?? "", email: form.get("email") ?? "", phone: form.get("phone") ?? "", source: form.get("source") || undefined, notes: form.get("message") ?? "", status: "hot", tags: [] });

export type LeadResult = { ok: true; message: string; detail?: string } | { ok: false; status: 400 | 403 | 404 | 409; error: string; fieldErrors?: Record<string, string> };

const now = () => new Date();

/** A request's Deps: its database, and new-lead alerts handed to waitUntil. */
export const requestDeps = (context: RequestContext): Deps => ({ db: context.db, alert: (agentId, contact) => raiseLeadAlertLater(context, agentId, contact) });

export interface Deps {
  db: Db;
  /** Raises the new-lead alert for the agent (push); the request hands it to waitUntil, the cron awaits it. */
  alert(agentId: UserId, contact: { id: string; name: string; phone: string | null; email: string | null }): Promise<void> | void;
}

// ---- Reading ------------------------------------------------------------------------------------------------

export interface LeadsView {
  mode: LeadMode;
  claimWindowMinutes: number;
  members: { userId: string; name: string; role: string; available: boolean }[];
  /** In the pond or offered, oldest first. */
  waiting: (Pick<TeamLead, "id" | "name" | "email" | "phone" | "source" | "message" | "state"> & { createdAt: number; offeredUntil: number | null })[];
  /** Assigned in the last 30 days, newest first (at most 50). */
  assigned: { id: string; name: string; agentId: string | null; agentName: string; how: string | null; assignedAt: number; answered: boolean }[];
}

export async function loadLeads(context: RequestContext, team: Membership, deps: Deps, at = now()): Promise<LeadsView> {
  await settleExpiredOffers(deps, at, team.teamId);
  const [settings, members, availability, waiting, assigned] = await Promise.all([
    context.db.select({ mode: teams.leadMode, window: teams.claimWindowMinutes }).from(teams).where(eq(teams.id, team.teamId)).get(),
    listMembers(context, team.teamId),
    context.db.select({ userId: teamMembers.userId, available: teamMembers.available }).from(teamMembers).where(eq(teamMembers.teamId, team.teamId)),
    context.db
      .select()
      .from(teamLeads)
      .where(and(eq(teamLeads.teamId, team.teamId), inArray(teamLeads.state, ["pond", "offered"])))
      .orderBy(asc(teamLeads.createdAt), asc(teamLeads.id))
      .limit(200),
    context.db
      .select({ lead: teamLeads, firstResponseAt: contacts.firstResponseAt })
      .from(teamLeads)
      .leftJoin(contacts, and(eq(contacts.id, teamLeads.contactId), eq(contacts.userId, teamLeads.assignedTo)))
      .where(and(eq(teamLeads.teamId, team.teamId), eq(teamLeads.state, "assigned"), gt(teamLeads.assignedAt, new Date(at.getTime() - 30 * 86_400_000))))
      .orderBy(desc(teamLeads.assignedAt), desc(teamLeads.id))
      .limit(50),
  ]);
  const names = new Map(members.map((m) => [m.userId, m.name]));
  const available = new Map(availability.map((a) => [a.userId, a.available]));
  return {
    mode: settings?.mode ?? "pond",
    claimWindowMinutes: settings?.window ?? 15,
    members: members.map((m) => ({ userId: m.userId, name: m.name, role: m.role, available: available.get(m.userId) ?? true })),
    waiting: waiting.map((l) => ({ id: l.id, name: l.name, email: l.email, phone: l.phone, source: l.source, message: l.message, state: l.state, createdAt: l.createdAt.getTime(), offeredUntil: l.offeredUntil?.getTime() ?? null })),
    assigned: assigned.map(({ lead, firstResponseAt }) => ({
      id: lead.id,
      name: lead.name,
      agentId: lead.assignedTo,
      agentName: (lead.assignedTo && names.get(lead.assignedTo)) || "A former member",
      how: lead.assignedHow,
      assignedAt: lead.assignedAt?.getTime() ?? 0,
      answered: firstResponseAt !== null && firstResponseAt !== undefined,
    })),
  };
}

// ---- Round robin ---------------------------------------------------------------------------------------------

/**
 * The next available member after the one who got the last lead (by when they joined), and moves the team's pointer
 * to them: a conditional UPDATE, so two leads added at once go to two members. Null when nobody is available.
 */
export async function takeNextInRotation(db: Db, teamId: string): Promise<UserId | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [team, order] = await Promise.all([
      db.select({ last: teams.lastAssignedTo }).from(teams).where(eq(teams.id, teamId)).get(),
      db
        .select({ userId: teamMembers.userId, available: teamMembers.available })
        .from(teamMembers)
        .where(eq(teamMembers.teamId, teamId))
        .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId)),
    ]);
    if (!team) return null;
    // After the last one in the whole team's order (they may have become unavailable or left since).
    const lastIndex = team.last ? order.findIndex((m) => m.userId === team.last) : -1;
    const next = [...order.slice(lastIndex + 1), ...order.slice(0, lastIndex + 1)].find((m) => m.available)?.userId;
    if (!next) return null;
    const moved = await db
      .update(teams)
      .set({ lastAssignedTo: next })
      .where(and(eq(teams.id, teamId), team.last === null ? isNull(teams.lastAssignedTo) : eq(teams.lastAssignedTo, team.last)))
      .returning({ id: teams.id });
    if (moved.length > 0) return next as UserId;
  }
  return null;
}

// ---- Writing -------------------------------------------------------------------------------------------------

/** Gives a waiting lead to `agentId` if it is still waiting (and, when offered, its window still open). */
async function takeWaiting(db: Db, lead: Pick<TeamLead, "id" | "teamId">, agentId: string, how: string, at: Date, windowMustBeOpen: boolean) {
  const [taken] = await db
    .update(teamLeads)
    .set({ state: "assigned", assignedTo: agentId, assignedAt: at, assignedHow: how, offeredUntil: null })
    .where(
      and(
        eq(teamLeads.id, lead.id),
        eq(teamLeads.teamId, lead.teamId),
        windowMustBeOpen ? or(eq(teamLeads.state, "pond"), and(eq(teamLeads.state, "offered"), gt(teamLeads.offeredUntil, at))) : inArray(teamLeads.state, ["pond", "offered"]),
      ),
    )
    .returning();
  return taken ?? null;
}

/** The lead as a contact of the agent's, with the assignment on its timeline, and the new-lead alert. */
async function handOver(deps: Deps, lead: TeamLead, agentId: UserId, note: string, at: Date): Promise<string> {
  const input = ContactInputSchema.parse({ name: lead.name, email: lead.email, phone: lead.phone, source: lead.source, notes: lead.message, status: "hot", tags: [] });
  const contact = await createLead(deps, agentId, input, newId(), at);
  await deps.db.batch([
    deps.db.insert(crmActivities).values({ id: newId(), userId: agentId, contactId: contact.id, type: "assignment", notes: note, meta: { leadId: lead.id }, occurredAt: at, createdAt: at }),
    deps.db.update(teamLeads).set({ contactId: contact.id }).where(eq(teamLeads.id, lead.id)),
  ]);
  await deps.alert(agentId, contact);
  return contact.id;
}

const HOW = {
  roundRobin: "round robin",
  afterWindow: "round robin, after the claim window",
  claimed: "claimed",
  by: (name: string) => `assigned by ${name}`,
};

function noteFor(how: string, teamName: string, from?: string) {
  if (from) return `Reassigned to you from ${from} (${how}), from ${teamName}'s leads.`;
  if (how === HOW.claimed) return `You claimed this lead from ${teamName}'s leads.`;
  return `New lead from ${teamName}'s leads, ${how}.`;
}

/** Sends a lead the way the team's mode says: pond (stays), round robin (assigned now), claim (offered). */
async function distribute(deps: Deps, lead: TeamLead, team: { name: string; mode: LeadMode; window: number }, at: Date): Promise<string> {
  if (team.mode === "claim") {
    await deps.db.update(teamLeads).set({ state: "offered", offeredUntil: new Date(at.getTime() + team.window * 60_000) }).where(eq(teamLeads.id, lead.id));
    return `${lead.name} is offered to every available agent for ${team.window} minutes.`;
  }
  if (team.mode === "round_robin") {
    const agent = await takeNextInRotation(deps.db, lead.teamId);
    const taken = agent ? await takeWaiting(deps.db, lead, agent, HOW.roundRobin, at, false) : null;
    if (agent && taken) {
      await handOver(deps, taken, agent, noteFor(HOW.roundRobin, team.name), at);
      return `${lead.name} went to the next agent in the rotation.`;
    }
    return `Nobody is available, so ${lead.name} waits in the pond.`;
  }
  return `${lead.name} is in the pond.`;
}

/** An owner or admin adds a lead (the team's form). */
export async function addLead(context: RequestContext, team: Membership, deps: Deps, userId: UserId, form: FormData, at = now()): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const parsed = leadInput(form);
  if (!parsed.success) return { ok: false, status: 400, error: "Check the lead's details.", fieldErrors: renameNotes(fieldErrors(parsed.error)) };
  const message = await receiveLead(deps, await distribution(deps.db, team.teamId, team.teamName), parsed.data, userId, at);
  return { ok: true, message };
}

type Distribution = { teamId: string; name: string; mode: LeadMode; window: number };
type NewLead = { name: string; email: string | null; phone: string | null; source: TeamLead["source"]; notes: string | null };

/** How the team distributes its leads, as `receiveLead` needs it. */
export async function distribution(db: Db, teamId: string, teamName: string): Promise<Distribution> {
  const settings = await db.select({ mode: teams.leadMode, window: teams.claimWindowMinutes }).from(teams).where(eq(teams.id, teamId)).get();
  return { teamId, name: teamName, mode: settings?.mode ?? "pond", window: settings?.window ?? 15 };
}

/**
 * A new lead of the team's, from a manager's form, an import row or the public lead form (`addedBy` null): stored in
 * the pond, then distributed as the team's mode says. Answers what happened to it, in words.
 */
export async function receiveLead(deps: Deps, team: Distribution, input: NewLead, addedBy: string | null, at: Date): Promise<string> {
  const [lead] = await deps.db
    .insert(teamLeads)
    .values({ id: newId(), teamId: team.teamId, name: input.name, email: input.email, phone: input.phone, source: input.source, message: input.notes, state: "pond", addedBy, createdAt: at })
    .returning();
  return distribute(deps, lead!, team, at);
}

/**
 * An owner or admin imports a CSV file of leads into the team's leads: the columns the contacts import knows (name,
 * e-mail, phone, source, notes; the rest are ignored), each valid row a lead distributed as the team's mode says. Rows
 * that fail are listed with their line and reasons; a file over LEAD_IMPORT_ROWS rows is refused whole.
 */
export async function importLeads(context: RequestContext, team: Membership, deps: Deps, userId: UserId, file: FormDataEntryValue | null, at = now()): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  if (!file || typeof file === "string" || file.size === 0) return { ok: false, status: 400, error: LEAD_MESSAGES.noFile };
  if (file.size > LEAD_IMPORT_MAX_BYTES) return { ok: false, status: 400, error: LEAD_MESSAGES.fileTooLarge };
  const { headers, rows, lines, errors } = parseCsv(await file.text());
  if (errors.length > 0 || headers.length === 0) return { ok: false, status: 400, error: errors[0] ?? LEAD_MESSAGES.noFile };
  if (rows.length > LEAD_IMPORT_ROWS) return { ok: false, status: 400, error: LEAD_MESSAGES.tooManyRows(rows.length) };
  const mapping = autoMap(headers);
  if (!mapping.includes("name") && !mapping.includes("first_name")) return { ok: false, status: 400, error: LEAD_MESSAGES.noNameColumn };
  const { valid, rejected } = validateRows(rows, mapping, lines);
  const mode = await distribution(context.db, team.teamId, team.teamName);
  for (const { contact } of valid) await receiveLead(deps, mode, contact, userId, at);
  const refused = rejected.slice(0, 5).map((r) => `line ${r.line}: ${r.reasons.join(" ")}`);
  const message = `${valid.length === 1 ? "1 lead" : `${valid.length} leads`} imported (${LEAD_MODE_LABELS[mode.mode].toLowerCase()}).`;
  if (rejected.length === 0) return { ok: true, message };
  const detail = `${rejected.length === 1 ? "1 row was" : `${rejected.length} rows were`} not imported: ${refused.join("; ")}${rejected.length > 5 ? "; …" : ""}`;
  // Nothing valid: the file is refused as a whole, and nothing was added.
  if (valid.length === 0) return { ok: false, status: 400, error: detail };
  return { ok: true, message, detail };
}

const renameNotes = (errors: Record<string, string>) => Object.fromEntries(Object.entries(errors).map(([k, v]) => [k === "notes" ? "message" : k, v]));

/** A member claims a waiting lead: first come, first served. */
export async function claimLead(context: RequestContext, team: Membership, deps: Deps, userId: UserId, leadId: string, at = now()): Promise<LeadResult> {
  const [me, lead] = await Promise.all([
    context.db.select({ available: teamMembers.available }).from(teamMembers).where(and(eq(teamMembers.teamId, team.teamId), eq(teamMembers.userId, userId))).get(),
    context.db.select().from(teamLeads).where(and(eq(teamLeads.id, leadId), eq(teamLeads.teamId, team.teamId))).get(),
  ]);
  if (!lead) return { ok: false, status: 404, error: LEAD_MESSAGES.notFound };
  if (!me?.available) return { ok: false, status: 409, error: LEAD_MESSAGES.unavailable };
  const taken = await takeWaiting(context.db, lead, userId, HOW.claimed, at, true);
  if (!taken) {
    await settleExpiredOffers(deps, at, team.teamId);
    return { ok: false, status: 409, error: lead.state === "offered" && lead.offeredUntil && lead.offeredUntil <= at ? LEAD_MESSAGES.windowPassed : LEAD_MESSAGES.taken };
  }
  await handOver(deps, taken, userId, noteFor(HOW.claimed, team.teamName), at);
  return { ok: true, message: `${lead.name} is yours: find them in your Contacts.` };
}

/**
 * An owner or admin gives a lead to a member: a waiting one, or one already assigned that nobody has answered yet (it
 * moves to the new agent as a new contact; the first agent's copy goes). Recorded on the new contact's timeline.
 */
export async function assignLead(context: RequestContext, team: Membership, deps: Deps, actor: { id: UserId; name: string }, leadId: string, agentId: string, at = now()): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const [lead, members] = await Promise.all([
    context.db.select().from(teamLeads).where(and(eq(teamLeads.id, leadId), eq(teamLeads.teamId, team.teamId))).get(),
    listMembers(context, team.teamId),
  ]);
  if (!lead) return { ok: false, status: 404, error: LEAD_MESSAGES.notFound };
  const agent = members.find((m) => m.userId === agentId);
  if (!agent) return { ok: false, status: 400, error: LEAD_MESSAGES.notAMember, fieldErrors: { agent: LEAD_MESSAGES.notAMember } };
  const how = HOW.by(actor.name);
  if (lead.state !== "assigned") {
    const taken = await takeWaiting(context.db, lead, agent.userId, how, at, false);
    if (!taken) return { ok: false, status: 409, error: LEAD_MESSAGES.taken };
    await handOver(deps, taken, agent.userId as UserId, noteFor(how, team.teamName), at);
    return { ok: true, message: `${lead.name} went to ${agent.name}.` };
  }
  if (lead.assignedTo === agent.userId) return { ok: false, status: 409, error: LEAD_MESSAGES.sameAgent };
  // Reassigning: only a lead nobody has answered, with no deal, so no one's work moves with it.
  const from = lead.assignedTo;
  const fromName = (from && members.find((m) => m.userId === from)?.name) || "a former member";
  if (from && lead.contactId) {
    const [contact, hasDeal] = await Promise.all([
      context.db.select({ firstResponseAt: contacts.firstResponseAt }).from(contacts).where(and(eq(contacts.id, lead.contactId), eq(contacts.userId, from))).get(),
      context.db.select({ id: deals.id }).from(deals).where(and(eq(deals.contactId, lead.contactId), eq(deals.userId, from))).get(),
    ]);
    if ((contact && contact.firstResponseAt !== null) || hasDeal) return { ok: false, status: 409, error: LEAD_MESSAGES.answered };
  }
  const [moved] = await context.db
    .update(teamLeads)
    .set({ assignedTo: agent.userId, assignedAt: at, assignedHow: how, contactId: null })
    .where(and(eq(teamLeads.id, lead.id), eq(teamLeads.state, "assigned"), from === null ? isNull(teamLeads.assignedTo) : eq(teamLeads.assignedTo, from)))
    .returning();
  if (!moved) return { ok: false, status: 409, error: LEAD_MESSAGES.taken };
  // The first agent's copy goes (its own activities with it: the assignment note, nothing they logged).
  if (from && lead.contactId) await context.db.delete(contacts).where(and(eq(contacts.id, lead.contactId), eq(contacts.userId, from)));
  await handOver(deps, moved, agent.userId as UserId, noteFor(how, team.teamName, fromName), at);
  return { ok: true, message: `${lead.name} moved from ${fromName} to ${agent.name}.` };
}

const SettingsSchema = z.object({
  mode: z.enum(LEAD_MODES, { error: LEAD_MESSAGES.mode }),
  claimWindowMinutes: z.coerce.number({ error: LEAD_MESSAGES.window }).int(LEAD_MESSAGES.window).min(1, LEAD_MESSAGES.window).max(1440, LEAD_MESSAGES.window),
});

/** The owner or an admin chooses how leads are distributed. */
export async function saveLeadSettings(context: RequestContext, team: Membership, form: FormData): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const parsed = SettingsSchema.safeParse({ mode: form.get("mode"), claimWindowMinutes: String(form.get("claimWindowMinutes") ?? "").trim() || "15" });
  if (!parsed.success) return { ok: false, status: 400, error: parsed.error.issues[0]!.message, fieldErrors: fieldErrors(parsed.error) };
  await context.db.update(teams).set({ leadMode: parsed.data.mode, claimWindowMinutes: parsed.data.claimWindowMinutes, updatedAt: new Date() }).where(eq(teams.id, team.teamId));
  return { ok: true, message: "Lead settings saved" };
}

/** A member turns their own availability on or off; the owner and admins can set anyone's. */
export async function setAvailability(context: RequestContext, team: Membership, userId: UserId, memberId: string, available: boolean): Promise<LeadResult> {
  if (memberId !== userId && !canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const updated = await context.db
    .update(teamMembers)
    .set({ available })
    .where(and(eq(teamMembers.teamId, team.teamId), eq(teamMembers.userId, memberId)))
    .returning({ userId: teamMembers.userId });
  if (updated.length === 0) return { ok: false, status: 400, error: LEAD_MESSAGES.notAMember };
  return { ok: true, message: available ? "Available for new leads" : "Not available for new leads" };
}

// ---- The claim window ----------------------------------------------------------------------------------------

/**
 * Offered leads whose claim window has passed go to round robin (or back to the pond when nobody is available). Run
 * by the five-minute cron for every team, and for one team before its leads page is read or a claim is refused.
 */
export async function settleExpiredOffers(deps: Deps, at = now(), teamId?: string): Promise<number> {
  const due = await deps.db
    .select()
    .from(teamLeads)
    .where(and(eq(teamLeads.state, "offered"), lte(teamLeads.offeredUntil, at), teamId ? eq(teamLeads.teamId, teamId) : undefined))
    .orderBy(asc(teamLeads.offeredUntil), asc(teamLeads.id))
    .limit(100);
  let settled = 0;
  for (const lead of due) {
    const team = await deps.db.select({ name: teams.name }).from(teams).where(eq(teams.id, lead.teamId)).get();
    const agent = await takeNextInRotation(deps.db, lead.teamId);
    if (!agent) {
      await deps.db.update(teamLeads).set({ state: "pond", offeredUntil: null }).where(and(eq(teamLeads.id, lead.id), eq(teamLeads.state, "offered")));
      continue;
    }
    const taken = await takeWaiting(deps.db, lead, agent, HOW.afterWindow, at, false);
    if (!taken) continue;
    await handOver(deps, taken, agent, noteFor(HOW.afterWindow, team?.name ?? "your team"), at);
    settled += 1;
  }
  return settled;
}
