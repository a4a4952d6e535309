import { useFetcher } from "@remix-run/react";
import type { ReactNode } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { toast } from "~/components/ui/Toaster";
import type { ActionResult } from "~/lib/action-result";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { centsToInput } from "~/modules/deals/deal.schema";
import { PLAN_LABELS, type CommissionPlan } from "../plan.schema";

/**
 * The commission plan's fields, in the order they apply: an agent's own plan (Forecast and commissions) and a team's
 * default plan (the Team page) are the same form, posted to `action` with `intent`.
 */
export function PlanForm({
  plan,
  id,
  title,
  description,
  action,
  intent,
  saved,
  children,
}: {
  plan: CommissionPlan;
  id: string;
  title: string;
  description: ReactNode;
  action?: string;
  intent?: string;
  saved: { title: string; description: string };
  children?: ReactNode;
}) {
  const save = useFetcher<ActionResult>();
  const errors = save.data && !save.data.ok ? save.data.fieldErrors : {};
  useFetcherResult(save, (result) => {
    if (result.ok) toast({ ...saved, variant: "success" });
    else toast({ title: "Please check the plan", description: Object.values(result.fieldErrors)[0] ?? result.error, variant: "destructive" });
  });
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{description}</p>
      <save.Form method="post" action={action} noValidate className="mt-3 grid grid-cols-2 gap-3">
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        <Field label={PLAN_LABELS.defaultRate} name="defaultRate" inputMode="decimal" defaultValue={plan.defaultRate} error={errors.defaultRate} />
        <Field
          label={PLAN_LABELS.referralFeePct}
          name="referralFeePct"
          inputMode="decimal"
          defaultValue={plan.referralFeePct}
          error={errors.referralFeePct}
        />
        <Field
          label={PLAN_LABELS.brokerageSplitPct}
          name="brokerageSplitPct"
          inputMode="decimal"
          defaultValue={plan.brokerageSplitPct}
          hint="The brokerage's share"
          error={errors.brokerageSplitPct}
        />
        <Field
          label={PLAN_LABELS.brokerageCapCents}
          name="brokerageCapCents"
          inputMode="decimal"
          defaultValue={centsToInput(plan.brokerageCapCents)}
          hint="Blank: no cap"
          error={errors.brokerageCapCents}
        />
        <Field
          label={PLAN_LABELS.capYearStart}
          name="capYearStart"
          defaultValue={plan.capYearStart}
          placeholder="01-01"
          error={errors.capYearStart}
        />
        <Field
          label={PLAN_LABELS.teamSplitPct}
          name="teamSplitPct"
          inputMode="decimal"
          defaultValue={plan.teamSplitPct}
          error={errors.teamSplitPct}
        />
        <Field
          label={PLAN_LABELS.transactionFeeCents}
          name="transactionFeeCents"
          inputMode="decimal"
          defaultValue={centsToInput(plan.transactionFeeCents)}
          error={errors.transactionFeeCents}
        />
        <Field
          label={PLAN_LABELS.eoFeeCents}
          name="eoFeeCents"
          inputMode="decimal"
          defaultValue={centsToInput(plan.eoFeeCents)}
          error={errors.eoFeeCents}
        />
        <Field
          label={PLAN_LABELS.franchiseFeePct}
          name="franchiseFeePct"
          inputMode="decimal"
          defaultValue={plan.franchiseFeePct}
          error={errors.franchiseFeePct}
        />
        <div className="col-span-2 flex justify-end">
          <Button type="submit" busy={save.state !== "idle"} busyLabel="Saving…">
            Save plan
          </Button>
        </div>
      </save.Form>
      {children}
    </section>
  );
}
