import { useState } from "react";
import { Field } from "~/components/ui/Field";
import type { DisplayPreferences } from "~/lib/format";
import { parseMoneyToCents } from "~/lib/schema-fields";
import { centsToInput } from "~/modules/deals/deal.schema";
import { computeCommission, type CommissionTerms } from "../commission";
import type { CommissionPlan } from "../plan.schema";
import { CommissionBreakdown } from "./CommissionBreakdown";

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

/** Live: every line recomputed as you type, with the same function the deals use. */
export function CommissionCalculator({
  plan,
  prefs,
  capLeftCents,
}: {
  plan: CommissionPlan;
  prefs: DisplayPreferences;
  capLeftCents: number | null;
}) {
  const [values, setValues] = useState({
    price: "500000",
    rate: String(plan.defaultRate),
    referral: String(plan.referralFeePct),
    split: String(plan.brokerageSplitPct),
    capLeft: capLeftCents === null ? "" : centsToInput(capLeftCents),
    team: String(plan.teamSplitPct),
    transaction: centsToInput(plan.transactionFeeCents),
    eo: centsToInput(plan.eoFeeCents),
    franchise: String(plan.franchiseFeePct),
  });
  const num = (v: string) => {
    const n = Number(v.trim() || "0");
    return Number.isFinite(n) && n >= 0 && n <= 100 ? n : null;
  };
  const cents = (v: string) => (v.trim() === "" ? 0 : parseMoneyToCents(v));
  const terms: Partial<CommissionTerms> = {
    rate: num(values.rate) ?? undefined,
    referralFeePct: num(values.referral) ?? undefined,
    brokerageSplitPct: num(values.split) ?? undefined,
    teamSplitPct: num(values.team) ?? undefined,
    franchiseFeePct: num(values.franchise) ?? undefined,
    transactionFeeCents: cents(values.transaction) ?? undefined,
    eoFeeCents: cents(values.eo) ?? undefined,
  };
  const price = cents(values.price);
  const capLeft = values.capLeft.trim() === "" ? null : parseMoneyToCents(values.capLeft);
  const complete = price !== null && Object.values(terms).every((v) => v !== undefined) && (values.capLeft.trim() === "" || capLeft !== null);
  const field = (key: keyof typeof values, label: string, hint?: string) => (
    <Field
      label={label}
      name={key}
      inputMode="decimal"
      value={values[key]}
      hint={hint}
      onChange={(event) => setValues((v) => ({ ...v, [key]: event.target.value }))}
    />
  );
  return (
    <section aria-labelledby="calculator" className={card}>
      <h2 id="calculator" className="text-lg font-semibold">
        Commission calculator
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Filled in from your plan. Change anything to try a deal.</p>
      <div className="mt-3 grid grid-cols-2 gap-3">
        {field("price", "Sale price")}
        {field("rate", "Commission rate (%)")}
        {field("referral", "Referral fee (%)")}
        {field("split", "Brokerage split (%)")}
        {field("capLeft", "Cap left to pay", "Blank: no cap")}
        {field("team", "Team split (%)")}
        {field("transaction", "Transaction fee")}
        {field("eo", "E&O fee")}
        {field("franchise", "Franchise fee (%)")}
      </div>
      <div className="mt-4" aria-live="polite">
        {complete ? (
          <CommissionBreakdown
            breakdown={computeCommission(price!, terms as CommissionTerms, capLeft)}
            terms={terms as CommissionTerms}
            prefs={prefs}
            capLeftCents={capLeft}
            caption="Calculator breakdown"
          />
        ) : (
          <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            Enter amounts like 650000 or 650,000.50 and percentages from 0 to 100.
          </p>
        )}
      </div>
    </section>
  );
}
