import type { ActionResult } from "~/lib/action-result";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/lib/tenancy.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { teamOf } from "~/modules/team/guard.server";
import { sellsOnTeam } from "~/modules/team/team.server";
import { loadForecast } from "./commissions.server";
import { getPlanWithSource, getTeamPlan, savePlan } from "./plans.server";

/**
 * What Forecast and commissions shows: the forecast without its per-deal breakdowns, the plan and, on the Team plan,
 * whose plan it is and whether the team has one to go back to (ADR 0035).
 */
export async function loadForecastPage(context: RequestContext, user: SessionUser) {
  const [forecast, prefs, { source }, team] = await Promise.all([
    loadForecast(context, user.id),
    getDisplayPreferences(context, user.id),
    getPlanWithSource(context, user.id),
    teamOf(context, user),
  ]);
  const { breakdowns: _perDeal, ...summary } = forecast;
  // An ISA is not priced by the team's plan and does not read it (ADR 0080).
  const teamPlan = sellsOnTeam(team) ? await getTeamPlan(context.db, team.teamId) : null;
  return { ...summary, prefs, planSource: source, team: team ? { name: team.teamName, hasPlan: teamPlan !== null } : null };
}

/** The forecast as the page shows it. */
export type ForecastPage = Awaited<ReturnType<typeof loadForecastPage>>;

/** Saves the agent's own plan from the page's form: done, or refused with each field's message (nothing saved). */
export async function saveOwnPlan(context: RequestContext, userId: UserId, form: FormData): Promise<ActionResult> {
  const result = await savePlan(context, userId, Object.fromEntries(form));
  if (result.ok) return { ok: true, intent: "commission-plan", message: "Commission plan saved" };
  return { ok: false, intent: "commission-plan", error: "Please check the plan.", fieldErrors: result.fieldErrors };
}
