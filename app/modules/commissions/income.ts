import type { CommissionBreakdown } from "./commission";

// Closed income, one definition for the dashboard's "Closed volume" and "Agent net by month" charts and Reports' Income
// (its chart, table, CSV and summary): the deals closed won, each on its closed date, priced as the forecast prices
// them (allocateCap through the cap, commission.ts). A deal teammates share with the agent (ADR 0037) counts once, for
// its own agent, in deals and volume; the co-agent's share of it counts in their GCI and agent net, and as a shared
// deal. Whether there is anything to show is read from the same rows the figures are. Browser-safe.

export interface IncomeDeal {
  id: string;
  /** The closed date ("YYYY-MM-DD"; today for a won deal without one). */
  day: string;
  valueCents: number;
  /** A deal a teammate shares with the agent (not theirs): no deal or volume of theirs, their share of the money. */
  shared: boolean;
  breakdown: CommissionBreakdown;
}

export interface IncomeTotals {
  /** The agent's own deals closed won. */
  deals: number;
  /** Deals teammates share with the agent, closed won. */
  sharedDeals: number;
  volumeCents: number;
  /** Gross commission income: the agent's part of the side (all of it unless the deal is shared). */
  gciCents: number;
  netCents: number;
}

export interface IncomeMonth extends IncomeTotals {
  /** "YYYY-MM" */
  month: string;
}

/**
 * The won deals of the agent, their own and those shared with them, each with its breakdown (from the forecast or the
 * same cap allocation). A deal without a breakdown is left out: it is not priced, so it is not income.
 */
export function incomeDeals(input: {
  own: readonly { id: string; stage: string; dealValueCents: number; closedDate: string | null }[];
  shared: readonly { id: string; kind: "open" | "won" | "lost"; dealValueCents: number; closedDate: string | null }[];
  wonStages: ReadonlySet<string>;
  breakdowns: ReadonlyMap<string, CommissionBreakdown>;
  /** The day of a won deal without a closed date (as the forecast counts it); without it, such a deal is left out. */
  today?: string;
}): IncomeDeal[] {
  const deal = (d: { id: string; dealValueCents: number; closedDate: string | null }, shared: boolean): IncomeDeal[] => {
    const breakdown = input.breakdowns.get(d.id);
    const day = d.closedDate ?? input.today;
    return breakdown && day ? [{ id: d.id, day, valueCents: d.dealValueCents, shared, breakdown }] : [];
  };
  return [
    ...input.own.filter((d) => input.wonStages.has(d.stage)).flatMap((d) => deal(d, false)),
    ...input.shared.filter((d) => d.kind === "won").flatMap((d) => deal(d, true)),
  ];
}

/** The deals closed on the days from `from` to `to` (both included), added up. */
export function incomeTotals(deals: readonly IncomeDeal[], range: { from: string; to: string }): IncomeTotals {
  const totals: IncomeTotals = { deals: 0, sharedDeals: 0, volumeCents: 0, gciCents: 0, netCents: 0 };
  for (const d of deals) {
    if (d.day < range.from || d.day > range.to) continue;
    if (d.shared) totals.sharedDeals += 1;
    else {
      totals.deals += 1;
      totals.volumeCents += d.valueCents;
    }
    totals.gciCents += d.breakdown.grossCents - d.breakdown.othersCents;
    totals.netCents += d.breakdown.netCents;
  }
  return totals;
}

const lastDay = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);

/** Each month's totals (oldest first), cut to `within` where a month runs past it. */
export function incomeMonths(deals: readonly IncomeDeal[], months: readonly string[], within?: { from: string; to: string }): IncomeMonth[] {
  return months.map((month) => {
    const from = within && within.from > `${month}-01` ? within.from : `${month}-01`;
    const to = within && within.to < lastDay(month) ? within.to : lastDay(month);
    return { month, ...incomeTotals(deals, { from, to }) };
  });
}

/**
 * Whether rows have anything to chart: closed volume needs a deal of the agent's own; agent net (and Reports' Income)
 * a deal of theirs or one shared with them.
 */
export function hasIncome(rows: readonly IncomeTotals[], figure: "volume" | "net" = "net"): boolean {
  return rows.some((r) => r.deals > 0 || (figure === "net" && r.sharedDeals > 0));
}
