import { addMonths } from "~/lib/dates";
import type { DealStage } from "~/db/schema";
import { allocateCap, capYearOf, computeCommission, type CommissionBreakdown } from "~/modules/commissions/commission";
import { incomeDeals, incomeMonths, type IncomeMonth } from "~/modules/commissions/income";
import { termsFor, type CommissionPlan, type DealShareColumns } from "~/modules/commissions/plan.schema";

// Closed volume and agent net by month (income.ts, as Reports' Income counts them), and the agent net of upcoming
// closings. Pure: the rows come from the dashboard's one batch. Agent net cannot be summed in SQL: each deal may
// override the plan, each line is rounded to the cent, and the brokerage cap is used up deal by deal in closed-date
// order.

/** A deal's price and commission terms (the columns termsFor reads). */
export interface DealTermsRow extends DealShareColumns {
  id: string;
  stage: string;
  dealValueCents: number;
  commissionRate: number;
  referralFeePct: number | null;
  brokerageSplitPct: number | null;
  teamSplitPct: number | null;
  transactionFeeCents: number | null;
  eoFeeCents: number | null;
  franchiseFeePct: number | null;
}

export interface ClosedDealRow extends DealTermsRow {
  closedDate: string;
}

/** A chart month: the agent's own deals closed won and their volume, deals shared with them, GCI and agent net. */
export type PerformanceMonth = IncomeMonth;

/**
 * The first closed date the dashboard must read so that every cap year touching the charts is complete: a cap
 * year starts at most a year before the first chart month, whatever day the plan's cap year starts on.
 */
export function closedDealsFrom(firstChartMonth: string): string {
  return `${addMonths(firstChartMonth, -12)}-01`;
}

function wonStageKeys(stages: readonly DealStage[]): Set<string> {
  return new Set(stages.filter((s) => s.kind === "won").map((s) => s.key));
}

/**
 * Volume (from the SQL sums) and agent net (deal by deal, through the cap) of won deals per chart month, and
 * the cap left on any date, for pricing open deals as the pipeline does.
 */
export function closedPerformance(input: {
  months: readonly string[];
  stages: readonly DealStage[];
  plan: CommissionPlan;
  closed: readonly ClosedDealRow[];
  /** Deals shared with the agent: won ones add the agent's share to the net (volume stays their agent's). */
  shared?: readonly (DealTermsRow & { kind: DealStage["kind"]; closedDate: string | null; coAgentPct: number })[];
}) {
  const { months, plan } = input;
  const won = wonStageKeys(input.stages);
  // Each cap year read whole, so the brokerage split of every charted deal is what the pipeline shows for it.
  const firstCapYear = capYearOf(`${months[0]}-01`, plan.capYearStart);
  const sharedWon = (input.shared ?? []).filter((d): d is typeof d & { closedDate: string } => d.kind === "won" && d.closedDate !== null);
  const ordered = [...input.closed.filter((d) => won.has(d.stage)), ...sharedWon]
    .filter((d) => d.closedDate >= firstCapYear)
    .map((d) => ({ id: d.id, priceCents: d.dealValueCents, terms: termsFor(plan, d), date: d.closedDate, probability: 100 }))
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1));
  const { breakdowns, paid } = allocateCap(ordered, plan);
  const income = incomeDeals({ own: input.closed, shared: input.shared ?? [], wonStages: won, breakdowns });
  const capLeftOn = (date: string) =>
    plan.brokerageCapCents === null ? null : Math.max(0, plan.brokerageCapCents - (paid.get(capYearOf(date, plan.capYearStart)) ?? 0));
  return {
    months: incomeMonths(income, months),
    /** An open deal's agent net if it closes as planned (as loadCommissionContext prices it). */
    openBreakdown(deal: DealTermsRow & { expectedCloseDate: string | null }, today: string): CommissionBreakdown {
      return computeCommission(
        deal.dealValueCents,
        termsFor(plan, deal),
        capLeftOn(deal.expectedCloseDate && deal.expectedCloseDate > today ? deal.expectedCloseDate : today),
      );
    },
  };
}
