import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { parseMoneyToCents } from "~/lib/schema-fields";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { computeCommission, type CommissionTerms } from "~/modules/commissions/commission";
import { loadForecast } from "~/modules/commissions/commissions.server";
import { CommissionBreakdown } from "~/modules/commissions/components/CommissionBreakdown";
import type { CommissionPlan } from "~/modules/commissions/plan.schema";
import { getPlanWithSource, getTeamPlan, savePlan, dropOwnPlan } from "~/modules/commissions/plans.server";
import { PlanForm } from "~/modules/commissions/components/PlanForm";
import { teamOf } from "~/modules/team/guard.server";
import { redirectWithToast } from "~/lib/toast.server";
import { centsToInput } from "~/modules/deals/deal.schema";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { readForm } from "~/lib/body.server";

export const meta: MetaFunction = () => [{ title: "Forecast and commissions — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [forecast, prefs, { source }, team] = await Promise.all([
    loadForecast(context, user.id),
    getDisplayPreferences(context, user.id),
    getPlanWithSource(context, user.id),
    teamOf(context, user),
  ]);
  const { breakdowns: _perDeal, ...summary } = forecast;
  // On the Team plan: whose plan this is, and whether the team has one to go back to (ADR 0035).
  const teamPlan = team ? await getTeamPlan(context.db, team.teamId) : null;
  return { ...summary, prefs, planSource: source, team: team ? { name: team.teamName, hasPlan: teamPlan !== null } : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = Object.fromEntries(await readForm(request));
  if (form.intent === "use-team-plan") {
    await dropOwnPlan(context, user.id);
    return redirectWithToast(context, "/pipeline/commissions", {
      title: "You use the team's plan",
      description: "Every deal and the forecast are priced by it.",
      variant: "success",
    });
  }
  const result = await savePlan(context, user.id, form);
  return data(result, { status: result.ok ? 200 : 400 });
}

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const monthName = (month: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

export default function CommissionsPage() {
  const loaded = useLoaderData<typeof loader>();
  const { prefs, plan, cap } = loaded;
  const total12 = loaded.months.reduce((sum, m) => sum + m.weightedNetCents, 0);
  const peak = Math.max(1, ...loaded.months.map((m) => m.weightedNetCents));
  return (
    <>
      <Link to="/pipeline" className="mb-3 inline-flex min-h-11 items-center gap-2 font-medium underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-5 w-5" /> Back to pipeline
      </Link>
      <PageHeader title="Forecast and commissions" description="What your deals pay you after referral fees, splits, your cap and fees." />

      <section aria-labelledby="forecast" className="mb-6">
        <h2 id="forecast" className="sr-only">
          Forecast
        </h2>
        <div className="grid gap-3 sm:grid-cols-3">
          <div className={card}>
            <p className="text-sm text-stone-600 dark:text-stone-400">Closed net this year</p>
            <p className="text-2xl font-bold tabular-nums">{formatCents(loaded.closedNetYtdCents, prefs)}</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {loaded.closedDealsYtd} won {loaded.closedDealsYtd === 1 ? "deal" : "deals"} closed since Jan 1
            </p>
          </div>
          <div className={card}>
            <p className="text-sm text-stone-600 dark:text-stone-400">Weighted net, next 12 months</p>
            <p className="text-2xl font-bold tabular-nums">{formatCents(total12, prefs)}</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">Each open deal's net × its probability</p>
          </div>
          <div className={card}>
            <p className="text-sm text-stone-600 dark:text-stone-400">Brokerage cap</p>
            {cap ? (
              <>
                <p className="text-2xl font-bold tabular-nums">
                  {formatCentsWhole(cap.paidCents, prefs)} <span className="text-base font-normal">of {formatCentsWhole(cap.capCents, prefs)}</span>
                </p>
                <div
                  role="progressbar"
                  aria-label="Cap paid"
                  aria-valuemin={0}
                  aria-valuemax={cap.capCents}
                  aria-valuenow={cap.paidCents}
                  aria-valuetext={`${Math.round((cap.paidCents / cap.capCents) * 100)}%`}
                  className="mt-1 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
                >
                  <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.min(100, (cap.paidCents / cap.capCents) * 100)}%` }} />
                </div>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                  {cap.reachedOn
                    ? `Reached on ${formatDay(cap.reachedOn, prefs)}: no split until ${formatDay(cap.yearEnd, prefs)}.`
                    : cap.projectedOn
                      ? `Projected on ${formatDay(cap.projectedOn, prefs)} at your weighted pace.`
                      : `Not projected before the cap year ends on ${formatDay(cap.yearEnd, prefs)}.`}
                </p>
              </>
            ) : (
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No cap in your plan. Add one below if your brokerage has it.</p>
            )}
          </div>
        </div>

        <div className={`${card} mt-3`}>
          <h3 className="font-semibold">Weighted agent net by expected close month</h3>
          <table className="mt-2 w-full text-left text-sm">
            <caption className="sr-only">Weighted agent net of open deals by expected close month, next 12 months</caption>
            <thead className="text-stone-600 dark:text-stone-400">
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Month
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Deals
                </th>
                <th scope="col" className="w-2/5 py-1 font-medium">
                  <span className="sr-only">Share</span>
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Weighted net
                </th>
              </tr>
            </thead>
            <tbody>
              {loaded.months.map((m) => (
                <tr key={m.month} className="border-t border-stone-100 dark:border-stone-800">
                  <th scope="row" className="py-1.5 font-normal">
                    {monthName(m.month)}
                  </th>
                  <td className="py-1.5 text-right tabular-nums">{m.deals}</td>
                  <td className="py-1.5 pl-3" aria-hidden="true">
                    <div className="h-3 rounded bg-brand-500/80" style={{ width: `${(Math.max(0, m.weightedNetCents) / peak) * 100}%` }} />
                  </td>
                  <td className="py-1.5 text-right tabular-nums">{formatCents(m.weightedNetCents, prefs)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {[
            [loaded.overdue, "with an expected close date that has passed"],
            [loaded.undated, "without an expected close date"],
            [loaded.later, "expected to close after these 12 months"],
          ]
            .filter(([bucket]) => (bucket as { deals: number }).deals > 0)
            .map(([bucket, text]) => {
              const b = bucket as { deals: number; weightedNetCents: number };
              return (
                <p key={String(text)} className="mt-2 text-sm text-stone-700 dark:text-stone-300">
                  Not in the months above: {b.deals} open {b.deals === 1 ? "deal" : "deals"} {String(text)}, weighted net{" "}
                  {formatCents(b.weightedNetCents, prefs)}.{" "}
                  <Link to="/pipeline?view=list&sort=close" className="underline underline-offset-4">
                    Review close dates
                  </Link>
                </p>
              );
            })}
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-2">
        <Calculator key={JSON.stringify(plan)} plan={plan} prefs={prefs} capLeftCents={cap ? Math.max(0, cap.capCents - cap.paidCents) : null} />
        <PlanForm
          plan={plan}
          id="plan"
          title="Your commission plan"
          description={
            loaded.planSource === "team" && loaded.team
              ? `This is ${loaded.team.name}'s plan, set by the team's owner and admins. Saving it here makes it your own. A deal can override any of it in its dialog.`
              : "Applied in this order. A deal can override any of it in its dialog."
          }
          saved={{ title: "Commission plan saved", description: "Every deal and the forecast now use it." }}
        >
          {loaded.planSource === "own" && loaded.team?.hasPlan ? (
            <Form method="post" className="mt-3 border-t border-stone-200 pt-3 dark:border-stone-800">
              <input type="hidden" name="intent" value="use-team-plan" />
              <p className="text-sm text-stone-600 dark:text-stone-400">{`${loaded.team.name} has a team plan. Drop yours to be priced by it.`}</p>
              <Button type="submit" variant="secondary" className="mt-2">
                Use the team&apos;s plan
              </Button>
            </Form>
          ) : null}
        </PlanForm>
      </div>
    </>
  );
}

/** Live: every line recomputed as you type, with the same function the deals use. */
function Calculator({ plan, prefs, capLeftCents }: { plan: CommissionPlan; prefs: DisplayPreferences; capLeftCents: number | null }) {
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
