import { addDays } from "~/lib/dates";
import { ACTIVITY_TYPES, CONTACT_SOURCES, type ActivityType, type ContactSource, type ContactStatus } from "~/db/enums";
import type { DealStage } from "~/db/schema";
import { formatCentsWhole, formatDate, formatDay, isoDateIn, type DisplayPreferences } from "~/lib/format";
import { ACTIVITY_TYPE_LABELS } from "~/modules/activities/activity.schema";
import type { Forecast } from "~/modules/commissions/forecast";
import type { CommissionPlan } from "~/modules/commissions/plan.schema";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import { hasIncome, incomeDeals, incomeMonths, incomeTotals } from "~/modules/commissions/income";
import { barPercents, columnChart, type ColumnChart } from "~/modules/dashboard/charts";

import { localNow } from "~/modules/tasks/due";
import { ascending, changePct, formatMinutes, percentOf, responseSummary, type Compared, type ResponseSummary } from "./definitions";
import { followUpTables, type FollowUpInput } from "./follow-up";
import { dayCount, monthEnd, monthsOf, PERIOD_LABELS, type DayRange, type Period } from "./periods";
import { cell, countCell, DASH, empty, minutesCell, moneyCell, pctCell, type ReportCell, type ReportTable } from "./table";

// The reports from the rows of the one batch (reports.server.ts): pure, so the Worker tests can hold every
// figure to hand-computed numbers. Server-only (d3-scale draws the charts here, as on the dashboard).

export interface ReportInputs {
  prefs: DisplayPreferences;
  /** Now (epoch ms) and the agent's today. */
  now: number;
  today: string;
  period: Period;
  /** The first day (a Monday) of each week touching the period. */
  weeks: string[];
  plan: CommissionPlan;
  stages: DealStage[];
  incomeGoalCents: number | null;
  forecast: Forecast;
  deals: {
    id: string;
    stage: string;
    valueCents: number;
    closedDate: string | null;
    contactId: string | null;
    source: ContactSource | null;
    contactAddedAt: number | null;
  }[];
  /** Deals teammates share with the agent: their share counts in GCI and agent net, not in deals or volume. */
  shared: { id: string; kind: "open" | "won" | "lost"; dealValueCents: number; closedDate: string | null }[];
  added: { source: ContactSource; current: boolean; n: number }[];
  reach: { source: ContactSource; stage: string; n: number }[];
  /** Leads that arrived in each period by source, with the response times (ms, ascending) of those answered (figures.server.ts). */
  leads: { source: ContactSource; current: boolean; n: number; times: number[] }[];
  /**
   * The same leads of the period by source and calendar month (`month`: the index in `months`, the last REPORT_MONTHS the
   * period touches of the `spanned`), and the lead e-mails of those months still to review.
   */
  leadMonths: {
    months: string[];
    spanned: number;
    leads: { source: ContactSource; month: number; n: number }[];
    toReview: { month: number; n: number }[];
  };
  /** The period's leads still waiting, oldest first (the first REPORT_LIST_SIZE). */
  waiting: { id: string; name: string; source: ContactSource; arrivedAt: number }[];
  stays: { stage: string; nextStage: string | null; current: boolean; n: number }[];
  stayDays: { stage: string; medianDays: number }[];
  lostReasons: { stage: string; reason: string; n: number }[];
  activities: { type: ActivityType; week: number; n: number }[];
  tasks: { current: boolean; n: number; completed: number; overdue: number }[];
  followUps: { count: number; contacts: { id: string; name: string; status: ContactStatus; lastActivity: number }[] };
  costs: { source: ContactSource | string; month: string; costCents: number }[];
  /** The period's e-mails sent by template and plan, and its plan runs (follow-up.server.ts). */
  followUp: FollowUpInput;
}

export interface SummaryFigure {
  key: string;
  label: string;
  value: string;
  /** Change against the comparison period, in percent (null: nothing to compare with). */
  changePct: number | null;
  /** The comparison period's figure, as text. */
  previous: string;
  /** Whether a rise is good news (agent net) or bad (minutes to answer a lead). */
  higherIsBetter: boolean;
  /** The report section it comes from. */
  section: string;
}

export interface BarRow {
  key: string;
  label: string;
  value: string;
  barPct: number;
}

export interface Reports {
  prefs: DisplayPreferences;
  today: string;
  period: Period & { label: string; days: number };
  summary: SummaryFigure[];
  income: {
    empty: boolean;
    chart: ColumnChart;
    table: ReportTable;
    goal: null | { goalCents: number; ytdNetCents: number; pct: number; paceCents: number; year: string };
    cap: null | {
      capCents: number;
      paidCents: number;
      remainingCents: number;
      yearStart: string;
      yearEnd: string;
      reachedOn: string | null;
      projectedOn: string | null;
    };
  };
  sources: {
    empty: boolean;
    bars: BarRow[];
    table: ReportTable;
    reach: ReportTable;
    hasCosts: boolean;
    /** New leads per source per month, with the lead e-mails still to review under its totals. */
    months: ReportTable;
    /** Whether any lead arrived in the months shown. */
    hasLeads: boolean;
    /** Lead e-mails of those months still to review. */
    toReview: number;
  };
  speed: {
    empty: boolean;
    /** New leads that arrived in the period. */
    leads: number;
    answered: number;
    median: string;
    p90: string;
    shares: { fast: number | null; hour: number | null; never: number | null };
    bars: BarRow[];
    table: ReportTable;
    waiting: ReportTable;
    waitingCount: number;
  };
  funnel: {
    empty: boolean;
    bars: BarRow[];
    table: ReportTable;
    lostReasons: ReportTable;
    won: Compared;
    lost: Compared;
    averageDealCents: number | null;
  };
  activity: { empty: boolean; chart: ColumnChart; table: ReportTable; tasks: ReportTable; followUps: ReportTable; followUpCount: number };
  followUp: ReturnType<typeof followUpTables>;
}

const monthName = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const monthLabel = (month: string) => monthName.format(new Date(`${month}-15T12:00:00Z`));
const shortMonth = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });
const inRange = (day: string | null, range: DayRange): day is string => day !== null && day >= range.from && day <= range.to;
/** A moment as the CSV holds it: the agent's own clock, "2026-06-05 10:00" (the column's header names the zone). */
const localStamp = (at: number | Date, timezone: string) => {
  const local = localNow(timezone, new Date(at));
  return `${local.date} ${local.time}`;
};
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** A month's cost counted for the share of its days inside the range (of one source, or every one: "*"). */
function costIn(costs: ReportInputs["costs"], source: string, range: DayRange): number | null {
  let total: number | null = null;
  for (const cost of costs) {
    if (source !== "*" && cost.source !== source) continue;
    const from = `${cost.month}-01` > range.from ? `${cost.month}-01` : range.from;
    const to = monthEnd(cost.month) < range.to ? monthEnd(cost.month) : range.to;
    if (from > to) continue;
    total = (total ?? 0) + Math.round((cost.costCents * dayCount({ from, to })) / dayCount({ from: `${cost.month}-01`, to: monthEnd(cost.month) }));
  }
  return total;
}

export function buildReports(input: ReportInputs): Reports {
  const { prefs, period, forecast, stages } = input;
  const kinds = new Map(stages.map((s) => [s.key, s.kind]));
  // The first cell of each table's comparison row. The page names its days once, under the period; a CSV
  // file stands alone, so its cell carries them.
  const previousDays = `${formatDay(period.previous.from, prefs)} – ${formatDay(period.previous.to, prefs)}`;
  const previousLabel = cell("Previous period", `Previous period, ${previousDays}`);
  const currency = prefs.currency;

  // ---- Income: won deals by closed month, priced by the forecast (actual breakdowns of closed deals) ----
  const won = input.deals
    .filter((d) => kinds.get(d.stage) === "won")
    .map((d) => ({
      ...d,
      day: d.closedDate ?? input.today,
      // The agent's day the deal's contact was added (only won deals need it: a date conversion each).
      contactAddedDay: d.contactAddedAt === null ? null : isoDateIn(new Date(d.contactAddedAt), prefs.timezone),
      breakdown: forecast.breakdowns.get(d.id)!,
    }))
    .filter((d) => d.breakdown);
  const wonIn = (range: DayRange) => won.filter((d) => inRange(d.day, range));
  // The income figures: the agent's own won deals and their share of those teammates share with them (income.ts, as
  // the dashboard's charts count them), priced by the forecast.
  const income = incomeDeals({
    own: input.deals.map((d) => ({ ...d, dealValueCents: d.valueCents })),
    shared: input.shared,
    wonStages: new Set(stages.filter((s) => s.kind === "won").map((s) => s.key)),
    breakdowns: forecast.breakdowns,
    today: input.today,
  });
  const current = incomeTotals(income, period);
  const previous = incomeTotals(income, period.previous);
  const months = incomeMonths(income, monthsOf(period), period);
  // A co-agent's shares get a column of their own, so a month with agent net and no deal of theirs says why.
  const withShared = income.some((d) => d.shared);
  const incomeCells = (first: ReportCell, t: ReturnType<typeof incomeTotals>) => [
    first,
    countCell(t.deals),
    ...(withShared ? [countCell(t.sharedDeals)] : []),
    moneyCell(t.volumeCents, prefs),
    moneyCell(t.gciCents, prefs),
    moneyCell(t.netCents, prefs),
  ];
  const incomeTable: ReportTable = {
    id: "income",
    caption: withShared
      ? "Closed won deals, deals shared with you, volume, GCI and agent net by month"
      : "Closed won deals, volume, GCI and agent net by month",
    columns: [
      { label: "Month" },
      { label: "Deals closed", numeric: true },
      ...(withShared ? [{ label: "Shared with you", numeric: true }] : []),
      { label: "Closed volume", unit: currency, numeric: true },
      { label: "GCI", unit: currency, numeric: true },
      { label: "Agent net", unit: currency, numeric: true },
    ],
    rows: months.map((m) => ({ key: m.month, cells: incomeCells(cell(monthLabel(m.month), m.month), m) })),
    total: incomeCells(cell("Total", "Total"), current),
    previous: incomeCells(previousLabel, previous),
  };
  const year = input.today.slice(0, 4);
  const yearDays = dayCount({ from: `${year}-01-01`, to: `${year}-12-31` });
  const goal =
    input.incomeGoalCents === null || input.incomeGoalCents <= 0
      ? null
      : {
          goalCents: input.incomeGoalCents,
          ytdNetCents: forecast.closedNetYtdCents,
          pct: Math.round((forecast.closedNetYtdCents / input.incomeGoalCents) * 100),
          paceCents: Math.round((input.incomeGoalCents * dayCount({ from: `${year}-01-01`, to: input.today })) / yearDays),
          year,
        };
  const cap = forecast.cap
    ? {
        capCents: forecast.cap.capCents,
        paidCents: forecast.cap.paidCents,
        remainingCents: Math.max(0, forecast.cap.capCents - forecast.cap.paidCents),
        yearStart: forecast.cap.yearStart,
        yearEnd: addDays(forecast.cap.yearEnd, -1),
        reachedOn: forecast.cap.reachedOn,
        projectedOn: forecast.cap.projectedOn,
      }
    : null;

  // ---- Lead sources -------------------------------------------------------------------------------------
  const addedOf = (source: ContactSource | "*", isCurrent: boolean) =>
    sum(input.added.filter((r) => r.current === isCurrent && (source === "*" || r.source === source)).map((r) => r.n));
  // A source's figures (or every source's, "*") over the period or the one it is compared with.
  const sourceFigures = (source: ContactSource | "*", isCurrent: boolean) => {
    const range = isCurrent ? period : period.previous;
    const closed = wonIn(range).filter((d) => source === "*" || d.source === source);
    const withContact = closed.filter((d) => d.source !== null && d.contactAddedDay !== null);
    const days = withContact.map((d) => Math.max(0, dayCount({ from: d.contactAddedDay!, to: d.day }) - 1));
    return {
      added: addedOf(source, isCurrent),
      // Contacts added in the range with a deal won (whenever it closed: conversion follows the contacts added).
      wonContacts: new Set(
        won
          .filter((d) => d.contactId && (source === "*" ? d.source !== null : d.source === source) && inRange(d.contactAddedDay, range))
          .map((d) => d.contactId),
      ).size,
      closed: closed.length,
      volume: sum(closed.map((d) => d.valueCents)),
      net: sum(closed.map((d) => d.breakdown.netCents)),
      avgDays: days.length === 0 ? null : Math.round(sum(days) / days.length),
      cost: costIn(input.costs, source, range),
    };
  };
  type SourceFigures = ReturnType<typeof sourceFigures>;
  const sourceCells = (first: ReportCell, r: SourceFigures) => [
    first,
    countCell(r.added),
    countCell(r.wonContacts),
    pctCell(percentOf(r.wonContacts, r.added)),
    countCell(r.closed),
    r.avgDays === null ? empty() : cell(`${r.avgDays} ${r.avgDays === 1 ? "day" : "days"}`, r.avgDays),
    moneyCell(r.volume, prefs),
    moneyCell(r.net, prefs),
    moneyCell(r.cost, prefs),
    moneyCell(r.cost === null || r.added === 0 ? null : Math.round(r.cost / r.added), prefs),
    moneyCell(r.cost === null || r.closed === 0 ? null : Math.round(r.cost / r.closed), prefs),
    r.cost === null || r.cost === 0 ? empty() : cell(`${(r.net / r.cost).toFixed(1)}×`, Math.round((r.net / r.cost) * 100) / 100),
  ];
  const sourceRows = CONTACT_SOURCES.map((source) => ({ source, ...sourceFigures(source, true) }));
  const noContact = wonIn(period).filter((d) => d.source === null);
  const sourcesTable: ReportTable = {
    id: "sources",
    caption: "Lead sources: contacts added, conversion, closed deals, agent net and cost",
    columns: [
      { label: "Source" },
      { label: "Contacts added", numeric: true },
      { label: "Won", numeric: true },
      { label: "Conversion", unit: "%", numeric: true },
      { label: "Deals closed", numeric: true },
      { label: "Days to close", numeric: true },
      { label: "Closed volume", unit: currency, numeric: true },
      { label: "Agent net", unit: currency, numeric: true },
      { label: "Cost", unit: currency, numeric: true },
      { label: "Cost per lead", unit: currency, numeric: true },
      { label: "Cost per closed deal", unit: currency, numeric: true },
      { label: "Return on spend", unit: "×", numeric: true },
    ],
    rows: [
      ...sourceRows
        .filter((r) => r.added > 0 || r.closed > 0 || r.cost !== null)
        .map((r) => ({ key: r.source, cells: sourceCells(cell(SOURCE_LABELS[r.source]), r) })),
      ...(noContact.length > 0
        ? [
            {
              key: "none",
              cells: [
                cell("No contact"),
                empty(),
                empty(),
                empty(),
                countCell(noContact.length),
                empty(),
                moneyCell(sum(noContact.map((d) => d.valueCents)), prefs),
                moneyCell(sum(noContact.map((d) => d.breakdown.netCents)), prefs),
                empty(),
                empty(),
                empty(),
                empty(),
              ],
            },
          ]
        : []),
    ],
    total: sourceCells(cell("All sources"), sourceFigures("*", true)),
    previous: sourceCells(previousLabel, sourceFigures("*", false)),
  };
  const reachStages = stages.filter((s) => s.kind !== "lost");
  const reachTable: ReportTable = {
    id: "stage-reach",
    caption: "Contacts added in the period that reached each stage, by source",
    columns: [{ label: "Source" }, { label: "Contacts added", numeric: true }, ...reachStages.map((s) => ({ label: s.name, numeric: true }))],
    rows: sourceRows
      .filter((r) => r.added > 0)
      .map((r) => ({
        key: r.source,
        cells: [
          cell(SOURCE_LABELS[r.source]),
          countCell(r.added),
          ...reachStages.map((s) => countCell(input.reach.find((x) => x.source === r.source && x.stage === s.key)?.n ?? 0)),
        ],
      })),
  };
  // New leads per source per month: the leads Speed to lead counts, by the calendar month they arrived in. The lead
  // e-mails still to review sit under the totals: they are not contacts (nor leads) until the agent confirms them.
  const { months: leadMonths, spanned } = input.leadMonths;
  const monthLeads = (source: ContactSource | "*", month: number | "*") =>
    sum(input.leadMonths.leads.filter((r) => (source === "*" || r.source === source) && (month === "*" || r.month === month)).map((r) => r.n));
  const reviewIn = (month: number | "*") => sum(input.leadMonths.toReview.filter((r) => month === "*" || r.month === month).map((r) => r.n));
  const monthCells = (first: ReportCell, count: (month: number | "*") => number) => [
    first,
    ...leadMonths.map((_, i) => countCell(count(i))),
    countCell(count("*")),
  ];
  const monthSources = CONTACT_SOURCES.filter((source) => monthLeads(source, "*") > 0);
  const monthsTable: ReportTable = {
    id: "leads-by-month",
    caption:
      spanned > leadMonths.length
        ? `New leads per source per month: the last ${leadMonths.length} of the period's ${spanned} months`
        : "New leads per source per month",
    columns: [{ label: "Source" }, ...leadMonths.map((month) => ({ label: monthLabel(month), numeric: true })), { label: "Total", numeric: true }],
    rows: monthSources.map((source) => ({ key: source, cells: monthCells(cell(SOURCE_LABELS[source]), (month) => monthLeads(source, month)) })),
    total: monthCells(cell("All sources"), (month) => monthLeads("*", month)),
    after: [{ key: "to-review", cells: monthCells(cell("To review (not yet a contact)"), reviewIn) }],
  };

  const netBars = sourceRows.filter((r) => r.net !== 0 || r.added > 0);
  const netPercents = barPercents(netBars.map((r) => Math.max(0, r.net)));

  // ---- Speed to lead: the new leads of the period (figures.server.ts), not every contact added ------------------
  const leadsOf = (group: ContactSource | "*", isCurrent: boolean) =>
    input.leads.filter((r) => r.current === isCurrent && (group === "*" || r.source === group));
  const leadCount = (group: ContactSource | "*", isCurrent: boolean) => sum(leadsOf(group, isCurrent).map((r) => r.n));
  // A source's (or every source's, "*") answered response times in a period, and what they add up to.
  const speedOf = (group: ContactSource | "*", isCurrent: boolean): ResponseSummary | null => {
    const rows = leadsOf(group, isCurrent).filter((r) => r.times.length > 0);
    if (rows.length === 0) return null;
    return responseSummary(rows.length === 1 ? rows[0]!.times : ascending(rows.flatMap((r) => r.times)));
  };
  const sharesOf = (source: ContactSource | "*", isCurrent = true) => {
    const leads = leadCount(source, isCurrent);
    const answered = speedOf(source, isCurrent);
    const never = leads - (answered?.answered ?? 0);
    return {
      leads,
      fast: percentOf(answered?.fast ?? 0, leads),
      hour: percentOf(answered?.hour ?? 0, leads),
      never: percentOf(never, leads),
      neverCount: never,
    };
  };
  const speedCells = (first: ReportCell, s: ResponseSummary | null, shares: ReturnType<typeof sharesOf>) => [
    first,
    countCell(shares.leads),
    countCell(s?.answered ?? 0),
    minutesCell(s?.p50Minutes ?? null),
    minutesCell(s?.p90Minutes ?? null),
    pctCell(shares.fast),
    pctCell(shares.hour),
    pctCell(shares.never),
  ];
  const overall = speedOf("*", true);
  const overallShares = sharesOf("*");
  const speedSources = CONTACT_SOURCES.filter((s) => leadCount(s, true) > 0);
  const speedTable: ReportTable = {
    id: "speed-to-lead",
    caption: "Speed to lead by source: minutes from a new lead arriving to the first answer",
    columns: [
      { label: "Source" },
      { label: "New leads", numeric: true },
      { label: "Answered", numeric: true },
      { label: "Median", unit: "minutes", numeric: true },
      { label: "90th percentile", unit: "minutes", numeric: true },
      { label: "Within 5 minutes", unit: "%", numeric: true },
      { label: "Within an hour", unit: "%", numeric: true },
      { label: "Not answered", unit: "%", numeric: true },
    ],
    rows: speedSources.map((source) => {
      const s = speedOf(source, true);
      const shares = sharesOf(source);
      return {
        key: source,
        cells: speedCells(cell(SOURCE_LABELS[source]), s, shares),
      };
    }),
    total: speedSources.length > 0 ? speedCells(cell("All sources"), overall, overallShares) : undefined,
    previous: speedSources.length > 0 ? speedCells(previousLabel, speedOf("*", false), sharesOf("*", false)) : undefined,
  };
  const speedMedians = speedSources.map((source) => speedOf(source, true)?.p50Minutes ?? 0);
  const speedPercents = barPercents(speedMedians);
  const waitingTable: ReportTable = {
    id: "waiting-leads",
    caption: "New leads of the period still waiting for a first answer, oldest first",
    // The CSV's "Arrived" is the agent's own clock ("2026-06-05 10:00"), its zone named in the header, as the page's date is.
    columns: [
      { label: "Contact" },
      { label: "Source" },
      { label: "Arrived", unit: prefs.timezone },
      { label: "Waiting", unit: "minutes", numeric: true },
    ],
    rows: input.waiting.map((c) => {
      const minutes = Math.max(0, input.now - c.arrivedAt) / 60_000;
      return {
        key: c.id,
        href: `/contacts/${c.id}`,
        cells: [
          cell(c.name),
          cell(SOURCE_LABELS[c.source]),
          cell(formatDate(c.arrivedAt, prefs), localStamp(c.arrivedAt, prefs.timezone)),
          minutesCell(minutes),
        ],
      };
    }),
  };

  // ---- Pipeline conversion ---------------------------------------------------------------------------------
  const staysOf = (stage: string, isCurrent: boolean) => input.stays.filter((r) => r.stage === stage && r.current === isCurrent);
  const funnelRows = stages.map((s) => {
    const rows = staysOf(s.key, true);
    const entered = sum(rows.map((r) => r.n));
    const lost = sum(rows.filter((r) => r.nextStage !== null && kinds.get(r.nextStage) === "lost").map((r) => r.n));
    const movedOn = sum(rows.filter((r) => r.nextStage !== null && kinds.get(r.nextStage) !== "lost").map((r) => r.n));
    const days = input.stayDays.find((d) => d.stage === s.key) ?? null;
    return { stage: s, entered, enteredBefore: sum(staysOf(s.key, false).map((r) => r.n)), movedOn, lost, medianDays: days ? days.medianDays : null };
  });
  const enteredKind = (kind: DealStage["kind"], isCurrent: boolean) =>
    sum(stages.filter((s) => s.kind === kind).flatMap((s) => staysOf(s.key, isCurrent).map((r) => r.n)));
  const funnelTable: ReportTable = {
    id: "pipeline-conversion",
    caption: "Deals that entered each stage in the period (and in the period before), moved on, were lost, and the median days they spent there",
    columns: [
      { label: "Stage" },
      { label: "Entered", numeric: true },
      { label: "Entered before", numeric: true },
      { label: "Moved on", numeric: true },
      { label: "Lost", numeric: true },
      { label: "Median days in stage", unit: "days", numeric: true },
    ],
    rows: funnelRows.map((r) => ({
      key: r.stage.key,
      cells: [
        cell(r.stage.name),
        countCell(r.entered),
        countCell(r.enteredBefore),
        r.stage.kind === "open" ? countCell(r.movedOn) : empty(),
        r.stage.kind === "open" ? countCell(r.lost) : empty(),
        r.medianDays === null ? empty() : cell(`${r.medianDays.toFixed(1)} days`, Math.round(r.medianDays * 10) / 10),
      ],
    })),
  };
  const lostTable: ReportTable = {
    id: "lost-reasons",
    caption: "Why deals were lost in the period",
    columns: [{ label: "Lost reason" }, { label: "Deals", numeric: true }],
    rows: input.lostReasons
      .filter((r) => kinds.get(r.stage) === "lost")
      .sort((a, b) => b.n - a.n || (a.reason < b.reason ? -1 : 1))
      .slice(0, 10)
      .map((r, i) => ({ key: `${i}`, cells: [cell(r.reason), countCell(r.n)] })),
  };
  const funnelPercents = barPercents(funnelRows.map((r) => r.entered));
  const wonNow = wonIn(period);

  // ---- Activity ------------------------------------------------------------------------------------------
  const weekTotals = input.weeks.map((_, i) => sum(input.activities.filter((a) => a.week === i).map((a) => a.n)));
  // Every type logged in either period (its previous figure sits in the comparison row).
  const activityTypes = ACTIVITY_TYPES.filter((t) => input.activities.some((a) => a.type === t));
  const activityTable: ReportTable = {
    id: "activity",
    caption: "Activities logged by week and type (weeks with none are left out)",
    columns: [
      { label: "Week of" },
      ...activityTypes.map((t) => ({ label: ACTIVITY_TYPE_LABELS[t], numeric: true })),
      { label: "Total", numeric: true },
    ],
    rows: input.weeks
      .map((day, i) => ({
        key: day,
        cells: [
          cell(formatDay(day, prefs), day),
          ...activityTypes.map((t) => countCell(input.activities.find((a) => a.type === t && a.week === i)?.n ?? 0)),
          countCell(weekTotals[i]!),
        ],
      }))
      .filter((_, i) => weekTotals[i]! > 0),
    total: [
      cell("Total", "Total"),
      ...activityTypes.map((t) => countCell(sum(input.activities.filter((a) => a.type === t && a.week >= 0).map((a) => a.n)))),
      countCell(sum(weekTotals)),
    ],
    previous: [
      previousLabel,
      ...activityTypes.map((t) => countCell(sum(input.activities.filter((a) => a.type === t && a.week === -1).map((a) => a.n)))),
      countCell(sum(input.activities.filter((a) => a.week === -1).map((a) => a.n))),
    ],
  };
  const taskOf = (isCurrent: boolean) => input.tasks.find((t) => t.current === isCurrent) ?? { n: 0, completed: 0, overdue: 0 };
  const tasksNow = taskOf(true);
  const tasksBefore = taskOf(false);
  const tasksTable: ReportTable = {
    id: "tasks",
    caption: "Tasks due in the period: completed, and still open after their due date",
    columns: [
      { label: "Period" },
      { label: "Due", numeric: true },
      { label: "Completed", numeric: true },
      { label: "Overdue", numeric: true },
      { label: "Completed share", unit: "%", numeric: true },
    ],
    rows: [
      {
        key: "current",
        cells: [
          cell(`${formatDay(period.from, prefs)} – ${formatDay(period.to, prefs)}`),
          countCell(tasksNow.n),
          countCell(tasksNow.completed),
          countCell(tasksNow.overdue),
          pctCell(percentOf(tasksNow.completed, tasksNow.n)),
        ],
      },
      {
        key: "previous",
        cells: [
          cell(previousDays),
          countCell(tasksBefore.n),
          countCell(tasksBefore.completed),
          countCell(tasksBefore.overdue),
          pctCell(percentOf(tasksBefore.completed, tasksBefore.n)),
        ],
      },
    ],
  };
  const followUpsTable: ReportTable = {
    id: "follow-up-gaps",
    caption: "Hot and warm contacts with no activity for 14 days or more, the longest quiet first",
    columns: [{ label: "Contact" }, { label: "Status" }, { label: "Last activity", unit: prefs.timezone }],
    rows: input.followUps.contacts.map((c) => ({
      key: c.id,
      href: `/contacts/${c.id}`,
      cells: [
        cell(c.name),
        cell(c.status === "hot" ? "Hot" : "Warm"),
        cell(formatDate(c.lastActivity, prefs), localStamp(c.lastActivity, prefs.timezone)),
      ],
    })),
  };
  // A week's bar is named only when it is the first of a month (by its Monday), and at least three bars after
  // the last name: 53 dates do not fit under a chart, and two names a bar apart run into each other.
  const weekLabels: string[] = [];
  let lastLabelled = -Infinity;
  input.weeks.forEach((day, i) => {
    const newMonth = i === 0 || day.slice(0, 7) !== input.weeks[i - 1]!.slice(0, 7);
    const nextMonthAt = input.weeks.findIndex((d, j) => j > i && d.slice(0, 7) !== day.slice(0, 7));
    // The first bar keeps its name only when its month has room before the next one is named.
    const room = i === 0 ? nextMonthAt === -1 || nextMonthAt >= 3 : i - lastLabelled >= 3;
    if (newMonth && room) {
      weekLabels.push(shortMonth.format(new Date(`${day}T12:00:00Z`)));
      lastLabelled = i;
    } else weekLabels.push("");
  });
  const activitiesNow = sum(weekTotals);
  const activitiesBefore = sum(input.activities.filter((a) => a.week === -1).map((a) => a.n));

  // ---- Summary: the period's headline figures against the comparison period ----------------------------------
  const money = (cents: number) => formatCentsWhole(cents, prefs);
  const figure = (
    key: string,
    label: string,
    section: string,
    value: number | null,
    before: number | null,
    show: (n: number) => string,
    higherIsBetter = true,
  ): SummaryFigure => ({
    key,
    label,
    section,
    value: value === null ? DASH : show(value),
    previous: before === null ? DASH : show(before),
    changePct: changePct({ value, previous: before }),
    higherIsBetter,
  });
  const overallBefore = speedOf("*", false);
  const summary: SummaryFigure[] = [
    figure("net", "Agent net", "income", current.netCents, previous.netCents, money),
    figure("volume", "Closed volume", "income", current.volumeCents, previous.volumeCents, money),
    figure("added", "Contacts added", "sources", addedOf("*", true), addedOf("*", false), (n) => n.toLocaleString("en-US")),
    figure("speed", "Median speed to lead", "speed", overall?.p50Minutes ?? null, overallBefore?.p50Minutes ?? null, formatMinutes, false),
    figure("won", "Deals won", "funnel", enteredKind("won", true), enteredKind("won", false), (n) => n.toLocaleString("en-US")),
    figure("activities", "Activities logged", "activity", activitiesNow, activitiesBefore, (n) => n.toLocaleString("en-US")),
  ];

  return {
    prefs,
    today: input.today,
    period: { ...period, label: PERIOD_LABELS[period.key], days: dayCount(period) },
    summary,
    income: {
      empty: !hasIncome(months),
      chart: columnChart(
        months.map((m) => ({ key: m.month, label: shortMonth.format(new Date(`${m.month}-15T12:00:00Z`)), value: m.netCents / 100 })),
      ),
      table: incomeTable,
      goal,
      cap,
    },
    sources: {
      empty: addedOf("*", true) === 0 && wonNow.length === 0 && monthSources.length === 0 && reviewIn("*") === 0,
      bars: netBars.map((r, i) => ({ key: r.source, label: SOURCE_LABELS[r.source], value: money(r.net), barPct: netPercents[i]! })),
      table: sourcesTable,
      reach: reachTable,
      hasCosts: sourceRows.some((r) => r.cost !== null),
      months: monthsTable,
      hasLeads: monthSources.length > 0,
      toReview: reviewIn("*"),
    },
    speed: {
      empty: overallShares.leads === 0,
      leads: overallShares.leads,
      answered: overall?.answered ?? 0,
      median: overall?.p50Minutes == null ? DASH : formatMinutes(overall.p50Minutes),
      p90: overall?.p90Minutes == null ? DASH : formatMinutes(overall.p90Minutes),
      shares: { fast: overallShares.fast, hour: overallShares.hour, never: overallShares.never },
      bars: speedSources.map((source, i) => ({
        key: source,
        label: SOURCE_LABELS[source],
        value: speedOf(source, true) ? formatMinutes(speedMedians[i]!) : "Not answered yet",
        barPct: speedPercents[i]!,
      })),
      table: speedTable,
      waiting: waitingTable,
      waitingCount: overallShares.neverCount,
    },
    funnel: {
      empty: funnelRows.every((r) => r.entered === 0),
      bars: funnelRows.map((r, i) => ({
        key: r.stage.key,
        label: r.stage.name,
        value: r.entered.toLocaleString("en-US"),
        barPct: funnelPercents[i]!,
      })),
      table: funnelTable,
      lostReasons: lostTable,
      won: { value: enteredKind("won", true), previous: enteredKind("won", false) },
      lost: { value: enteredKind("lost", true), previous: enteredKind("lost", false) },
      averageDealCents: wonNow.length === 0 ? null : Math.round(sum(wonNow.map((d) => d.valueCents)) / wonNow.length),
    },
    activity: {
      empty: activitiesNow === 0 && tasksNow.n === 0 && input.followUps.count === 0,
      chart: columnChart(
        input.weeks.map((day, i) => ({ key: day, label: weekLabels[i]!, value: weekTotals[i]! })),
        { counts: true },
      ),
      table: activityTable,
      tasks: tasksTable,
      followUps: followUpsTable,
      followUpCount: input.followUps.count,
    },
    followUp: followUpTables(input.followUp),
  };
}

/** Every table of the reports by its id, for the CSV download. */
export function reportTables(reports: Reports): ReportTable[] {
  return [
    reports.income.table,
    reports.sources.table,
    reports.sources.reach,
    reports.sources.months,
    reports.speed.table,
    reports.speed.waiting,
    reports.funnel.table,
    reports.funnel.lostReasons,
    reports.activity.table,
    reports.activity.tasks,
    reports.activity.followUps,
    reports.followUp.templates,
    reports.followUp.plans,
  ];
}

/**
 * The reports as a teammate sees them (an owner or admin viewing an agent): the same figures, with no row linking to
 * the agent's contacts, whose pages stay the agent's own (ADR 0034).
 */
export function withoutLinks(reports: Reports): Reports {
  for (const table of reportTables(reports)) table.rows = table.rows.map(({ href: _href, ...row }) => row);
  return reports;
}
