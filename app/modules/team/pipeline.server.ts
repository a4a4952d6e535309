import { and, asc, count, eq, inArray, or, sql } from "drizzle-orm";
import type { Currency } from "~/db/enums";
import { contacts, deals, type DealStage } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";
import { LIST_LIMIT } from "~/modules/deals/deal.schema";
import { moveDealFromForm } from "~/modules/deals/deal-actions.server";
import type { BoardCard } from "~/modules/pipeline/board";
import { toBoardCard } from "~/modules/pipeline/board.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import type { MemberRow } from "./team.server";
import { agentInView, visibleMembers, type Viewer } from "./visibility.server";

// The team pipeline (issue 21, ADR 0034): one agent's board at a time, or a list of the open deals across the agents
// the viewer may see (owners and admins: everyone; agents: themselves). Each deal stays in its agent's own stages
// and is priced by its agent's own plan. Moves go through the agent's own moveDeal, named with who made them.

/** A deal of the list, with its agent, their name for its stage, and their currency (amounts are theirs). */
export type TeamCard = BoardCard & { agentId: string; agentName: string; stageName: string; currency: Currency };

/**
 * The open deals of `agents`, soonest expected close first (no date last), at most LIST_LIMIT, with the count, and each
 * agent's stages (for the move menus). `agents` must come from the visibility rule.
 */
export async function teamDealList(context: RequestContext, agents: readonly MemberRow[]): Promise<{ cards: TeamCard[]; total: number; stages: Record<string, DealStage[]> }> {
  if (agents.length === 0) return { cards: [], total: 0, stages: {} };
  const ids = agents.map((a) => a.userId as UserId);
  const [commissions, prefs] = await Promise.all([Promise.all(ids.map((id) => loadCommissionContext(context, id))), Promise.all(ids.map((id) => getDisplayPreferences(context, id)))]);
  const byAgent = new Map(ids.map((id, i) => [id as string, { commissions: commissions[i]!, name: agents[i]!.name, currency: prefs[i]!.currency }]));
  // Open is each agent's own open stages.
  const open = or(...ids.map((id, i) => and(eq(deals.userId, id), inArray(deals.stage, commissions[i]!.stages.filter((s) => s.kind === "open").map((s) => s.key)))));
  const where = ownedByAny(deals, ids, open);
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
  const cards = rows.map(({ deal, contactName }): TeamCard => {
    const agent = byAgent.get(deal.userId)!;
    return {
      ...toBoardCard(agent.commissions, { ...deal, contactName }),
      agentId: deal.userId,
      agentName: agent.name,
      currency: agent.currency,
      stageName: agent.commissions.stages.find((s) => s.key === deal.stage)?.name ?? deal.stage,
    };
  });
  return { cards, total: total?.n ?? 0, stages: Object.fromEntries(ids.map((id, i) => [id, commissions[i]!.stages])) };
}

/**
 * A move on the team pipeline: of the agent named in the form, if the rule lets the viewer see them (404 otherwise),
 * and of a deal that is that agent's (404 otherwise). A teammate's move is recorded on the deal's timeline with
 * their name.
 */
export async function moveTeamDeal(context: RequestContext, viewer: Viewer, form: FormData) {
  const scope = await agentInView(context, viewer, String(form.get("agent") ?? ""));
  const by = scope.self ? null : ((await visibleMembers(context, viewer)).find((m) => m.userId === viewer.userId)?.name ?? null);
  return moveDealFromForm(context, scope.agentId, form, by);
}
