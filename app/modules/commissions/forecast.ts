import { allocateCap, capYearOf, nextCapYear, weighted, type CommissionBreakdown, type DealForCommission, type PlanCap } from "./commission";

// The commission forecast: weighted agent net of open deals by expected close month for the next
// 12 months, closed net for the year so far, and when the brokerage cap is (or is projected to be) reached.

export interface ForecastDeal extends Omit<DealForCommission, "date" | "probability"> {
  title: string;
  probability: number;
  /** Closed date for won deals, expected close date (or null) for open ones. */
  date: string | null;
}

interface ForecastMonth {
  /** "YYYY-MM" */
  month: string;
  deals: number;
  netCents: number;
  weightedNetCents: number;
}

export interface Forecast {
  months: ForecastMonth[];
  /** Open deals whose expected close date has passed, and those without one: not in any month. */
  overdue: { deals: number; weightedNetCents: number };
  undated: { deals: number; weightedNetCents: number };
  later: { deals: number; weightedNetCents: number };
  closedNetYtdCents: number;
  closedDealsYtd: number;
  cap: null | {
    capCents: number;
    yearStart: string;
    yearEnd: string;
    paidCents: number;
    /** The closing that completed the cap this cap year, if any. */
    reachedOn: string | null;
    /** At the weighted pace of open deals (split x probability), the expected close date that completes it. */
    projectedOn: string | null;
  };
  /** Each deal's breakdown as the forecast sees it (closed: actual; open: after the cap used before it). */
  breakdowns: Map<string, CommissionBreakdown>;
}

const byDateThenId = (a: { date: string; id: string }, b: { date: string; id: string }) =>
  a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1;

function addMonths(month: string, n: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
}

export function buildForecast(input: { today: string; plan: PlanCap; closedWon: ForecastDeal[]; open: ForecastDeal[] }): Forecast {
  const { today, plan } = input;
  const closed = input.closedWon
    .filter((d): d is ForecastDeal & { date: string } => d.date !== null)
    .map((d) => ({ ...d, probability: 100 }))
    .sort(byDateThenId);
  const closedAllocation = allocateCap(closed, plan);
  // Open deals count toward the cap after every closed deal, on their expected date (today if it passed).
  const open = input.open.map((d) => ({ ...d, sortDate: d.date && d.date > today ? d.date : today }));
  const openSorted = open.map((d) => ({ ...d, date: d.sortDate })).sort(byDateThenId);
  const openAllocation = allocateCap(openSorted, plan, closedAllocation.paid);

  const thisMonth = today.slice(0, 7);
  const months: ForecastMonth[] = Array.from({ length: 12 }, (_, i) => ({
    month: addMonths(thisMonth, i),
    deals: 0,
    netCents: 0,
    weightedNetCents: 0,
  }));
  const lastMonth = months[11]!.month;
  const overdue = { deals: 0, weightedNetCents: 0 };
  const undated = { deals: 0, weightedNetCents: 0 };
  const later = { deals: 0, weightedNetCents: 0 };
  for (const deal of open) {
    const b = openAllocation.breakdowns.get(deal.id)!;
    const w = weighted(b.netCents, deal.probability);
    const bucket = deal.date === null ? undated : deal.date < `${thisMonth}-01` ? overdue : deal.date.slice(0, 7) > lastMonth ? later : null;
    if (bucket) {
      bucket.deals += 1;
      bucket.weightedNetCents += w;
      continue;
    }
    const month = months.find((m) => m.month === deal.date!.slice(0, 7))!;
    month.deals += 1;
    month.netCents += b.netCents;
    month.weightedNetCents += w;
  }

  const yearStart = `${today.slice(0, 4)}-01-01`;
  const ytd = closed.filter((d) => d.date >= yearStart && d.date <= today);
  const closedNetYtdCents = ytd.reduce((sum, d) => sum + closedAllocation.breakdowns.get(d.id)!.netCents, 0);

  let cap: Forecast["cap"] = null;
  if (plan.brokerageCapCents !== null) {
    const capStart = capYearOf(today, plan.capYearStart);
    const capEnd = nextCapYear(capStart);
    const inYear = (date: string) => date >= capStart && date < capEnd;
    let paid = 0;
    let reachedOn: string | null = null;
    for (const d of closed.filter((d) => inYear(d.date))) {
      paid += closedAllocation.breakdowns.get(d.id)!.brokerageCents;
      if (reachedOn === null && paid >= plan.brokerageCapCents) reachedOn = d.date;
    }
    let projectedOn: string | null = null;
    if (reachedOn === null) {
      let pace = paid;
      for (const d of openSorted.filter((d) => inYear(d.date))) {
        pace += weighted(openAllocation.breakdowns.get(d.id)!.brokerageFullCents, d.probability);
        if (pace >= plan.brokerageCapCents) {
          projectedOn = d.date;
          break;
        }
      }
    }
    cap = {
      capCents: plan.brokerageCapCents,
      yearStart: capStart,
      yearEnd: capEnd,
      paidCents: Math.min(paid, plan.brokerageCapCents),
      reachedOn,
      projectedOn,
    };
  }

  const breakdowns = new Map<string, CommissionBreakdown>([...closedAllocation.breakdowns, ...openAllocation.breakdowns]);
  return { months, overdue, undated, later, closedNetYtdCents, closedDealsYtd: ytd.length, cap, breakdowns };
}
