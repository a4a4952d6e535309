// Commission math (decisions.md "Commissions"). Pure and exact: money in integer cents, rates in
// percent with at most three decimals, each line rounded half up to the cent. Order of deductions:
//   gross = price x rate
//   − co-agents' shares of the side (a shared deal: each co-agent's % of gross; the deal's agent keeps the
//     rest, so the shares add up to the gross to the cent). Everything below is then this agent's own: their share,
//     their plan, their cap.
//   − referral fee (% of gross)
//   − brokerage split (% of what is left, up to what remains of the annual cap)
//   − team split (% of what is left after the brokerage)
//   − transaction fee and E&O fee (flat) − franchise fee (% of gross)
//   = agent net
// The franchise fee is taken on gross (this agent's share of it), as the commission-splits article explains.

export interface CommissionTerms {
  /** Commission rate in percent (2.5 = 2.5 %). */
  rate: number;
  referralFeePct: number;
  brokerageSplitPct: number;
  teamSplitPct: number;
  transactionFeeCents: number;
  eoFeeCents: number;
  franchiseFeePct: number;
  /**
   * A shared deal. For a co-agent: their share of the side in percent. For the deal's own agent: the
   * co-agents' shares (they keep the rest). Neither: the whole side.
   */
  share?: { coAgentPct: number } | { othersPct: readonly number[] };
}

export interface CommissionBreakdown {
  priceCents: number;
  /** The whole side's commission: price x rate. */
  grossCents: number;
  /** This agent's share of the side in percent (100 unless the deal is shared). */
  sharePct: number;
  /** The part of the gross that is the co-agents' (or, for a co-agent, everyone else's). */
  othersCents: number;
  referralCents: number;
  /** What the brokerage split would be without a cap. */
  brokerageFullCents: number;
  brokerageCents: number;
  /** True when the cap held the brokerage split below its full amount. */
  capLimited: boolean;
  teamCents: number;
  transactionFeeCents: number;
  eoFeeCents: number;
  franchiseCents: number;
  netCents: number;
}

/** Percent as an integer count of thousandths of a percent (2.125 % → 2125). */
const milli = (pct: number) => BigInt(Math.round(pct * 1000));
/** amount x pct %, rounded half up to the cent (amount ≥ 0, pct ≥ 0). */
function percentOf(amountCents: number, pct: number): number {
  if (amountCents <= 0 || pct <= 0) return 0;
  const scaled = BigInt(amountCents) * milli(pct);
  const divisor = 100_000n;
  return Number((scaled * 2n + divisor) / (divisor * 2n));
}

/** This agent's part of a side's gross: a co-agent's % of it, or what is left after the co-agents' parts. */
function shareOf(grossCents: number, share: CommissionTerms["share"]): { mine: number; pct: number } {
  if (!share) return { mine: grossCents, pct: 100 };
  if ("coAgentPct" in share) return { mine: percentOf(grossCents, share.coAgentPct), pct: share.coAgentPct };
  const others = share.othersPct.reduce((sum, pct) => sum + percentOf(grossCents, pct), 0);
  const pct = Number(share.othersPct.reduce((left, p) => left - milli(p), 100_000n)) / 1000;
  return { mine: grossCents - others, pct };
}

/**
 * One deal's breakdown. `capRemainingCents` is what the agent still owes the brokerage toward the annual
 * cap in the deal's cap year: null when the plan has no cap.
 */
export function computeCommission(priceCents: number, terms: CommissionTerms, capRemainingCents: number | null = null): CommissionBreakdown {
  const grossCents = percentOf(priceCents, terms.rate);
  const { mine: myGross, pct: sharePct } = shareOf(grossCents, terms.share);
  const referralCents = percentOf(myGross, terms.referralFeePct);
  const afterReferral = myGross - referralCents;
  const brokerageFullCents = percentOf(afterReferral, terms.brokerageSplitPct);
  const brokerageCents = capRemainingCents === null ? brokerageFullCents : Math.min(brokerageFullCents, Math.max(0, capRemainingCents));
  const afterBrokerage = afterReferral - brokerageCents;
  const teamCents = percentOf(afterBrokerage, terms.teamSplitPct);
  const franchiseCents = percentOf(myGross, terms.franchiseFeePct);
  const netCents = afterBrokerage - teamCents - terms.transactionFeeCents - terms.eoFeeCents - franchiseCents;
  return {
    priceCents,
    grossCents,
    sharePct,
    othersCents: grossCents - myGross,
    referralCents,
    brokerageFullCents,
    brokerageCents,
    capLimited: brokerageCents < brokerageFullCents,
    teamCents,
    transactionFeeCents: terms.transactionFeeCents,
    eoFeeCents: terms.eoFeeCents,
    franchiseCents,
    netCents,
  };
}

/** value x probability %, rounded half up to the cent. */
export function weighted(cents: number, probability: number): number {
  if (cents === 0 || probability <= 0) return 0;
  const sign = cents < 0 ? -1 : 1;
  return sign * percentOf(Math.abs(cents), probability);
}

// ---- Cap years ---------------------------------------------------------------------------------------

/** "MM-DD" of a valid day in every year (no 29 February: it would vanish three years in four). */
const CAP_YEAR_START = /^(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
export function isValidCapYearStart(value: string): boolean {
  const match = CAP_YEAR_START.exec(value);
  return Boolean(match) && Number(match![2]) <= DAYS_IN_MONTH[Number(match![1]) - 1]!;
}

/** The first day ("YYYY-MM-DD") of the cap year holding `date`. */
export function capYearOf(date: string, capYearStart: string): string {
  const year = Number(date.slice(0, 4));
  const startThisYear = `${year}-${capYearStart}`;
  return date >= startThisYear ? startThisYear : `${year - 1}-${capYearStart}`;
}

/** The day after the cap year that starts on `start` ends. */
export function nextCapYear(start: string): string {
  return `${Number(start.slice(0, 4)) + 1}${start.slice(4)}`;
}

// ---- Many deals: the cap across a year ----------------------------------------------------------------

export interface PlanCap {
  brokerageCapCents: number | null;
  capYearStart: string;
}

export interface DealForCommission {
  id: string;
  priceCents: number;
  terms: CommissionTerms;
  /** The day it counts toward the cap: closed date for won deals, expected close for open ones. */
  date: string;
  /** 100 for closed deals; an open deal's probability for the forecast. */
  probability: number;
}

/**
 * Breakdowns for deals in the order given (callers sort: closed deals by closed date, then open deals by
 * expected close). Each takes what is left of its cap year's cap after the deals before it; an open deal
 * uses up its brokerage split weighted by probability (an expected value, for forecasts).
 */
export function allocateCap(items: readonly DealForCommission[], plan: PlanCap, paidBefore = new Map<string, number>()) {
  const paid = new Map(paidBefore);
  const result = new Map<string, CommissionBreakdown & { capYear: string }>();
  for (const item of items) {
    const capYear = capYearOf(item.date, plan.capYearStart);
    const remaining = plan.brokerageCapCents === null ? null : plan.brokerageCapCents - (paid.get(capYear) ?? 0);
    const breakdown = computeCommission(item.priceCents, item.terms, remaining);
    paid.set(capYear, (paid.get(capYear) ?? 0) + weighted(breakdown.brokerageCents, item.probability));
    result.set(item.id, { ...breakdown, capYear });
  }
  return { breakdowns: result, paid };
}
