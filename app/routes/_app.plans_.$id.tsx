import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeleteSection } from "~/components/DeleteSection";
import { PageHeader } from "~/components/PageHeader";
import { formWideError } from "~/lib/action-result";
import { readForm } from "~/lib/body.server";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { PlanEditor } from "~/modules/plans/components/PlanEditor";
import { PLAN_MESSAGES, planErrors, planFromForm, PlanSchema } from "~/modules/plans/plan";
import { deletePlan, getPlan, savePlan } from "~/modules/plans/plans.server";
import { listTemplates } from "~/modules/templates/templates.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.plan?.name ?? "New plan"} — Porchlight` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const [plan, templates, stages] = await Promise.all([
    id === "new" ? Promise.resolve(null) : getPlan(context.db, user.id, id),
    listTemplates(context, user.id),
    getStages(context, user.id),
  ]);
  // Someone else's plan and a plan that does not exist look the same.
  if (id !== "new" && !plan) throw new Response("Not Found", { status: 404 });
  return {
    plan: plan
      ? {
          id: plan.id,
          name: plan.name,
          steps: plan.steps,
          startSource: plan.startSource,
          startStage: plan.startStage,
          stopStages: plan.stopStages,
          updatedAt: plan.updatedAt,
        }
      : null,
    templates: templates.map((t) => ({ id: t.id, kind: t.kind, name: t.name })),
    stages: stages.map((s) => ({ key: s.key, name: s.name })),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const form = await readForm(request);
  return dispatchIntent(form, {
    save: async () => {
      const parsed = PlanSchema.safeParse(planFromForm(form));
      if (!parsed.success) return refuse("save", planErrors(parsed.error));
      const saved = await savePlan(context, user.id, parsed.data, id === "new" ? undefined : id);
      if (!saved.ok) return refuse("save", { form: saved.error }, saved.error === PLAN_MESSAGES.notFound ? 404 : 400);
      return redirectWithToast(context, `/plans/${saved.id}`, {
        title: id === "new" ? PLAN_MESSAGES.created : PLAN_MESSAGES.saved,
        variant: "success",
      });
    },
    delete: async () => {
      const name = await deletePlan(context, user.id, id);
      if (!name) return refuse("delete", { form: PLAN_MESSAGES.notFound }, 404);
      return redirectWithToast(context, "/plans", { title: PLAN_MESSAGES.deleted(name), variant: "success" });
    },
  });
}

export default function PlanPage() {
  const { plan, templates, stages } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const formError = formWideError(result);
  const errors = result && !result.ok ? { ...result.fieldErrors, ...(formError ? { form: formError } : {}) } : {};
  const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
  return (
    <>
      <PageHeader
        title={plan ? plan.name : "New plan"}
        description="Steps in order, each after a wait in days. E-mails go out on their own; calls, texts and e-mails to review become your tasks."
      />
      <PlanEditor key={String(plan?.updatedAt ?? "new")} plan={plan} templates={templates} stages={stages} errors={errors} className={card} />
      {plan ? (
        <DeleteSection
          id="delete-plan"
          title="Delete plan"
          question={`Delete “${plan.name}”? Contacts on it stop where they are; what it already sent and the tasks it made stay.`}
          className={`${card} mt-4`}
        />
      ) : null}
    </>
  );
}
