import * as z from "zod";
import { optionalMoneyCents, percent } from "~/lib/schema-fields";
import { isValidCapYearStart, type CommissionTerms, type PlanCap } from "./commission";

export interface CommissionPlan extends Omit<CommissionTerms, "rate">, PlanCap {
  defaultRate: number;
}

export const DEFAULT_PLAN: CommissionPlan = {
  defaultRate: 3,
  referralFeePct: 0,
  brokerageSplitPct: 0,
  brokerageCapCents: null,
  capYearStart: "01-01",
  teamSplitPct: 0,
  transactionFeeCents: 0,
  eoFeeCents: 0,
  franchiseFeePct: 0,
};

/** Each term's name, as the plan form labels it and the read-only plan lists it. */
export const PLAN_LABELS = {
  defaultRate: "Default commission rate (%)",
  referralFeePct: "Referral fee (%)",
  brokerageSplitPct: "Brokerage split (%)",
  brokerageCapCents: "Annual cap",
  capYearStart: "Cap year starts (MM-DD)",
  teamSplitPct: "Team split (%)",
  transactionFeeCents: "Transaction fee",
  eoFeeCents: "E&O fee",
  franchiseFeePct: "Franchise fee (% of gross)",
} as const satisfies Record<Exclude<keyof CommissionPlan, "share">, string>;

const requiredMoney = (label: string) => optionalMoneyCents(label).transform((v) => v ?? 0);
const planPercent = (label: string) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? 0 : v), percent(label));

/** The commission plan form: blank percentages and fees are 0, a blank cap means no cap. */
export const PlanInputSchema = z.object({
  defaultRate: percent("Default commission rate"),
  referralFeePct: planPercent("Referral fee"),
  brokerageSplitPct: planPercent("Brokerage split"),
  brokerageCapCents: optionalMoneyCents("Annual cap"),
  capYearStart: z.string().trim().refine(isValidCapYearStart, "Enter the day your cap year starts as MM-DD, e.g. 01-01 or 04-15 (not 02-29)."),
  teamSplitPct: planPercent("Team split"),
  transactionFeeCents: requiredMoney("Transaction fee"),
  eoFeeCents: requiredMoney("E&O fee"),
  franchiseFeePct: planPercent("Franchise fee"),
});

/** A deal's share of the side: a co-agent's percent, or the co-agents' percents as SQL lists them ("40,10"). */
export interface DealShareColumns {
  coAgentPct?: number | null;
  coShares?: string | readonly number[] | null;
}

function shareFor(deal: DealShareColumns): CommissionTerms["share"] {
  if (deal.coAgentPct != null) return { coAgentPct: deal.coAgentPct };
  if (deal.coShares == null || deal.coShares.length === 0) return undefined;
  return { othersPct: typeof deal.coShares === "string" ? deal.coShares.split(",").map(Number) : deal.coShares };
}

/**
 * A deal's terms: its own rate and overrides, the plan for everything it leaves blank, and the agent's share of the
 * side when it is shared. A co-agent's row carries only the deal's rate and referral fee: the rest is their own plan.
 */
export function termsFor(
  plan: CommissionPlan,
  deal: { commissionRate: number } & Partial<
    Record<"referralFeePct" | "brokerageSplitPct" | "teamSplitPct" | "transactionFeeCents" | "eoFeeCents" | "franchiseFeePct", number | null>
  > &
    DealShareColumns,
): CommissionTerms {
  const share = shareFor(deal);
  return {
    ...(share ? { share } : {}),
    rate: deal.commissionRate,
    referralFeePct: deal.referralFeePct ?? plan.referralFeePct,
    brokerageSplitPct: deal.brokerageSplitPct ?? plan.brokerageSplitPct,
    teamSplitPct: deal.teamSplitPct ?? plan.teamSplitPct,
    transactionFeeCents: deal.transactionFeeCents ?? plan.transactionFeeCents,
    eoFeeCents: deal.eoFeeCents ?? plan.eoFeeCents,
    franchiseFeePct: deal.franchiseFeePct ?? plan.franchiseFeePct,
  };
}
