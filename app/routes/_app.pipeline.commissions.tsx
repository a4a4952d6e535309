import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { CommissionCalculator } from "~/modules/commissions/components/CommissionCalculator";
import { ForecastSummary } from "~/modules/commissions/components/ForecastSummary";
import { PlanForm } from "~/modules/commissions/components/PlanForm";
import { loadForecastPage, saveOwnPlan } from "~/modules/commissions/forecast-page.server";
import { dropOwnPlan } from "~/modules/commissions/plans.server";

export const meta: MetaFunction = () => [{ title: "Forecast and commissions — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return loadForecastPage(context, user);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    "commission-plan": async () => {
      const result = await saveOwnPlan(context, user.id, form);
      return data(result, { status: result.ok ? 200 : 400 });
    },
    "use-team-plan": async () => {
      await dropOwnPlan(context, user.id);
      return redirectWithToast(context, "/pipeline/commissions", {
        title: "You use the team's plan",
        description: "Every deal and the forecast are priced by it.",
        variant: "success",
      });
    },
  });
}

export default function CommissionsPage() {
  const loaded = useLoaderData<typeof loader>();
  const { prefs, plan, cap } = loaded;
  return (
    <>
      <Link to="/pipeline" className="mb-3 inline-flex min-h-11 items-center gap-2 font-medium underline-offset-4 hover:underline">
        <ArrowLeft aria-hidden="true" className="h-5 w-5" /> Back to pipeline
      </Link>
      <PageHeader title="Forecast and commissions" description="What your deals pay you after referral fees, splits, your cap and fees." />
      <ForecastSummary forecast={loaded} />

      <div className="grid gap-6 lg:grid-cols-2">
        <CommissionCalculator
          key={JSON.stringify(plan)}
          plan={plan}
          prefs={prefs}
          capLeftCents={cap ? Math.max(0, cap.capCents - cap.paidCents) : null}
        />
        <PlanForm
          plan={plan}
          id="plan"
          intent="commission-plan"
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
