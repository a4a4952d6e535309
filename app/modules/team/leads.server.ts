import { and, asc, desc, eq, gt, inArray, isNull, lte, or, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import { LEAD_MODES, PROPERTY_TYPES, type LeadMode, type PropertyType, type TeamRole } from "~/db/enums";
import { LEAD_IMPORT_MAX_BYTES, LEAD_IMPORT_ROWS, LEAD_MODE_LABELS } from "./leads";
import type { Db } from "~/db/client.server";
import {
  contacts,
  crmActivities,
  crmTasks,
  deals,
  leadAlerts,
  properties,
  teamLeads,
  teamMembers,
  teams,
  type LeadPropertyJson,
  type LeadRoutingJson,
  type TeamLead,
} from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { auditPerson, auditStatement, auditWhere, teamSettingsAudit, type AuditWhere } from "~/modules/audit/audit.server";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { fieldErrors } from "~/lib/schema-fields";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { autoMap, parseCsv } from "~/modules/contacts/csv";
import { validateRows } from "~/modules/contacts/import";
import { insertContact } from "~/modules/contacts/contacts.server";
import { raiseLeadAlertLater } from "~/modules/push/lead-alerts.server";
import { emailWaitingLeadsLater, type WaitingLead, type WaitingNotice } from "./emails.server";
import { canManage, isMemberSql, isSellerRole, listMembers, MANAGER_ROLES, SELLER_ROLES, worksLeadDesk, type Membership } from "./team.server";
import { ROUTING_MESSAGES } from "./routing";
import { cappedMembers, chooseRoute, pickInTurn, teamOrder } from "./routing.server";

// Lead distribution (ADR 0038). A team's new leads wait in team_leads until an agent has them:
//   - pond: they stay there; any available member claims one, or the owner/admins assign it;
//   - round robin: each goes at once to the next available member after the one who got the last;
//   - first to claim: each is offered to every available member for the claim window; the first to claim it gets it,
//     and when the window passes unclaimed, round robin takes it (the five-minute cron, and any read of the page).
// An assigned lead becomes a contact in the agent's own account, created at that moment (so speed to lead is the
// agent's own, from when they got it), with an "assignment" activity on its timeline and a new-lead alert.
// Claims and assignments are single conditional UPDATEs: of two agents claiming at once, exactly one gets the lead.

export const LEAD_MESSAGES = {
  managersOnly: "Only the team's owner and admins can do that.",
  deskOnly: "Only the team's owner, admins and inside sales agents (ISAs) can do that.",
  toSeller: "Hand the lead to an agent: an ISA passes leads on to those who sell.",
  notYours: "Only the owner and admins move a lead an agent holds. Hand on the leads you hold.",
  hasDeal: "This lead has a deal, so it stays where it is. An ISA hands a lead on before any deal is made with it.",
  notFound: "That lead was not found.",
  source: "Choose where this lead came from.",
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
  ContactInputSchema.safeParse({
    name: form.get("name") ?? "",
    email: form.get("email") ?? "",
    phone: form.get("phone") ?? "",
    source: form.get("source") || undefined,
    notes: form.get("message") ?? "",
    status: "hot",
    tags: [],
  });

/** What routing reads on a lead added by hand: its language, property type, address and price (all optional). */
const LeadExtrasSchema = z.object({
  language: z
    .string()
    .trim()
    .max(40, ROUTING_MESSAGES.language)
    .transform((v) => v || null),
  propertyType: z.union([z.enum(PROPERTY_TYPES), z.literal("")], { error: ROUTING_MESSAGES.propertyType }).transform((v) => v || null),
  address: z
    .string()
    .trim()
    .max(300, "An address is at most 300 characters.")
    .transform((v) => v || null),
  price: z
    .string()
    .trim()
    .regex(/^(\d{1,10})?$/, ROUTING_MESSAGES.price)
    .transform((v) => (v ? Number(v) * 100 : null)),
});
const leadExtras = (form: FormData) =>
  LeadExtrasSchema.safeParse(Object.fromEntries(["language", "propertyType", "address", "price"].map((k) => [k, String(form.get(k) ?? "")])));

export type LeadResult =
  | { ok: true; message: string; detail?: string }
  | { ok: false; status: 400 | 403 | 404 | 409; error: string; fieldErrors?: Record<string, string> };

const now = () => new Date();

/**
 * A request's Deps: its database, new-lead alerts handed to waitUntil, and, given the app's address for the e-mails'
 * links, e-mails about leads left waiting for a claim.
 */
export const requestDeps = (context: RequestContext, origin?: string): Deps => ({
  db: context.db,
  alert: (agentId, contact) => raiseLeadAlertLater(context, agentId, contact),
  announce: origin ? (notice, leads) => emailWaitingLeadsLater(context, origin, notice, leads) : undefined,
});

export interface Deps {
  db: Db;
  /** Raises the new-lead alert for the agent (push); the request hands it to waitUntil, the cron awaits it. */
  alert(agentId: UserId, contact: { id: string; name: string; phone: string | null; email: string | null }): Promise<void> | void;
  /** Tells the available members about leads left waiting (offered for a claim, or in the pond). */
  announce?(notice: WaitingNotice, leads: WaitingLead[]): Promise<void> | void;
}

// ---- Reading ------------------------------------------------------------------------------------------------

export interface LeadsView {
  mode: LeadMode;
  claimWindowMinutes: number;
  members: { userId: string; name: string; role: string; available: boolean }[];
  /** In the pond or offered, oldest first. */
  waiting: (Pick<TeamLead, "id" | "name" | "email" | "phone" | "source" | "message" | "state"> & {
    createdAt: number;
    offeredUntil: number | null;
    /** How routing left it in the pond ("After hours → pond"), if it did. */
    route: string | null;
  })[];
  /** Assigned in the last 30 days, newest first (at most 50). */
  assigned: {
    id: string;
    name: string;
    agentId: string | null;
    agentName: string;
    heldByName: string | null;
    holderId: string | null;
    how: string | null;
    assignedAt: number;
    answered: boolean;
  }[];
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
      .leftJoin(contacts, and(eq(contacts.id, teamLeads.contactId), eq(contacts.userId, teamLeads.heldBy)))
      .where(
        and(eq(teamLeads.teamId, team.teamId), eq(teamLeads.state, "assigned"), gt(teamLeads.assignedAt, new Date(at.getTime() - 30 * 86_400_000))),
      )
      .orderBy(desc(teamLeads.assignedAt), desc(teamLeads.id))
      .limit(50),
  ]);
  const names = new Map(members.map((m) => [m.userId, m.name]));
  const available = new Map(availability.map((a) => [a.userId, a.available]));
  return {
    mode: settings?.mode ?? "pond",
    claimWindowMinutes: settings?.window ?? 15,
    members: members.map((m) => ({ userId: m.userId, name: m.name, role: m.role, available: available.get(m.userId) ?? true })),
    waiting: waiting.map((l) => ({
      id: l.id,
      name: l.name,
      email: l.email,
      phone: l.phone,
      source: l.source,
      message: l.message,
      state: l.state,
      createdAt: l.createdAt.getTime(),
      offeredUntil: l.offeredUntil?.getTime() ?? null,
      route: l.routing?.label ?? null,
    })),
    assigned: assigned.map(({ lead, firstResponseAt }) => ({
      id: lead.id,
      name: lead.name,
      agentId: lead.assignedTo,
      agentName: (lead.assignedTo && names.get(lead.assignedTo)) || "A former member",
      /** A teammate it was handed to with its first agent's work (null: the agent who got it holds it, or nobody). */
      heldByName: lead.heldBy && lead.heldBy !== lead.assignedTo ? (names.get(lead.heldBy) ?? null) : null,
      holderId: lead.heldBy ?? lead.assignedTo,
      how: lead.autoAssigned && lead.routing && (lead.routing.by !== "mode" || lead.hops > 0) ? lead.routing.label : lead.assignedHow,
      assignedAt: lead.assignedAt?.getTime() ?? 0,
      answered: firstResponseAt !== null && firstResponseAt !== undefined,
    })),
  };
}

// ---- Round robin ---------------------------------------------------------------------------------------------

/**
 * The next available member after the one who got the last lead (by when they joined), skipping those at the daily cap,
 * and moves the team's pointer to them: a conditional UPDATE, so two leads added at once go to two members. Null when
 * nobody is available.
 */
async function takeNextInRotation(db: Db, teamId: string, at: Date): Promise<UserId | null> {
  const [order, capped] = await Promise.all([teamOrder(db, teamId), cappedMembers(db, teamId, at)]);
  return (await pickInTurn(db, teamId, { team: teamId }, order, capped)) as UserId | null;
}

// ---- Writing -------------------------------------------------------------------------------------------------
// Every write that puts a lead into an agent's account, or moves one out of it, runs as one batch whose first statement
// re-checks in the database what the write relies on (write-guard.server.ts): the lead is where the page saw it, the
// agent is still a member, and a manager is still a manager. A check that fails changes nothing.

/** SQL: the lead still matches `where` (its state and holder as the writer read them). */
const leadStill = (where: SQL | undefined) => sql`exists (select 1 from ${teamLeads} where ${where})`;

/** SQL: the member may take new leads now. */
const isAvailableSql = (teamId: string, userId: string) =>
  sql`exists (select 1 from ${teamMembers} where ${and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId), eq(teamMembers.available, true))})`;

const asContact = (lead: Pick<TeamLead, "name" | "email" | "phone" | "source" | "message">) =>
  ContactInputSchema.parse({
    name: lead.name,
    email: lead.email,
    phone: lead.phone,
    source: lead.source,
    notes: lead.message,
    status: "hot",
    tags: [],
  });

export const assignmentNote = (db: Db, agentId: string, contactId: string, leadId: string, note: string, at: Date) =>
  db
    .insert(crmActivities)
    .values({ id: newId(), userId: agentId, contactId, type: "assignment", notes: note, meta: { leadId }, occurredAt: at, createdAt: at });

/** The home a team lead asked about, as a property of interest of the contact its agent gets (none when it named none). */
const propertyOf = (db: Db, agentId: string, contactId: string, lead: Pick<TeamLead, "property" | "source">, at: Date) =>
  lead.property
    ? [
        db.insert(properties).values({
          id: newId(),
          userId: agentId,
          contactId,
          address: lead.property.address,
          mlsNumber: lead.property.mls,
          priceCents: lead.property.priceCents,
          url: lead.property.url,
          source: lead.source,
          createdAt: at,
          updatedAt: at,
        }),
      ]
    : [];

interface Give {
  how: string;
  note: string;
  /** A claim: only while the lead is in the pond or its claim window is open, and only for an available member. */
  claim?: boolean;
  /** A manager's (or an ISA's) assignment: only while they still have a role that may make it. */
  actorId?: string;
  actorRoles?: readonly TeamRole[];
  /** The agent must (still) sell: an ISA's handoff (ADR 0080). */
  sells?: boolean;
  /** Its audit row, written in the same batch. */
  audit?: ReturnType<typeof auditStatement>;
  /** Given automatically (routing or round robin): it counts toward the daily cap and may be reassigned automatically. */
  auto?: boolean;
  /** How routing placed it (ADR 0078). */
  routing?: LeadRoutingJson;
}

/**
 * Gives a waiting lead to `agentId` as a new contact of theirs (so their speed to lead starts now), with the assignment
 * on its timeline, and raises their new-lead alert. One batch, checked first: null when the lead no longer waits or the
 * agent (or the manager) is no longer who the caller read; then nothing was written.
 */
async function giveWaiting(deps: Deps, lead: TeamLead, agentId: UserId, give: Give, at: Date): Promise<string | null> {
  const { db } = deps;
  const waiting = give.claim
    ? or(eq(teamLeads.state, "pond"), and(eq(teamLeads.state, "offered"), gt(teamLeads.offeredUntil, at)))
    : inArray(teamLeads.state, ["pond", "offered"]);
  const checks = and(
    leadStill(and(eq(teamLeads.id, lead.id), eq(teamLeads.teamId, lead.teamId), waiting)),
    give.claim ? isAvailableSql(lead.teamId, agentId) : isMemberSql(lead.teamId, agentId, give.sells ? SELLER_ROLES : undefined),
    give.actorId ? isMemberSql(lead.teamId, give.actorId, give.actorRoles ?? MANAGER_ROLES) : undefined,
  )!;
  const input = asContact(lead);
  const contactId = newId();
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, checks),
      insertContact(db, agentId, input, contactId, at, true),
      assignmentNote(db, agentId, contactId, lead.id, give.note, at),
      ...propertyOf(db, agentId, contactId, lead, at),
      db
        .update(teamLeads)
        .set({
          state: "assigned",
          assignedTo: agentId,
          heldBy: agentId,
          assignedAt: at,
          assignedHow: give.how,
          offeredUntil: null,
          contactId,
          autoAssigned: give.auto ?? false,
          ...(give.routing ? { routing: give.routing } : {}),
        })
        .where(eq(teamLeads.id, lead.id)),
      ...(give.audit ? [give.audit] : []),
    ]),
  );
  if (!done.ok) return null;
  await deps.alert(agentId, { id: contactId, name: input.name, phone: input.phone ?? null, email: input.email ?? null });
  return contactId;
}

/** Routing's record of a lead the team's mode gave to `agent` (auto-reassign follows the team's rotation). */
const byMode = (agent: string | null): LeadRoutingJson => ({ by: "mode", ruleId: null, label: "Round robin", had: agent ? [agent] : [] });

const HOW = {
  roundRobin: "round robin",
  afterWindow: "round robin, after the claim window",
  claimed: "claimed",
  by: (name: string) => `assigned by ${name}`,
  handedOn: (name: string) => `handed on by ${name} (inside sales)`,
};

function noteFor(how: string, teamName: string, from?: string) {
  if (from) return `Reassigned to you from ${from} (${how}), from ${teamName}'s leads.`;
  if (how === HOW.claimed) return `You claimed this lead from ${teamName}'s leads.`;
  return `New lead from ${teamName}'s leads, ${how}.`;
}

/** Sends a lead the way the team's mode says: pond (stays), round robin (assigned now), claim (offered). */
async function distribute(deps: Deps, lead: TeamLead, team: { name: string; mode: LeadMode; window: number }, at: Date): Promise<string> {
  const waiting = [{ name: lead.name, source: lead.source, addedBy: lead.addedBy }];
  // The team's routing first (ADR 0078): after hours, or a rule the lead matches.
  const route = await chooseRoute(deps.db, lead, at);
  if (route) {
    const give = { how: route.kind === "agent" ? route.how : "", note: "", auto: true, routing: route.routing };
    if (route.kind === "agent" && (await giveWaiting(deps, lead, route.agentId as UserId, { ...give, note: noteFor(give.how, team.name) }, at)))
      return `${lead.name}: ${route.routing.label}.`;
    await deps.db
      .update(teamLeads)
      .set({ routing: { ...route.routing, label: route.routing.label.replace(/→ .*$/, "→ pond"), had: [] } })
      .where(eq(teamLeads.id, lead.id));
    await deps.announce?.({ teamId: lead.teamId, teamName: team.name, claimMinutes: null }, waiting);
    return `${lead.name} is in the pond (${route.routing.label.replace(/→ .*$/, "→ pond")}).`;
  }
  if (team.mode === "claim") {
    await deps.db
      .update(teamLeads)
      .set({ state: "offered", offeredUntil: new Date(at.getTime() + team.window * 60_000) })
      .where(eq(teamLeads.id, lead.id));
    await deps.announce?.({ teamId: lead.teamId, teamName: team.name, claimMinutes: team.window }, waiting);
    return `${lead.name} is offered to every available agent for ${team.window} minutes.`;
  }
  if (team.mode === "round_robin") {
    const agent = await takeNextInRotation(deps.db, lead.teamId, at);
    const give = { how: HOW.roundRobin, note: noteFor(HOW.roundRobin, team.name), auto: true, routing: byMode(agent) };
    if (agent && (await giveWaiting(deps, lead, agent, give, at))) {
      return `${lead.name} went to the next agent in the rotation.`;
    }
    return `Nobody is available, so ${lead.name} waits in the pond.`;
  }
  await deps.announce?.({ teamId: lead.teamId, teamName: team.name, claimMinutes: null }, waiting);
  return `${lead.name} is in the pond.`;
}

/** An owner or admin adds a lead (the team's form). */
export async function addLead(
  context: RequestContext,
  team: Membership,
  deps: Deps,
  userId: UserId,
  form: FormData,
  at = now(),
): Promise<LeadResult> {
  if (!worksLeadDesk(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.deskOnly };
  const parsed = leadInput(form);
  // A lead added by hand names its source (reports count leads by source): nothing is assumed for it.
  const noSource: Record<string, string> = String(form.get("source") ?? "").trim() ? {} : { source: LEAD_MESSAGES.source };
  const extras = leadExtras(form);
  if (!parsed.success || noSource.source || !extras.success) {
    return {
      ok: false,
      status: 400,
      error: "Check the lead's details.",
      fieldErrors: {
        ...(parsed.success ? {} : renameNotes(fieldErrors(parsed.error))),
        ...(extras.success ? {} : fieldErrors(extras.error)),
        ...noSource,
      },
    };
  }
  const { language, propertyType, address, price } = extras.data;
  const property = address || price !== null ? { address, priceCents: price, mls: null, url: null } : null;
  const input = { ...parsed.data, language, propertyType, property };
  const message = await receiveLead(deps, await distribution(deps.db, team.teamId, team.teamName), input, userId, at);
  return { ok: true, message };
}

type Distribution = { teamId: string; name: string; mode: LeadMode; window: number };
type NewLead = {
  name: string;
  email: string | null;
  phone: string | null;
  source: TeamLead["source"];
  notes: string | null;
  property?: LeadPropertyJson | null;
  language?: string | null;
  propertyType?: PropertyType | null;
};

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
    .values({
      id: newId(),
      teamId: team.teamId,
      name: input.name,
      email: input.email,
      phone: input.phone,
      source: input.source,
      message: input.notes,
      property: input.property ?? null,
      language: input.language ?? null,
      propertyType: input.propertyType ?? null,
      state: "pond",
      addedBy,
      createdAt: at,
    })
    .returning();
  return distribute(deps, lead!, team, at);
}

/**
 * Leads that `memberId` held and never answered, put back to the team when they close their account: each waits in the
 * pond again and is distributed as the team's mode says (their copy stays in the closed account until its purge).
 * Each is taken back only if it is still theirs, in the statement that takes it.
 */
export async function reofferLeadsOf(deps: Deps, team: Distribution, memberId: string, leadIds: readonly string[], at: Date): Promise<number> {
  let reoffered = 0;
  for (const id of leadIds) {
    const [back] = await deps.db
      .update(teamLeads)
      .set({ state: "pond", assignedTo: null, heldBy: null, assignedAt: null, assignedHow: null, contactId: null, offeredUntil: null })
      // Still as it was when they left: held by nobody since (leaving detached it) or still by them; never one a manager
      // has given to someone else meanwhile.
      .where(
        and(
          eq(teamLeads.id, id),
          eq(teamLeads.teamId, team.teamId),
          eq(teamLeads.state, "assigned"),
          eq(teamLeads.assignedTo, memberId),
          or(isNull(teamLeads.heldBy), eq(teamLeads.heldBy, memberId)),
        ),
      )
      .returning();
    if (!back) continue;
    await distribute(deps, back, team, at);
    reoffered += 1;
  }
  return reoffered;
}

/** The team's leads `memberId` holds that nobody has answered and that have no deal: the ones worth offering again. */
export async function unansweredLeadsOf(db: Db, teamId: string, memberId: string): Promise<string[]> {
  const rows = await db
    .select({ id: teamLeads.id })
    .from(teamLeads)
    .leftJoin(contacts, and(eq(contacts.id, teamLeads.contactId), eq(contacts.userId, memberId)))
    .where(
      and(
        eq(teamLeads.teamId, teamId),
        eq(teamLeads.state, "assigned"),
        eq(teamLeads.heldBy, memberId),
        isNull(contacts.firstResponseAt),
        sql`not exists (select 1 from ${deals} where ${deals.contactId} = ${teamLeads.contactId})`,
      ),
    );
  return rows.map((r) => r.id);
}

/**
 * An owner or admin imports a CSV file of leads into the team's leads: the columns the contacts import knows (name,
 * e-mail, phone, source, notes; the rest are ignored), each valid row a lead distributed as the team's mode says. Rows
 * that fail are listed with their line and reasons; a file over LEAD_IMPORT_ROWS rows is refused whole.
 */
export async function importLeads(
  context: RequestContext,
  team: Membership,
  deps: Deps,
  userId: UserId,
  file: FormDataEntryValue | null,
  at = now(),
): Promise<LeadResult> {
  if (!worksLeadDesk(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.deskOnly };
  if (!file || typeof file === "string" || file.size === 0) return { ok: false, status: 400, error: LEAD_MESSAGES.noFile };
  if (file.size > LEAD_IMPORT_MAX_BYTES) return { ok: false, status: 400, error: LEAD_MESSAGES.fileTooLarge };
  const { headers, rows, lines, errors } = parseCsv(await file.text());
  if (errors.length > 0 || headers.length === 0) return { ok: false, status: 400, error: errors[0] ?? LEAD_MESSAGES.noFile };
  if (rows.length > LEAD_IMPORT_ROWS) return { ok: false, status: 400, error: LEAD_MESSAGES.tooManyRows(rows.length) };
  const mapping = autoMap(headers);
  if (!mapping.includes("name") && !mapping.includes("first_name")) return { ok: false, status: 400, error: LEAD_MESSAGES.noNameColumn };
  const { valid, rejected } = validateRows(rows, mapping, lines);
  const mode = await distribution(context.db, team.teamId, team.teamName);
  // One e-mail per member for the whole file, not one per row.
  let notice: WaitingNotice | null = null;
  const waiting: WaitingLead[] = [];
  const collecting: Deps = { ...deps, announce: (n, leads) => void ((notice = n), waiting.push(...leads)) };
  for (const { contact } of valid) await receiveLead(collecting, mode, contact, userId, at);
  if (notice && waiting.length > 0) await deps.announce?.(notice, waiting);
  const refused = rejected.slice(0, 5).map((r) => `line ${r.line}: ${r.reasons.join(" ")}`);
  const message = `${valid.length === 1 ? "1 lead" : `${valid.length} leads`} imported (${LEAD_MODE_LABELS[mode.mode].toLowerCase()}).`;
  if (rejected.length === 0) return { ok: true, message };
  const detail = `${rejected.length === 1 ? "1 row was" : `${rejected.length} rows were`} not imported: ${refused.join("; ")}${rejected.length > 5 ? "; …" : ""}`;
  // Nothing valid: the file is refused as a whole, and nothing was added.
  if (valid.length === 0) return { ok: false, status: 400, error: detail };
  return { ok: true, message, detail };
}

const renameNotes = (errors: Record<string, string>) =>
  Object.fromEntries(Object.entries(errors).map(([k, v]) => [k === "notes" ? "message" : k, v]));

/** A member claims a waiting lead: first come, first served. */
export async function claimLead(
  context: RequestContext,
  team: Membership,
  deps: Deps,
  userId: UserId,
  leadId: string,
  at = now(),
): Promise<LeadResult> {
  const [me, lead] = await Promise.all([
    context.db
      .select({ available: teamMembers.available })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, team.teamId), eq(teamMembers.userId, userId)))
      .get(),
    context.db
      .select()
      .from(teamLeads)
      .where(and(eq(teamLeads.id, leadId), eq(teamLeads.teamId, team.teamId)))
      .get(),
  ]);
  if (!lead) return { ok: false, status: 404, error: LEAD_MESSAGES.notFound };
  if (!me?.available) return { ok: false, status: 409, error: LEAD_MESSAGES.unavailable };
  const given = await giveWaiting(deps, lead, userId, { how: HOW.claimed, note: noteFor(HOW.claimed, team.teamName), claim: true }, at);
  if (!given) {
    await settleExpiredOffers(deps, at, team.teamId);
    return {
      ok: false,
      status: 409,
      error: lead.state === "offered" && lead.offeredUntil && lead.offeredUntil <= at ? LEAD_MESSAGES.windowPassed : LEAD_MESSAGES.taken,
    };
  }
  return { ok: true, message: `${lead.name} is yours: find them in your Contacts.` };
}

/**
 * An owner or admin gives a lead to a member: a waiting one, or one already assigned that nobody has answered yet.
 * Reassigned, the lead's contact moves from the first agent's account to the new agent's as it is (same record, its
 * timeline and tasks with it, the new agent's speed to lead starting now), so nothing of anyone's is deleted. A lead
 * whose first agent has left the team stays with them as their contact: the new agent gets a contact of their own.
 *
 * An ISA (ADR 0080) gives waiting leads to agents, and hands on the leads they hold once they have worked them
 * (answered, qualified): the contact moves with the ISA's calls and notes on its timeline, and the agent's speed to lead
 * starts at the handoff. Only to a member who sells, and never a lead with a deal.
 */
export async function assignLead(
  context: RequestContext,
  team: Membership,
  deps: Deps,
  actor: { id: UserId; name: string; where: AuditWhere },
  leadId: string,
  agentId: string,
  at = now(),
): Promise<LeadResult> {
  if (!worksLeadDesk(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.deskOnly };
  const isa = team.role === "isa";
  const [lead, members] = await Promise.all([
    context.db
      .select()
      .from(teamLeads)
      .where(and(eq(teamLeads.id, leadId), eq(teamLeads.teamId, team.teamId)))
      .get(),
    listMembers(context, team.teamId),
  ]);
  if (!lead) return { ok: false, status: 404, error: LEAD_MESSAGES.notFound };
  const agent = members.find((m) => m.userId === agentId);
  if (!agent) return { ok: false, status: 400, error: LEAD_MESSAGES.notAMember, fieldErrors: { agent: LEAD_MESSAGES.notAMember } };
  if (isa && !isSellerRole(agent.role))
    return { ok: false, status: 400, error: LEAD_MESSAGES.toSeller, fieldErrors: { agent: LEAD_MESSAGES.toSeller } };
  const how = isa ? HOW.handedOn(actor.name) : HOW.by(actor.name);
  // The actor's role as read, re-checked in the batch: an ISA's handoff goes only to a member who (still) sells.
  const actorRoles: readonly TeamRole[] = isa ? ["isa"] : MANAGER_ROLES;
  const audit = (from?: string) =>
    auditStatement(context, {
      action: from === undefined ? "lead.assigned" : "lead.reassigned",
      teamId: team.teamId,
      actor: { id: actor.id, label: actor.name },
      subject: { id: agent.userId, label: agent.name },
      target: { type: "lead", id: lead.id, label: lead.name },
      details: from === undefined ? null : { from },
      where: actor.where,
      at,
    });
  if (lead.state !== "assigned") {
    const give = { how, note: noteFor(how, team.teamName), actorId: actor.id, actorRoles, sells: isa, audit: audit() };
    const given = await giveWaiting(deps, lead, agent.userId as UserId, give, at);
    if (!given) return { ok: false, status: 409, error: LEAD_MESSAGES.taken };
    return { ok: true, message: `${lead.name} went to ${agent.name}.` };
  }
  if ((lead.heldBy ?? lead.assignedTo) === agent.userId) return { ok: false, status: 409, error: LEAD_MESSAGES.sameAgent };
  // An ISA hands on only the leads they hold; moving an agent's lead is the owner's and admins' call.
  if (isa && lead.heldBy !== actor.id) return { ok: false, status: 403, error: LEAD_MESSAGES.notYours };
  // Who holds the lead's contact now: the agent who got it, or a teammate it was handed to with their work.
  const from = lead.heldBy;
  const fromMember = from ? members.find((m) => m.userId === from) : undefined;
  const fromName = fromMember?.name ?? "a former member";
  // The contact moves only while its holder is in the team; one who has left keeps theirs.
  const moving = fromMember && lead.contactId ? { from: fromMember.userId, contactId: lead.contactId } : null;
  // A lead an agent has answered stays theirs; an ISA's answer is the work they hand on (a deal still keeps it).
  if (moving && isa && (await hasDeal(context.db, moving.contactId))) return { ok: false, status: 409, error: LEAD_MESSAGES.hasDeal };
  if (moving && !isa && (await isAnswered(context.db, moving.from, moving.contactId)))
    return { ok: false, status: 409, error: LEAD_MESSAGES.answered };

  const db = context.db;
  const seen = and(
    eq(teamLeads.id, lead.id),
    eq(teamLeads.teamId, team.teamId),
    eq(teamLeads.state, "assigned"),
    from === null ? isNull(teamLeads.heldBy) : eq(teamLeads.heldBy, from),
    lead.contactId === null ? isNull(teamLeads.contactId) : eq(teamLeads.contactId, lead.contactId),
  );
  const common = [
    leadStill(seen),
    isMemberSql(team.teamId, agent.userId, isa ? SELLER_ROLES : undefined),
    isMemberSql(team.teamId, actor.id, actorRoles),
  ];
  const note = isa ? `${actor.name} (inside sales) handed this lead to you, from ${team.teamName}'s leads.` : noteFor(how, team.teamName, fromName);
  const reassigned = db
    .update(teamLeads)
    .set({ assignedTo: agent.userId, heldBy: agent.userId, assignedAt: at, assignedHow: how, autoAssigned: false, routing: null })
    .where(eq(teamLeads.id, lead.id));
  let contact: { id: string; name: string; phone: string | null; email: string | null };
  let done: { ok: boolean };
  if (moving) {
    const { from: holder, contactId } = moving;
    const checks = and(
      ...common,
      isMemberSql(team.teamId, holder),
      sql`exists (select 1 from ${contacts} where ${and(eq(contacts.id, contactId), eq(contacts.userId, holder), isa ? undefined : isNull(contacts.firstResponseAt))})`,
      sql`not exists (select 1 from ${deals} where ${eq(deals.contactId, contactId)})`,
    )!;
    const row = await db
      .select({ name: contacts.name, phone: contacts.phone, email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, holder)))
      .get();
    contact = { id: contactId, name: row?.name ?? lead.name, phone: row?.phone ?? null, email: row?.email ?? null };
    done = await guardedBatch(() =>
      db.batch([
        requireInBatch(db, checks),
        ...moveContact(db, contactId, holder, agent.userId, at, isa),
        assignmentNote(db, agent.userId, contactId, lead.id, note, at),
        reassigned,
        audit(fromName),
      ]),
    );
  } else {
    const detached =
      from && lead.contactId
        ? sql`not (${isMemberSql(team.teamId, from)} and exists (select 1 from ${contacts} where ${and(eq(contacts.id, lead.contactId), eq(contacts.userId, from))}))`
        : undefined;
    const input = asContact(lead);
    contact = { id: newId(), name: input.name, phone: input.phone ?? null, email: input.email ?? null };
    done = await guardedBatch(() =>
      db.batch([
        requireInBatch(db, and(...common, detached)!),
        insertContact(db, agent.userId, input, contact.id, at, true),
        assignmentNote(db, agent.userId, contact.id, lead.id, note, at),
        ...propertyOf(db, agent.userId, contact.id, lead, at),
        db
          .update(teamLeads)
          .set({
            assignedTo: agent.userId,
            heldBy: agent.userId,
            assignedAt: at,
            assignedHow: how,
            contactId: contact.id,
            autoAssigned: false,
            routing: null,
          })
          .where(eq(teamLeads.id, lead.id)),
        audit(fromName),
      ]),
    );
  }
  if (!done.ok) {
    if (isa) return { ok: false, status: 409, error: moving && (await hasDeal(db, moving.contactId)) ? LEAD_MESSAGES.hasDeal : LEAD_MESSAGES.taken };
    const answered = moving ? await isAnswered(db, moving.from, moving.contactId) : false;
    return { ok: false, status: 409, error: answered ? LEAD_MESSAGES.answered : LEAD_MESSAGES.taken };
  }
  await deps.alert(agent.userId as UserId, contact);
  return { ok: true, message: `${lead.name} moved from ${fromName} to ${agent.name}.` };
}

/**
 * The statements that move a lead's contact from `holder` to `agentId` in place (same id; its timeline, tasks and
 * properties with it; its new agent's speed to lead from `at`), for a batch whose first statement checked the move.
 * `handoff`: an ISA's worked lead, whose first response was the ISA's; the agent's own is still to come.
 */
export function moveContact(db: Db, contactId: string, holder: string, agentId: string, at: Date, handoff = false) {
  return [
    // The triggers of migration 0030 keep both agents' counters, field copies and insight caches right.
    db
      .update(contacts)
      .set({
        userId: agentId,
        createdAt: at,
        updatedAt: at,
        lastActivity: at,
        leadAt: at,
        ...(handoff ? { firstResponseAt: null, answeredBy: null } : {}),
      })
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, holder))),
    db
      .update(crmTasks)
      .set({ userId: agentId })
      .where(and(eq(crmTasks.contactId, contactId), eq(crmTasks.userId, holder))),
    db
      .update(crmActivities)
      .set({ userId: agentId })
      .where(and(eq(crmActivities.contactId, contactId), eq(crmActivities.userId, holder))),
    db
      .update(properties)
      .set({ userId: agentId })
      .where(and(eq(properties.contactId, contactId), eq(properties.userId, holder))),
    // The first agent's alert was about the lead reaching them; the new agent's is raised after the batch.
    db.delete(leadAlerts).where(eq(leadAlerts.contactId, contactId)),
  ] as const;
}

/** Whether the lead's contact has a deal (then it stays with whoever holds it). */
async function hasDeal(db: Db, contactId: string): Promise<boolean> {
  return (await db.select({ id: deals.id }).from(deals).where(eq(deals.contactId, contactId)).get()) !== undefined;
}

/** Whether the agent has answered the lead's contact or has a deal with it (then it stays theirs). */
async function isAnswered(db: Db, holder: string, contactId: string): Promise<boolean> {
  const [contact, deal] = await Promise.all([
    db
      .select({ firstResponseAt: contacts.firstResponseAt })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, holder)))
      .get(),
    hasDeal(db, contactId),
  ]);
  return (contact !== undefined && contact.firstResponseAt !== null) || deal;
}

const SettingsSchema = z.object({
  mode: z.enum(LEAD_MODES, { error: LEAD_MESSAGES.mode }),
  claimWindowMinutes: z.coerce
    .number({ error: LEAD_MESSAGES.window })
    .int(LEAD_MESSAGES.window)
    .min(1, LEAD_MESSAGES.window)
    .max(1440, LEAD_MESSAGES.window),
});

/** The owner or an admin chooses how leads are distributed; what changed is in the team's audit log. */
export async function saveLeadSettings(
  context: RequestContext,
  request: Request,
  actor: { id: UserId },
  team: Membership,
  form: FormData,
): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  const parsed = SettingsSchema.safeParse({
    mode: form.get("mode"),
    claimWindowMinutes: String(form.get("claimWindowMinutes") ?? "").trim() || "15",
  });
  if (!parsed.success) return { ok: false, status: 400, error: parsed.error.issues[0]!.message, fieldErrors: fieldErrors(parsed.error) };
  const before = await context.db
    .select({ mode: teams.leadMode, window: teams.claimWindowMinutes })
    .from(teams)
    .where(eq(teams.id, team.teamId))
    .get();
  const changes = [
    ...(before && before.mode !== parsed.data.mode
      ? [{ setting: "lead mode", from: LEAD_MODE_LABELS[before.mode], to: LEAD_MODE_LABELS[parsed.data.mode] }]
      : []),
    ...(before && before.window !== parsed.data.claimWindowMinutes
      ? [{ setting: "claim window", from: `${before.window} minutes`, to: `${parsed.data.claimWindowMinutes} minutes` }]
      : []),
  ];
  const at = new Date();
  const me = await auditPerson(context.db, actor.id);
  await context.db.batch([
    context.db
      .update(teams)
      .set({ leadMode: parsed.data.mode, claimWindowMinutes: parsed.data.claimWindowMinutes, updatedAt: at })
      .where(eq(teams.id, team.teamId)),
    ...(changes.length > 0 ? [teamSettingsAudit(context, { teamId: team.teamId, actor: me, changes, where: auditWhere(request), at })] : []),
  ]);
  return { ok: true, message: "Lead settings saved" };
}

/** A member turns their own availability on or off; the owner and admins can set anyone's. */
export async function setAvailability(
  context: RequestContext,
  team: Membership,
  userId: UserId,
  memberId: string,
  available: boolean,
): Promise<LeadResult> {
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
    const agent = await takeNextInRotation(deps.db, lead.teamId, at);
    if (!agent) {
      await deps.db
        .update(teamLeads)
        .set({ state: "pond", offeredUntil: null })
        .where(and(eq(teamLeads.id, lead.id), eq(teamLeads.state, "offered")));
      continue;
    }
    const give = { how: HOW.afterWindow, note: noteFor(HOW.afterWindow, team?.name ?? "your team"), auto: true, routing: byMode(agent) };
    if (await giveWaiting(deps, lead, agent, give, at)) settled += 1;
  }
  return settled;
}
