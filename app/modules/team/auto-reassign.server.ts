import { and, asc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { SYSTEM_ACTIVITY_SQL } from "~/db/enums";
import { contacts, crmActivities, deals, teamLeads, teamRouting, teamRoutingRules, teams, type LeadRoutingJson, type TeamLead } from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { auditStatement, SYSTEM_WHERE } from "~/modules/audit/audit.server";
import type { UserId } from "~/modules/auth/session.server";
import { assignmentNote, moveContact, type Deps } from "./leads.server";
import { userName } from "./names.server";
import { cappedMembers, pickInTurn, teamOrder, type Pointer } from "./routing.server";
import { isMemberSql } from "./team.server";

// Auto-reassign (ADR 0078): a lead given automatically (a rule, after hours, round robin) that its agent has not
// contacted within the team's N minutes hops to the next agent by the same route, at most M times. "Contacted" is what
// speed to lead counts (first_response_at: a call, text, e-mail or meeting) or any other activity the agent logged on
// it; system activities (the assignment note, stage changes) are not. Each hop is one batch that re-checks, first, that
// the lead is still where the pass read it (same holder, same hop count, not contacted, no deal) and that both agents
// are members: of two passes at once exactly one moves it, and a lead answered meanwhile stays.

/** Leads a pass looks at: bounded, so a pass stays well inside the per-invocation query limit (about 12 queries a hop). */
const REASSIGN_BATCH = 25;

/** SQL: nobody has logged anything but system activities on the contact, it has no first response and no deal. */
const untouched = (contactId: string | SQL) => sql`(
  not exists (select 1 from ${crmActivities} where ${crmActivities.contactId} = ${contactId} and ${crmActivities.type} not in (${sql.raw(SYSTEM_ACTIVITY_SQL)}))
  and not exists (select 1 from ${contacts} where ${contacts.id} = ${contactId} and ${contacts.firstResponseAt} is not null)
  and not exists (select 1 from ${deals} where ${deals.contactId} = ${contactId}))`;

/** Whose turn is next for a hop: the rule's or after-hours group in its rotation; else the team's round robin order. */
async function routeOf(deps: Deps, lead: TeamLead, routing: LeadRoutingJson): Promise<{ order: string[]; pointer: Pointer }> {
  const team = { order: await teamOrder(deps.db, lead.teamId), pointer: { team: lead.teamId } as Pointer };
  if (routing.by === "rule" && routing.ruleId) {
    const rule = await deps.db
      .select({ target: teamRoutingRules.target })
      .from(teamRoutingRules)
      .where(and(eq(teamRoutingRules.id, routing.ruleId), eq(teamRoutingRules.teamId, lead.teamId)))
      .get();
    if (rule?.target.kind === "group") return { order: rule.target.agents, pointer: { rule: routing.ruleId } };
  }
  if (routing.by === "after_hours") {
    const settings = await deps.db.select({ target: teamRouting.afterHours }).from(teamRouting).where(eq(teamRouting.teamId, lead.teamId)).get();
    if (settings?.target?.kind === "group") return { order: settings.target.agents, pointer: { afterHours: lead.teamId } };
  }
  return team;
}

/**
 * One pass: every lead past its team's N minutes, not contacted, with hops left, moved on to the next agent (one who has
 * not had it yet; when everyone has, anyone but its current agent; when nobody else is available, it stays).
 */
export async function autoReassign(deps: Deps, at: Date, limit = REASSIGN_BATCH): Promise<number> {
  const { db } = deps;
  const due = await db
    .select({ lead: teamLeads, minutes: teamRouting.reassignMinutes, max: teamRouting.reassignMax, teamName: teams.name })
    .from(teamLeads)
    .innerJoin(teamRouting, eq(teamRouting.teamId, teamLeads.teamId))
    .innerJoin(teams, eq(teams.id, teamLeads.teamId))
    .where(
      and(
        eq(teamLeads.state, "assigned"),
        eq(teamLeads.autoAssigned, true),
        isNotNull(teamLeads.contactId),
        isNotNull(teamLeads.heldBy),
        isNotNull(teamRouting.reassignMinutes),
        sql`${teamLeads.hops} < ${teamRouting.reassignMax}`,
        sql`${teamLeads.assignedAt} + ${teamRouting.reassignMinutes} * 60000 <= ${at.getTime()}`,
        untouched(sql`${teamLeads.contactId}`),
      ),
    )
    .orderBy(asc(teamLeads.assignedAt), asc(teamLeads.id))
    .limit(limit);
  let moved = 0;
  for (const { lead, minutes, max } of due) {
    if (await hop(deps, lead, minutes!, max, at)) moved += 1;
  }
  return moved;
}

async function hop(deps: Deps, lead: TeamLead, minutes: number, max: number, at: Date): Promise<boolean> {
  const { db } = deps;
  const holder = lead.heldBy!;
  const contactId = lead.contactId!;
  const routing: LeadRoutingJson = lead.routing ?? { by: "mode", ruleId: null, label: "Round robin", had: [holder] };
  const { order, pointer } = await routeOf(deps, lead, routing);
  const capped = await cappedMembers(db, lead.teamId, at);
  const had = new Set([...routing.had, holder]);
  const next =
    (await pickInTurn(db, lead.teamId, pointer, order, capped, (id) => !had.has(id))) ??
    (await pickInTurn(db, lead.teamId, pointer, order, capped, (id) => id !== holder));
  if (!next) return false;
  const [fromName, toName, contact] = await Promise.all([
    userName(db, holder, "a former member"),
    userName(db, next, "an agent"),
    db
      .select({ name: contacts.name, phone: contacts.phone, email: contacts.email })
      .from(contacts)
      .where(and(eq(contacts.id, contactId), eq(contacts.userId, holder)))
      .get(),
  ]);
  if (!contact) return false;
  const count = `${lead.hops + 1} of ${max}`;
  const reason = `not contacted within ${minutes} minutes`;
  const checks = and(
    sql`exists (select 1 from ${teamLeads} where ${and(
      eq(teamLeads.id, lead.id),
      eq(teamLeads.state, "assigned"),
      eq(teamLeads.heldBy, holder),
      eq(teamLeads.contactId, contactId),
      eq(teamLeads.hops, lead.hops),
      eq(teamLeads.autoAssigned, true),
    )})`,
    sql`exists (select 1 from ${contacts} where ${and(eq(contacts.id, contactId), eq(contacts.userId, holder), isNull(contacts.firstResponseAt))})`,
    untouched(contactId),
    isMemberSql(lead.teamId, holder),
    isMemberSql(lead.teamId, next),
  )!;
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(db, checks),
      ...moveContact(db, contactId, holder, next, at),
      assignmentNote(db, next, contactId, lead.id, `Reassigned automatically: ${reason}.`, at),
      db
        .update(teamLeads)
        .set({
          assignedTo: next,
          heldBy: next,
          assignedAt: at,
          assignedHow: "reassigned automatically",
          hops: lead.hops + 1,
          routing: { ...routing, label: `Reassigned automatically (${count}) → ${toName}`, had: [...had, next] },
        })
        .where(eq(teamLeads.id, lead.id)),
      auditStatement(deps, {
        action: "lead.reassigned",
        teamId: lead.teamId,
        actor: null,
        subject: { id: next, label: toName },
        target: { type: "lead", id: lead.id, label: lead.name },
        details: { from: fromName, reason, hop: count },
        where: SYSTEM_WHERE,
        at,
      }),
    ]),
  );
  if (!done.ok) return false;
  await deps.alert(next as UserId, { id: contactId, ...contact });
  return true;
}
