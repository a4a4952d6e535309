import { data } from "@remix-run/cloudflare";
import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import type { DealMoveResult } from "~/modules/deals/deal.messages";
import type { Currency } from "~/db/enums";
import { contacts, dealShares, deals, type DealStage } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { D1_LIMITS } from "~/lib/d1-limits";
import { ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";
import { LIST_LIMIT } from "~/modules/deals/deal.schema";
import { moveDealFromForm } from "~/modules/deals/deal-actions.server";
import type { BoardCard } from "~/modules/pipeline/board";
import { toBoardCard } from "~/modules/pipeline/board.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { isoDateIn } from "~/lib/format";
import { sharedWith } from "~/modules/deals/shares.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { isMemberSql, listMembers, MANAGER_ROLES, type MemberRow } from "./team.server";
import { agentInView, type Viewer } from "./visibility.server";

// The team pipeline (ADR 0034): one agent's board at a time, or a list of the open deals across the agents
// the viewer may see (owners and admins: everyone; agents: themselves). Each deal stays in its agent's own stages
// and is priced by its agent's own plan. Moves go through the agent's own moveDeal, named with who made them.

/**
 * A deal of the list, with its agent, their name for its stage, their currency (amounts are theirs) and their today
 * (the day a move into a closed stage is dated by default).
 */
export type TeamCard = BoardCard & { agentId: string; agentName: string; stageName: string; currency: Currency; today: string; sharePct?: number };

/**
 * The open deals of `agents`, soonest expected close first (no date last), at most LIST_LIMIT, with the count, and each
 * agent's stages (for the move menus). `agents` must come from the visibility rule.
 */
export async function teamDealList(
  context: RequestContext,
  agents: readonly MemberRow[],
): Promise<{ cards: TeamCard[]; total: number; stages: Record<string, DealStage[]> }> {
  if (agents.length === 0) return { cards: [], total: 0, stages: {} };
  const ids = agents.map((a) => a.userId as UserId);
  const [commissions, prefs] = await Promise.all([
    Promise.all(ids.map((id) => loadCommissionContext(context, id))),
    Promise.all(ids.map((id) => getDisplayPreferences(context, id))),
  ]);
  const byAgent = new Map(ids.map((id, i) => [id as string, { commissions: commissions[i]!, name: agents[i]!.name, currency: prefs[i]!.currency }]));
  const openKeys = commissions.map((c) => c.stages.filter((s) => s.kind === "open").map((s) => s.key));
  // D1 binds at most 100 parameters per statement, and each agent's condition binds their id twice and their open
  // stages: a large team is read in groups of agents that fit (the LIMIT takes one more), and the groups' lists merged.
  const groups = groupsWithin(
    openKeys.map((keys) => 2 + keys.length),
    D1_LIMITS.boundParameters - 1,
  );
  const parts = await Promise.all(
    groups.map(async (members) => {
      // Open is each agent's own open stages.
      const open = or(...members.map((i) => and(eq(deals.userId, ids[i]!), inArray(deals.stage, openKeys[i]!))));
      const where = ownedByAny(
        deals,
        members.map((i) => ids[i]!),
        open,
      );
      const [rows, total] = await Promise.all([
        context.db
          .select({ deal: deals, contactName: contacts.name })
          .from(deals)
          // The contact must be the deal's agent's own, as on their board.
          .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, deals.userId)))
          .where(where)
          .orderBy(sql`${deals.expectedCloseDate} is null`, asc(deals.expectedCloseDate), asc(deals.id))
          .limit(LIST_LIMIT),
        context.db.select({ n: count() }).from(deals).where(where).get(),
      ]);
      return { rows, n: total?.n ?? 0 };
    }),
  );
  // The same order as the statement's: soonest expected close first, no date last, then by id.
  const rows = parts
    .flatMap((p) => p.rows)
    .sort((a, b) => closeOrder(a.deal, b.deal))
    .slice(0, LIST_LIMIT);
  const total = { n: parts.reduce((sum, p) => sum + p.n, 0) };
  const cards = rows.map(({ deal, contactName }): TeamCard => {
    const agent = byAgent.get(deal.userId)!;
    return {
      ...toBoardCard(agent.commissions, { ...deal, contactName }),
      agentId: deal.userId,
      agentName: agent.name,
      currency: agent.currency,
      today: agent.commissions.today,
      stageName: agent.commissions.stages.find((s) => s.key === deal.stage)?.name ?? deal.stage,
    };
  });
  return { cards, total: total.n, stages: Object.fromEntries(ids.map((id, i) => [id, commissions[i]!.stages])) };
}

/** Consecutive groups of indexes whose costs add up to at most `budget` each (one item over it goes alone). */
function groupsWithin(costs: readonly number[], budget: number): number[][] {
  const groups: number[][] = [];
  let current: number[] = [];
  let used = 0;
  costs.forEach((cost, i) => {
    if (current.length > 0 && used + cost > budget) {
      groups.push(current);
      current = [];
      used = 0;
    }
    current.push(i);
    used += cost;
  });
  if (current.length > 0) groups.push(current);
  return groups;
}

function closeOrder(a: { expectedCloseDate: string | null; id: string }, b: { expectedCloseDate: string | null; id: string }): number {
  if (a.expectedCloseDate !== b.expectedCloseDate) {
    if (a.expectedCloseDate === null) return 1;
    if (b.expectedCloseDate === null) return -1;
    return a.expectedCloseDate < b.expectedCloseDate ? -1 : 1;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The open deals teammates share with the viewer, as list cards under their agent, with the viewer's share
 * and what it pays the viewer; and those agents' stages, for the move menus.
 */
export async function sharedTeamCards(
  context: RequestContext,
  viewerId: UserId,
): Promise<{ cards: TeamCard[]; stages: Record<string, DealStage[]> }> {
  const [commissions, prefs] = await Promise.all([loadCommissionContext(context, viewerId), getDisplayPreferences(context, viewerId)]);
  const open = commissions.shared.filter((d) => d.kind === "open");
  const owners = [...new Set(open.map((d) => d.ownerId))];
  const [stages, todays] = await Promise.all([
    Promise.all(owners.map(async (id) => [id, await getStages(context, id)] as const)).then((pairs) => Object.fromEntries(pairs)),
    Promise.all(owners.map(async (id) => [id, isoDateIn(new Date(), (await getDisplayPreferences(context, id)).timezone)] as const)).then(
      (pairs) => new Map(pairs),
    ),
  ]);
  const cards = open.map(
    (deal): TeamCard => ({
      id: deal.id,
      title: deal.title,
      contactId: null,
      contactName: null,
      stage: deal.stage,
      dealValueCents: deal.dealValueCents,
      expectedCloseDate: deal.expectedCloseDate,
      closedDate: null,
      probability: deal.probability,
      netCents: commissions.breakdownFor(deal).netCents,
      today: todays.get(deal.ownerId) ?? commissions.today,
      agentId: deal.ownerId,
      agentName: deal.ownerName,
      stageName: deal.stageName,
      currency: prefs.currency,
      sharePct: deal.coAgentPct,
    }),
  );
  return { cards, stages };
}

/**
 * A move on the team pipeline: of the agent named in the form, if the rule lets the viewer see them (404 otherwise),
 * and of a deal that is that agent's (404 otherwise); or, for a co-agent, of a deal that agent shares with them. A
 * teammate's move is recorded on the deal's timeline with their name.
 */
export async function moveTeamDeal(context: RequestContext, viewer: Viewer, form: FormData) {
  const agent = String(form.get("agent") ?? "");
  const shared = (await sharedWith(context, viewer.userId)).find((d) => d.id === String(form.get("id") ?? "") && d.ownerId === agent);
  const agentId = shared ? shared.ownerId : (await agentInView(context, viewer, agent)).agentId;
  const self = agentId === viewer.userId;
  // The team board's columns are the team's stages: a member whose pipeline lacks one is told, not half-moved.
  const stage = String(form.get("stage") ?? "");
  if (!(await getStages(context, agentId)).some((s) => s.key === stage)) {
    const name = (await listMembers(context, viewer.team!.teamId)).find((m) => m.userId === agentId)?.name ?? "The agent";
    const error = `${self ? "Your pipeline has" : `${name}'s pipeline has`} no such stage. Move it on ${self ? "your" : "their"} own board.`;
    return data<DealMoveResult>({ ok: false, intent: "move", error, fieldErrors: {} }, { status: 400 });
  }
  if (self) return moveDealFromForm(context, agentId, form);
  const teamId = viewer.team!.teamId;
  const by = (await listMembers(context, teamId)).find((m) => m.userId === viewer.userId)?.name ?? null;
  // Re-checked as the move is written: the co-agent still shares the deal, or the manager still runs the team the
  // deal's agent is still in.
  const requires = shared
    ? and(
        sql`exists (select 1 from ${dealShares} where ${and(eq(dealShares.dealId, shared.id), eq(dealShares.ownerId, agentId), eq(dealShares.agentId, viewer.userId))})`,
        isMemberSql(teamId, viewer.userId),
        isMemberSql(teamId, agentId),
      )!
    : and(isMemberSql(teamId, viewer.userId, MANAGER_ROLES), isMemberSql(teamId, agentId))!;
  return moveDealFromForm(context, agentId, form, by, requires);
}
