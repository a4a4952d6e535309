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

const requiredMoney = (label: string) => optionalMoneyCents(label).transform((v) => v ?? 0);
const planPercent = (label: string) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? 0 : v), percent(label));

/** The commission plan form: blank percentages and fees are 0, a blank cap means no cap. */
export const PlanInputSchema = z.object({
  defaultRate: percent("Default commission rate"),
  referralFeePct: planPercent("Referral fee"),
  brokerageSplitPct: planPercent("Brokerage split"),
  brokerageCapCents: optionalMoneyCents("Annual cap"),
  capYearStart: z
    .string()
    .trim()
    .refine(isValidCapYearStart, "Enter the day your cap year starts as MM-DD, e.g. 01-01 or 04-15 (not 02-29)."),
  teamSplitPct: planPercent("Team split"),
  transactionFeeCents: requiredMoney("Transaction fee"),
  eoFeeCents: requiredMoney("E&O fee"),
  franchiseFeePct: planPercent("Franchise fee"),
});

/** A deal's terms: its own rate and overrides, the plan for everything it leaves blank. */
export function termsFor(
  plan: CommissionPlan,
  deal: { commissionRate: number } & Partial<Record<"referralFeePct" | "brokerageSplitPct" | "teamSplitPct" | "transactionFeeCents" | "eoFeeCents" | "franchiseFeePct", number | null>>,
): CommissionTerms {
  return {
    rate: deal.commissionRate,
    referralFeePct: deal.referralFeePct ?? plan.referralFeePct,
    brokerageSplitPct: deal.brokerageSplitPct ?? plan.brokerageSplitPct,
    teamSplitPct: deal.teamSplitPct ?? plan.teamSplitPct,
    transactionFeeCents: deal.transactionFeeCents ?? plan.transactionFeeCents,
    eoFeeCents: deal.eoFeeCents ?? plan.eoFeeCents,
    franchiseFeePct: deal.franchiseFeePct ?? plan.franchiseFeePct,
  };
}
