import { CONTACT_SOURCES, type ContactSource, type Currency } from "~/db/enums";
import type { RequestContext } from "~/lib/context.server";
import { isoDateIn, type DisplayPreferences } from "~/lib/format";
import { ACTIVITY_TYPE_LABELS } from "~/modules/activities/activity.schema";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { percentOf, responseSummaryOf } from "~/modules/reports/definitions";
import { LOGGED_TYPES } from "~/modules/reports/figures";
import { dayCount, parsePeriod, PERIOD_LABELS, type Period } from "~/modules/reports/periods";
import { instants } from "~/modules/reports/reports.server";
import { cell, countCell, minutesCell, moneyCell, pctCell, type ReportCell, type ReportTable } from "~/modules/reports/table";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { requireTeamManager } from "./guard.server";
import { teamTotals, totalLabel } from "./leaderboard.server";
import { loadMemberFigures, type MemberFigures } from "./team-figures.server";
import { visibleMembers, type Viewer } from "./visibility.server";

// Team reports (ADR 0077): per agent and per lead source over a period, for the team's owner and admins. Every figure is
// a per-agent definition of the agent's Reports (team-figures.server.ts reads them for all members at once); the page's
// tables and the CSV files are the same ReportTable objects. Amounts are added only over the members in the viewer's
// currency, and the total row says how many it leaves out.

export interface TeamReports {
  prefs: DisplayPreferences;
  period: Period & { label: string; days: number };
  teamName: string;
  agents: ReportTable;
  sources: ReportTable;
  /** Members whose amounts are in another currency than the viewer's (left out of the amounts' totals). */
  leftOut: { name: string; currency: Currency }[];
}

/**
 * Speed to lead over leads and their answer times (lists of ms, each ascending, taken as one): the median and the share
 * of every lead answered within 5 minutes.
 */
function speedCells(leads: number, times: readonly (readonly number[])[]): ReportCell[] {
  const s = responseSummaryOf(times);
  return [countCell(leads), countCell(s.answered), minutesCell(s.p50Minutes), pctCell(percentOf(s.fast, leads))];
}

function agentsTable(figures: readonly MemberFigures[], currency: Currency, label: string): ReportTable {
  const types = LOGGED_TYPES.filter((t) => figures.some((f) => (f.activities[t] ?? 0) > 0));
  const totals = teamTotals(figures, currency);
  const activityCells = (counts: (t: (typeof types)[number]) => number, total: number) => [
    ...types.map((t) => countCell(counts(t))),
    countCell(total),
  ];
  const winRate = (won: number, lost: number) => pctCell(percentOf(won, won + lost));
  const net = (cents: number | null, c: Currency) => (cents === null ? cell("Private") : moneyCell(cents, { currency: c }));
  const sumOf = (pick: (f: MemberFigures) => number) => figures.reduce((sum, f) => sum + pick(f), 0);
  const won = sumOf((f) => f.enteredWon);
  const lost = sumOf((f) => f.enteredLost);
  return {
    id: "agents",
    caption: `Per agent, ${label}: leads, speed to lead, activities, conversion, closed volume and agent net`,
    columns: [
      { label: "Agent" },
      { label: "Currency" },
      { label: "Leads", numeric: true },
      { label: "Answered", numeric: true },
      { label: "Speed to lead (median)", unit: "minutes", numeric: true },
      { label: "Within 5 minutes", unit: "%", numeric: true },
      ...types.map((t) => ({ label: ACTIVITY_TYPE_LABELS[t], numeric: true })),
      { label: "Activities", numeric: true },
      { label: "Entered won", numeric: true },
      { label: "Entered lost", numeric: true },
      { label: "Win rate", unit: "%", numeric: true },
      { label: "Deals closed", numeric: true },
      { label: "Closed volume", numeric: true },
      { label: "Agent net", numeric: true },
    ],
    rows: [...figures]
      .sort((a, b) => a.member.name.localeCompare(b.member.name))
      .map((f) => ({
        key: f.member.userId,
        cells: [
          cell(f.member.name),
          cell(f.currency),
          ...speedCells(
            f.leads.reduce((sum, l) => sum + l.n, 0),
            f.leads.map((l) => l.times),
          ),
          ...activityCells(
            (t) => f.activities[t] ?? 0,
            Object.values(f.activities).reduce((sum, n) => sum + (n ?? 0), 0),
          ),
          countCell(f.enteredWon),
          countCell(f.enteredLost),
          winRate(f.enteredWon, f.enteredLost),
          countCell(f.closed.dealsWon),
          moneyCell(f.closed.closedVolumeCents, f),
          net(f.closed.netCents, f.currency),
        ],
      })),
    total: [
      totalLabel(totals.leftOut, currency),
      cell(currency),
      ...speedCells(
        totals.leads,
        figures.flatMap((f) => f.leads.map((l) => l.times)),
      ),
      ...activityCells((t) => sumOf((f) => f.activities[t] ?? 0), totals.activities),
      countCell(won),
      countCell(lost),
      winRate(won, lost),
      countCell(totals.dealsWon),
      moneyCell(totals.closedVolumeCents, { currency }),
      totals.netCents === null ? cell("Private") : moneyCell(totals.netCents, { currency }),
    ],
  };
}

function sourcesTable(figures: readonly MemberFigures[], currency: Currency, label: string): ReportTable {
  const same = figures.filter((f) => f.currency === currency);
  const leftOut = figures.length - same.length;
  const of = (source: ContactSource | "*") => {
    const leads = figures.flatMap((f) => f.leads.filter((l) => source === "*" || l.source === source));
    const wins = (list: readonly MemberFigures[]) => list.flatMap((f) => f.leadWins.filter((w) => source === "*" || w.source === source));
    return {
      leads: leads.reduce((sum, l) => sum + l.n, 0),
      times: leads.map((l) => l.times),
      won: wins(figures).reduce((sum, w) => sum + w.n, 0),
      volumeCents: wins(same).reduce((sum, w) => sum + w.valueCents, 0),
    };
  };
  const cells = (first: ReportCell, r: ReturnType<typeof of>) => [
    first,
    ...speedCells(r.leads, r.times),
    countCell(r.won),
    moneyCell(r.volumeCents, { currency }),
  ];
  const rows = CONTACT_SOURCES.map((source) => ({ source, ...of(source) })).filter((r) => r.leads > 0);
  return {
    id: "sources",
    caption: `Per lead source, ${label}: leads, speed to lead, and the deals won from those leads`,
    columns: [
      { label: "Source" },
      { label: "Leads", numeric: true },
      { label: "Answered", numeric: true },
      { label: "Speed to lead (median)", unit: "minutes", numeric: true },
      { label: "Within 5 minutes", unit: "%", numeric: true },
      { label: "Deals won", numeric: true },
      { label: "Their volume", unit: currency, numeric: true },
    ],
    rows: rows.map((r) => ({ key: r.source, cells: cells(cell(SOURCE_LABELS[r.source]), r) })),
    total: rows.length > 0 ? cells(totalLabel(leftOut, currency), of("*")) : undefined,
  };
}

/** Team reports for `viewer` (an owner or admin: the caller checks) over the period `params` ask for, in the viewer's days. */
export async function loadTeamReports(
  context: RequestContext,
  viewer: Viewer & { team: NonNullable<Viewer["team"]> },
  params: URLSearchParams,
  now = new Date(),
): Promise<TeamReports> {
  const prefs = await getDisplayPreferences(context, viewer.userId);
  const period = parsePeriod(params, isoDateIn(now, prefs.timezone));
  const members = await visibleMembers(context, viewer);
  const figures = await loadMemberFigures(context, viewer, members, period, instants(period, prefs.timezone));
  const label = PERIOD_LABELS[period.key];
  return {
    prefs,
    period: { ...period, label, days: dayCount(period) },
    teamName: viewer.team.teamName,
    agents: agentsTable(figures, prefs.currency, label),
    sources: sourcesTable(figures, prefs.currency, label),
    leftOut: figures.filter((f) => f.currency !== prefs.currency).map((f) => ({ name: f.member.name, currency: f.currency })),
  };
}

/** /team/reports and its CSV files: for the team's owner and admins; 404 to agents and to anyone outside a team. */
export async function teamReportsFor(request: Request, context: RequestContext, now?: Date): Promise<TeamReports> {
  const { user, team } = await requireTeamManager(request, context);
  return loadTeamReports(context, { userId: user.id, team }, new URL(request.url).searchParams, now);
}

/** A table of Team reports by its id, for the CSV download. */
export const teamReportTable = (reports: TeamReports, id: string | undefined): ReportTable | undefined =>
  [reports.agents, reports.sources].find((t) => t.id === id);
