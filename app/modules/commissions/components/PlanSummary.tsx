import { formatCents, type DisplayPreferences } from "~/lib/format";
import { PLAN_LABELS, type CommissionPlan } from "../plan.schema";

/** Every term of a commission plan, read-only (a team's plan as its agents see it): the same names the form uses. */
export function PlanSummary({ plan, prefs }: { plan: CommissionPlan; prefs: Pick<DisplayPreferences, "currency"> }) {
  const pct = (n: number) => `${n}%`;
  const rows: [string, string][] = [
    [PLAN_LABELS.defaultRate, pct(plan.defaultRate)],
    [PLAN_LABELS.referralFeePct, pct(plan.referralFeePct)],
    [PLAN_LABELS.brokerageSplitPct, pct(plan.brokerageSplitPct)],
    [PLAN_LABELS.brokerageCapCents, plan.brokerageCapCents === null ? "No cap" : formatCents(plan.brokerageCapCents, prefs)],
    [PLAN_LABELS.capYearStart, plan.capYearStart],
    [PLAN_LABELS.teamSplitPct, pct(plan.teamSplitPct)],
    [PLAN_LABELS.transactionFeeCents, formatCents(plan.transactionFeeCents, prefs)],
    [PLAN_LABELS.eoFeeCents, formatCents(plan.eoFeeCents, prefs)],
    [PLAN_LABELS.franchiseFeePct, pct(plan.franchiseFeePct)],
  ];
  return (
    <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-sm">
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
          <dd className="text-right tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
