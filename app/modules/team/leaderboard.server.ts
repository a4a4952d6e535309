import type { Currency, TeamRole } from "~/db/enums";
import type { RequestContext } from "~/lib/context.server";
import { isoDateIn, type DisplayPreferences } from "~/lib/format";
import { responseSummaryOf } from "~/modules/reports/definitions";
import { dayCount, parsePeriod, PERIOD_LABELS, type Period } from "~/modules/reports/periods";
import { instants } from "~/modules/reports/reports.server";
import { cell, countCell, empty, minutesCell, moneyCell, type ReportCell, type ReportTable } from "~/modules/reports/table";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { loadMemberFigures, type MemberFigures } from "./team-figures.server";
import { isSellerRole, listMembers } from "./team.server";
import type { Viewer } from "./visibility.server";

// The team leaderboard (ADR 0034): each member's closed volume, deals won, agent net, speed to lead and
// activities over a period, by the same definitions as Reports (team-figures.server.ts): a won deal counts on its
// closed date (today when it has none), priced by its own agent's plan and cap; speed to lead is the median time to the
// first answer of the new leads of the period, and activities the ones an agent logs. The period's days are the
// viewer's, so the whole board covers the same instants. The totals add amounts only in the viewer's currency (ADR 0077).

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

/**
 * The team's totals: counts of everyone; amounts of the members in the viewer's currency only (net: null unless the viewer
 * sees every member's); the median recomputed over every answered lead of the team, not a median of medians.
 */
type LeaderTotals = Pick<
  LeaderRow,
  "currency" | "closedVolumeCents" | "dealsWon" | "netCents" | "medianResponseMinutes" | "answered" | "activities"
> & {
  /** "Team total", saying whose amounts it leaves out. */
  label: string;
  /** Members whose amounts are in another currency and are left out of the amounts. */
  leftOut: number;
};

export interface Leaderboard {
  prefs: DisplayPreferences;
  period: Period & { label: string; days: number };
  rows: LeaderRow[];
  total: LeaderTotals;
  /** Whether the viewer sees every member's agent net (owners and admins). */
  seesAllNet: boolean;
}

/** Standings: closed volume, then deals won, then activities, then name. */
function rank(rows: LeaderRow[]): LeaderRow[] {
  return [...rows].sort(
    (a, b) => b.closedVolumeCents - a.closedVolumeCents || b.dealsWon - a.dealsWon || b.activities - a.activities || a.name.localeCompare(b.name),
  );
}

/** The members' response times, as the ascending lists they are (responseSummaryOf takes them as one). */
const timesOf = (figures: readonly MemberFigures[]) => figures.flatMap((f) => f.leads.map((l) => l.times));
const activitiesOf = (f: MemberFigures) => Object.values(f.activities).reduce((sum, n) => sum + (n ?? 0), 0);

/** Counts of every member and amounts of those in `currency` (the viewer's): the team rows' total, on the page and in the CSV. */
export function teamTotals(figures: readonly MemberFigures[], currency: Currency) {
  const same = figures.filter((f) => f.currency === currency);
  const summary = responseSummaryOf(timesOf(figures));
  const nets = same.map((f) => f.closed.netCents);
  return {
    currency,
    same,
    leftOut: figures.length - same.length,
    closedVolumeCents: same.reduce((sum, f) => sum + f.closed.closedVolumeCents, 0),
    netCents: nets.every((n) => n !== null) ? nets.reduce((sum: number, n) => sum + n!, 0) : null,
    dealsWon: figures.reduce((sum, f) => sum + f.closed.dealsWon, 0),
    summary,
    leads: figures.reduce((sum, f) => sum + f.leads.reduce((s, l) => s + l.n, 0), 0),
    activities: figures.reduce((sum, f) => sum + activitiesOf(f), 0),
  };
}

export async function loadLeaderboard(
  context: RequestContext,
  viewer: Viewer & { team: NonNullable<Viewer["team"]> },
  params: URLSearchParams,
  now = new Date(),
): Promise<Leaderboard> {
  const prefs = await getDisplayPreferences(context, viewer.userId);
  const period = parsePeriod(params, isoDateIn(now, prefs.timezone));
  // It ranks those who sell: an ISA has no deals or commissions to rank (ADR 0080); Team reports shows their leads.
  const members = (await listMembers(context, viewer.team.teamId)).filter((m) => isSellerRole(m.role));
  const figures = await loadMemberFigures(context, viewer, members, period, instants(period, prefs.timezone));

  const rows = figures.map((f): LeaderRow => {
    const summary = responseSummaryOf(timesOf([f]));
    return {
      userId: f.member.userId,
      name: f.member.name,
      role: f.member.role,
      me: f.member.userId === viewer.userId,
      currency: f.currency,
      ...f.closed,
      medianResponseMinutes: summary.p50Minutes,
      answered: summary.answered,
      activities: activitiesOf(f),
    };
  });
  const totals = teamTotals(figures, prefs.currency);
  const seesAllNet = rows.every((row) => row.netCents !== null);
  return {
    prefs,
    period: { ...period, label: PERIOD_LABELS[period.key], days: dayCount(period) },
    rows: rank(rows),
    total: {
      label: totalLabel(totals.leftOut, totals.currency).text,
      currency: totals.currency,
      closedVolumeCents: totals.closedVolumeCents,
      dealsWon: totals.dealsWon,
      netCents: seesAllNet ? totals.netCents : null,
      medianResponseMinutes: totals.summary.p50Minutes,
      answered: totals.summary.answered,
      activities: totals.activities,
      leftOut: totals.leftOut,
    },
    seesAllNet,
  };
}

/** "Team total", saying whose amounts it leaves out: the first cell of a team total row. */
export function totalLabel(leftOut: number, currency: Currency): ReportCell {
  const text =
    leftOut === 0
      ? "Team total"
      : `Team total (amounts in ${currency} only; ${leftOut} ${leftOut === 1 ? "member" : "members"} in another currency left out)`;
  return cell(text);
}

const PRIVATE = "Private";

/** The leaderboard as a table: the CSV download writes it, with the page's rows in the page's order and its totals. */
export function leaderboardTable(board: Leaderboard): ReportTable {
  const net = (cents: number | null, currency: Currency) => (cents === null ? cell(PRIVATE) : moneyCell(cents, { currency }));
  return {
    id: "leaderboard",
    caption: `Team standings, ${board.period.label}`,
    columns: [
      { label: "Rank", numeric: true },
      { label: "Agent" },
      { label: "Currency" },
      { label: "Closed volume", numeric: true },
      { label: "Deals won", numeric: true },
      { label: "Agent net", numeric: true },
      { label: "Speed to lead (median)", unit: "minutes", numeric: true },
      { label: "Leads answered", numeric: true },
      { label: "Activities", numeric: true },
    ],
    rows: board.rows.map((row, i) => ({
      key: row.userId,
      cells: [
        countCell(i + 1),
        cell(row.name),
        cell(row.currency),
        moneyCell(row.closedVolumeCents, row),
        countCell(row.dealsWon),
        net(row.netCents, row.currency),
        minutesCell(row.medianResponseMinutes),
        countCell(row.answered),
        countCell(row.activities),
      ],
    })),
    total: [
      empty(),
      cell(board.total.label),
      cell(board.total.currency),
      moneyCell(board.total.closedVolumeCents, board.total),
      countCell(board.total.dealsWon),
      net(board.total.netCents, board.total.currency),
      minutesCell(board.total.medianResponseMinutes),
      countCell(board.total.answered),
      countCell(board.total.activities),
    ],
  };
}
