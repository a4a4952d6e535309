import type { SessionUser } from "~/modules/auth/session.server";
import { termsFor } from "~/modules/commissions/plan.schema";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";
import { coAgentsOf } from "~/modules/deals/shares.server";
import { getDeal, stageHistory } from "~/modules/deals/deals.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { timeline } from "~/modules/activities/activities.server";
import { localNow } from "~/modules/tasks/due";
import { tasksFor } from "~/modules/tasks/tasks.server";
import type { RequestContext } from "~/lib/context.server";

/** Everything the deal page shows, or null when the deal is not the user's (someone else's and a missing one look the same). */
export async function loadDealPage(context: RequestContext, user: SessionUser, id: string) {
  const deal = await getDeal(context, user.id, id);
  if (!deal) return null;
  const [commissions, prefs, history, tasks, activity, sharing] = await Promise.all([
    loadCommissionContext(context, user.id),
    getDisplayPreferences(context, user.id),
    stageHistory(context, user.id, deal.id),
    tasksFor(context, user.id, { dealId: deal.id }),
    timeline(context, user.id, { dealId: deal.id }),
    coAgentsOf(context, user, deal.id),
  ]);
  const shares = sharing.coAgents.map((c) => c.sharePct);
  const { userId: _owner, position: _position, ...shown } = deal;
  const capDate =
    deal.closedDate ?? (deal.expectedCloseDate && deal.expectedCloseDate > commissions.today ? deal.expectedCloseDate : commissions.today);
  return {
    deal: shown,
    stages: commissions.stages,
    defaultRate: commissions.plan.defaultRate,
    breakdown: commissions.breakdownFor(deal),
    terms: termsFor(commissions.plan, { ...deal, coShares: shares }),
    // Co-agents are teammates: the panel shows on a team plan, or while shares made then remain.
    sharing:
      sharing.onTeam || sharing.coAgents.length > 0 ? { coAgents: sharing.coAgents, candidates: sharing.onTeam ? sharing.candidates : [] } : null,
    capLeftCents: commissions.capLeftOn(capDate),
    history: history.map((h) => ({
      id: h.id,
      at: h.occurredAt.toISOString(),
      from: String(h.meta?.fromName ?? ""),
      to: String(h.meta?.toName ?? ""),
      reason: h.meta?.lostReason ? String(h.meta.lostReason) : null,
    })),
    prefs,
    now: localNow(prefs.timezone),
    tasks,
    activity,
  };
}

export type DealPage = NonNullable<Awaited<ReturnType<typeof loadDealPage>>>;
