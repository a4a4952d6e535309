import type { Currency, TeamRole } from "~/db/enums";
import type { RequestContext } from "~/lib/context.server";
import { isoDateIn, type DisplayPreferences } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext } from "~/modules/commissions/commissions.server";
import { responseSummary } from "~/modules/reports/definitions";
import { dayCount, parsePeriod, PERIOD_LABELS, type Period } from "~/modules/reports/periods";
import { leadsArrived, leadTotals, loggedActivities } from "~/modules/reports/figures.server";
import { instants } from "~/modules/reports/reports.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { listMembers } from "./team.server";
import { seesNetOf, type Viewer } from "./visibility.server";

// The team leaderboard (ADR 0034): each member's closed volume, deals won, agent net, speed to lead and
// activities over a period, by the same definitions as Reports: a won deal counts on its closed date (today when it
// has none), priced by its own agent's plan and cap (commissions.server.ts); speed to lead is the median time to the
// first answer of the new leads of the period, and activities the ones an agent logs (figures.server.ts). The period's days are the viewer's, so the whole board covers the same instants.

export interface LeaderRow {
  userId: string;
  name: string;
  role: TeamRole;
  me: boolean;
  /** The agent's own currency: their amounts are shown in it. */
  currency: Currency;
  closedVolumeCents: number;
  dealsWon: number;
  /** Null where the viewer may not see it (visibility.server.ts seesNetOf). */
  netCents: number | null;
  /** Median minutes to a first answer of the leads added in the period (null: none answered). */
  medianResponseMinutes: number | null;
  answered: number;
  activities: number;
}

export interface Leaderboard {
  prefs: DisplayPreferences;
  period: Period & { label: string; days: number };
  rows: LeaderRow[];
  /** Whether the viewer sees every member's agent net (owners and admins). */
  seesAllNet: boolean;
}

/** Standings: closed volume, then deals won, then activities, then name. */
function rank(rows: LeaderRow[]): LeaderRow[] {
  return [...rows].sort(
    (a, b) => b.closedVolumeCents - a.closedVolumeCents || b.dealsWon - a.dealsWon || b.activities - a.activities || a.name.localeCompare(b.name),
  );
}

export async function loadLeaderboard(
  context: RequestContext,
  viewer: Viewer & { team: NonNullable<Viewer["team"]> },
  params: URLSearchParams,
  now = new Date(),
): Promise<Leaderboard> {
  const prefs = await getDisplayPreferences(context, viewer.userId);
  const period = parsePeriod(params, isoDateIn(now, prefs.timezone));
  const { lo, hi } = instants(period, prefs.timezone);
  const members = await listMembers(context, viewer.team.teamId);

  const rows = await Promise.all(
    members.map(async (member): Promise<LeaderRow> => {
      const agentId = member.userId as UserId;
      const [commissions, agentPrefs, [leads, [logged]]] = await Promise.all([
        loadCommissionContext(context, agentId),
        getDisplayPreferences(context, agentId),
        context.db.batch([leadsArrived(context.db, agentId, [{ lo, hi }]), loggedActivities(context.db, agentId, { lo, hi })]),
      ]);
      const won = commissions.wonDeals.filter((deal) => {
        const day = deal.closedDate ?? commissions.today;
        return day >= period.from && day <= period.to;
      });
      const summary = responseSummary(leadTotals(leads).times);
      return {
        userId: member.userId,
        name: member.name,
        role: member.role,
        me: member.userId === viewer.userId,
        currency: agentPrefs.currency,
        // Volume and deals won count a deal once, for its own agent; a co-agent's share counts in their net.
        closedVolumeCents: won.reduce((sum, deal) => sum + (deal.coAgentPct == null ? deal.dealValueCents : 0), 0),
        dealsWon: won.filter((deal) => deal.coAgentPct == null).length,
        netCents: seesNetOf(viewer, member.userId) ? won.reduce((sum, deal) => sum + commissions.breakdownFor(deal).netCents, 0) : null,
        medianResponseMinutes: summary.p50Minutes,
        answered: summary.answered,
        activities: logged?.n ?? 0,
      };
    }),
  );
  return {
    prefs,
    period: { ...period, label: PERIOD_LABELS[period.key], days: dayCount(period) },
    rows: rank(rows),
    seesAllNet: rows.every((row) => row.netCents !== null),
  };
}
