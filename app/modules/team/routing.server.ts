import { and, asc, count, eq, gte, inArray, isNull, ne } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  teamLeads,
  teamMembers,
  teamRouting,
  teamRoutingRules,
  teams,
  userPreferences,
  type LeadRoutingJson,
  type RouteTargetJson,
  type TeamLead,
  type TeamRouting,
  type TeamRoutingRule,
} from "~/db/schema";
import { wallClockIn } from "~/lib/dates";
import { startOfDayIn } from "~/lib/dates/zones";
import { userName } from "./names.server";
import { conditionsLabel, firstMatch, inBusinessHours, nextInOrder } from "./routing";

// Lead routing on arrival (ADR 0078). Before the team's mode (pond, round robin, first to claim) a new lead meets the
// team's routing: outside business hours the after-hours target takes it; inside, the first rule it matches. A target is
// one agent, a group (round robin within it, its own pointer moved by a conditional UPDATE like the team's), or the pond.
// Members who are paused, who have left, or who reached the daily cap (their automatic leads since midnight on the
// owner's clock) are skipped; when nobody is left the lead waits in the pond.

export type Route = { kind: "agent"; agentId: string; how: string; routing: LeadRoutingJson } | { kind: "pond"; routing: LeadRoutingJson };

export interface RoutingSetup {
  settings: TeamRouting | null;
  rules: TeamRoutingRule[];
  timeZone: string;
}

/** The team's routing settings and rules (in order) and its timezone (the owner's). */
export async function routingSetup(db: Db, teamId: string): Promise<RoutingSetup> {
  const [settings, rules, zone] = await Promise.all([
    db.select().from(teamRouting).where(eq(teamRouting.teamId, teamId)).get(),
    db.select().from(teamRoutingRules).where(eq(teamRoutingRules.teamId, teamId)).orderBy(asc(teamRoutingRules.position), asc(teamRoutingRules.id)),
    db
      .select({ timeZone: userPreferences.timezone })
      .from(teams)
      .leftJoin(userPreferences, eq(userPreferences.userId, teams.ownerId))
      .where(eq(teams.id, teamId))
      .get(),
  ]);
  return { settings: settings ?? null, rules, timeZone: zone?.timeZone ?? "America/New_York" };
}

/** The members at the daily cap at `at`: their automatic leads since the start of the team's day reach it. */
export async function cappedMembers(db: Db, teamId: string, at: Date, setup?: RoutingSetup): Promise<Set<string>> {
  const { settings, timeZone } = setup ?? (await routingSetup(db, teamId));
  const cap = settings?.dailyCap ?? null;
  if (cap === null) return new Set();
  const dayStart = new Date(startOfDayIn(wallClockIn(at, timeZone).date, timeZone));
  const rows = await db
    .select({ agent: teamLeads.assignedTo, n: count() })
    .from(teamLeads)
    .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.state, "assigned"), eq(teamLeads.autoAssigned, true), gte(teamLeads.assignedAt, dayStart)))
    .groupBy(teamLeads.assignedTo);
  return new Set(rows.filter((r) => r.agent !== null && r.n >= cap).map((r) => r.agent!));
}

/** Whose rotation pointer a pick moves: a rule's group, the after-hours group, or the team's round robin. */
export type Pointer = { rule: string } | { afterHours: string } | { team: string };

async function pointerOf(db: Db, pointer: Pointer): Promise<string | null | undefined> {
  if ("rule" in pointer)
    return (await db.select({ last: teamRoutingRules.lastAssignedTo }).from(teamRoutingRules).where(eq(teamRoutingRules.id, pointer.rule)).get())
      ?.last;
  if ("afterHours" in pointer)
    return (await db.select({ last: teamRouting.afterHoursLast }).from(teamRouting).where(eq(teamRouting.teamId, pointer.afterHours)).get())?.last;
  return (await db.select({ last: teams.lastAssignedTo }).from(teams).where(eq(teams.id, pointer.team)).get())?.last;
}

/** Moves the pointer from `last` to `next` only if it is still `last`: of two concurrent picks, one moves it. */
async function movePointer(db: Db, pointer: Pointer, last: string | null, next: string): Promise<boolean> {
  if ("rule" in pointer) {
    const was = last === null ? isNull(teamRoutingRules.lastAssignedTo) : eq(teamRoutingRules.lastAssignedTo, last);
    const moved = await db
      .update(teamRoutingRules)
      .set({ lastAssignedTo: next })
      .where(and(eq(teamRoutingRules.id, pointer.rule), was))
      .returning({ id: teamRoutingRules.id });
    return moved.length > 0;
  }
  if ("afterHours" in pointer) {
    const was = last === null ? isNull(teamRouting.afterHoursLast) : eq(teamRouting.afterHoursLast, last);
    const moved = await db
      .update(teamRouting)
      .set({ afterHoursLast: next })
      .where(and(eq(teamRouting.teamId, pointer.afterHours), was))
      .returning({ id: teamRouting.teamId });
    return moved.length > 0;
  }
  const was = last === null ? isNull(teams.lastAssignedTo) : eq(teams.lastAssignedTo, last);
  const moved = await db
    .update(teams)
    .set({ lastAssignedTo: next })
    .where(and(eq(teams.id, pointer.team), was))
    .returning({ id: teams.id });
  return moved.length > 0;
}

/**
 * The next member of `order` after the pointer that is in the team, available, under the cap and allowed by `allow`,
 * with the pointer moved to them (retried when another pick moved it first). Null when nobody is left.
 */
export async function pickInTurn(
  db: Db,
  teamId: string,
  pointer: Pointer,
  order: readonly string[],
  skip: ReadonlySet<string>,
  allow: (id: string) => boolean = () => true,
): Promise<string | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [last, members] = await Promise.all([
      pointerOf(db, pointer),
      db
        .select({ userId: teamMembers.userId, available: teamMembers.available })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, teamId), order.length > 0 ? inArray(teamMembers.userId, [...order]) : undefined)),
    ]);
    if (last === undefined) return null;
    const available = new Set(members.filter((m) => m.available).map((m) => m.userId));
    const next = nextInOrder(order, last, (id) => available.has(id) && !skip.has(id) && allow(id));
    if (!next) return null;
    if (await movePointer(db, pointer, last, next)) return next;
  }
  return null;
}

/**
 * The team's selling members by when they joined: the order of its round robin. An ISA is not in it (ADR 0080): they
 * work the pond, or get leads by a routing rule that names them.
 */
export async function teamOrder(db: Db, teamId: string): Promise<string[]> {
  const rows = await db
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), ne(teamMembers.role, "isa")))
    .orderBy(asc(teamMembers.joinedAt), asc(teamMembers.userId));
  return rows.map((r) => r.userId);
}

/** Where a target sends a lead now: its agent or the next of its group (skipping `skip`), or null for the pond. */
async function resolveTarget(db: Db, teamId: string, target: RouteTargetJson, pointer: Pointer, skip: ReadonlySet<string>) {
  if (target.kind === "pond") return null;
  return pickInTurn(db, teamId, pointer, target.kind === "agent" ? target.agents.slice(0, 1) : target.agents, skip);
}

/**
 * Where the team's routing sends a new lead at `at`: after hours its after-hours target, else its first matching rule;
 * null when neither applies (no business hours or no after-hours target, and no rule matched): the team's mode decides.
 */
export async function chooseRoute(db: Db, lead: TeamLead, at: Date): Promise<Route | null> {
  const setup = await routingSetup(db, lead.teamId);
  const { settings, rules, timeZone } = setup;
  const afterHours = settings?.afterHours && !inBusinessHours(settings.businessHours, wallClockIn(at, timeZone)) ? settings.afterHours : null;
  const match = afterHours
    ? null
    : firstMatch(rules, {
        source: lead.source,
        priceCents: lead.property?.priceCents ?? null,
        address: lead.property?.address ?? null,
        language: lead.language,
        propertyType: lead.propertyType,
      });
  if (!afterHours && !match) return null;
  const skip = await cappedMembers(db, lead.teamId, at, setup);
  const target = afterHours ?? match!.rule.target;
  const pointer: Pointer = afterHours ? { afterHours: lead.teamId } : { rule: match!.rule.id };
  const agentId = await resolveTarget(db, lead.teamId, target, pointer, skip);
  const head = afterHours ? "After hours" : `Rule ${match!.number}: ${conditionsLabel(match!.rule)}`;
  const base = { by: afterHours ? "after_hours" : "rule", ruleId: match?.rule.id ?? null } as const;
  if (!agentId) return { kind: "pond", routing: { ...base, label: `${head} → pond`, had: [] } };
  const name = await userName(db, agentId, "an agent");
  return {
    kind: "agent",
    agentId,
    how: afterHours ? "after hours" : `by rule ${match!.number}`,
    routing: { ...base, label: `${head} → ${name}`, had: [agentId] },
  };
}
