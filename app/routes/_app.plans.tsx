import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { ListChecks, ListPlus } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { PlanList } from "~/modules/plans/components/PlanList";
import { PLAN_MESSAGES, planStartLabel, stepDays } from "~/modules/plans/plan";
import { addStarterPlans, listPlans } from "~/modules/plans/plans.server";
import { getAgentProfile } from "~/modules/settings/agent-profile.server";

export const meta: MetaFunction = () => [{ title: "Action plans — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [plans, stages, agent] = await Promise.all([listPlans(context.db, user.id), getStages(context, user.id), getAgentProfile(context, user.id)]);
  const stageName = (key: string) => stages.find((s) => s.key === key)?.name ?? key;
  return {
    plans: plans.map((p) => ({
      id: p.id,
      name: p.name,
      steps: p.steps.length,
      days: stepDays(p.steps).at(-1) ?? 0,
      starts: planStartLabel(p, stageName),
    })),
    hasPostalAddress: Boolean(agent.postalAddress?.trim()),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    starters: async () => {
      const added = await addStarterPlans(context, user.id);
      return redirectWithToast(context, "/plans", { title: PLAN_MESSAGES.starters(added), variant: "success" });
    },
  });
}

const link = "font-medium text-brand-800 underline underline-offset-2 dark:text-brand-300";

export default function Plans() {
  const { plans, hasPostalAddress } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "starters";
  const starters = (
    <Form method="post">
      <input type="hidden" name="intent" value="starters" />
      <Button type="submit" variant="secondary" busy={adding}>
        Add starter plans
      </Button>
    </Form>
  );
  return (
    <>
      <PageHeader
        title="Action plans"
        description="Follow-up that runs on its own: e-mails sent for you, and calls, texts and e-mails to review put on your task list, each after a wait."
        actions={
          <Link to="/plans/new" className={buttonClass("primary")}>
            <ListPlus aria-hidden="true" className="h-5 w-5" /> New plan
          </Link>
        }
      />
      <p className="mb-4 text-sm text-stone-700 dark:text-stone-300">
        Plans send in your{" "}
        <Link to="/settings?tab=leads" className={link}>
          sending hours
        </Link>{" "}
        and stop when the contact replies, unsubscribes or their e-mail bounces.{" "}
        {hasPostalAddress ? (
          <>
            Their e-mails carry your postal address from{" "}
            <Link to="/settings#agent-profile" className={link}>
              Settings → Agent profile
            </Link>
            .
          </>
        ) : (
          <>
            Their e-mails carry your postal address, and you have none yet:{" "}
            <Link to="/settings#agent-profile" className={link}>
              add it in Settings → Agent profile
            </Link>
            , or e-mail steps become tasks for you to send.
          </>
        )}
      </p>
      {plans.length === 0 ? (
        <EmptyState icon={ListChecks} title="No action plans yet">
          <p>
            Start from ours (a new buyer lead, a new seller lead, a monthly nurture and after closing, with the templates they use) and make them
            yours, or build your own.
          </p>
          <div className="mt-4 flex justify-center">{starters}</div>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          <PlanList plans={plans} />
          <div>{starters}</div>
        </div>
      )}
    </>
  );
}
