import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeleteSection } from "~/components/DeleteSection";
import type { TemplateKind } from "~/db/enums";
import { PageHeader } from "~/components/PageHeader";
import { readForm } from "~/lib/body.server";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { fieldErrors } from "~/lib/schema-fields";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getMembership } from "~/modules/team/team.server";
import { TemplateEditor } from "~/modules/templates/components/TemplateEditor";
import { TEMPLATE_MESSAGES, TemplateSchema } from "~/modules/templates/templates";
import { createTemplate, deleteTemplate, previewContacts, templateForUse, updateTemplate } from "~/modules/templates/templates.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.template?.name ?? "New template"} — Porchlight` }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const [template, team, contacts] = await Promise.all([
    id === "new" ? Promise.resolve(null) : templateForUse(context.db, user.id, id),
    getMembership(context, user.id),
    previewContacts(context, user.id),
  ]);
  if (id !== "new" && !template) throw new Response("Not Found", { status: 404 });
  const manages = team?.role === "owner" || team?.role === "admin";
  const kind: TemplateKind = new URL(request.url).searchParams.get("kind") === "text" ? "text" : "email";
  return { template, kind, contacts, teamName: team?.teamName ?? null, manages, editable: !template || template.scope === "mine" || manages };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const id = params.id ?? "";
  const form = await readForm(request);
  return dispatchIntent(form, {
    save: async () => {
      const parsed = TemplateSchema.safeParse(Object.fromEntries(form));
      if (!parsed.success) return refuse("save", fieldErrors(parsed.error));
      if (id === "new") {
        const created = await createTemplate(context, user.id, parsed.data, form.get("scope") === "team" ? "team" : "mine");
        if (!created) return refuse("save", { form: TEMPLATE_MESSAGES.teamOnly }, 403);
        return redirectWithToast(context, `/templates/${created}`, { title: TEMPLATE_MESSAGES.created, variant: "success" });
      }
      if (!(await updateTemplate(context, user.id, id, parsed.data))) return refuse("save", { form: TEMPLATE_MESSAGES.notFound }, 404);
      return redirectWithToast(context, `/templates/${id}`, { title: TEMPLATE_MESSAGES.saved, variant: "success" });
    },
    delete: async () => {
      const name = await deleteTemplate(context, user.id, id);
      if (!name) return refuse("delete", { form: TEMPLATE_MESSAGES.notFound }, 404);
      return redirectWithToast(context, "/templates", { title: TEMPLATE_MESSAGES.deleted(name), variant: "success" });
    },
  });
}

export default function TemplatePage() {
  const { template, kind, contacts, teamName, manages, editable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = result && !result.ok ? { ...result.fieldErrors, ...(result.error ? { form: result.error } : {}) } : {};
  const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
  return (
    <>
      <PageHeader
        title={template ? template.name : "New template"}
        description={
          template?.scope === "team" ? `Shared with ${teamName ?? "your team"}` : "Write it once; each contact's details fill the merge fields."
        }
      />
      <TemplateEditor
        key={template?.updatedAt ?? "new"}
        template={template}
        kind={kind}
        contacts={contacts}
        teamName={manages && !template ? teamName : null}
        editable={editable}
        errors={errors}
        className={card}
      />
      {template && editable ? (
        <DeleteSection
          id="delete-template"
          title="Delete template"
          question={`Delete “${template.name}”? ${template.scope === "team" ? "Your team will no longer see it; copies members made stay theirs." : "E-mails already sent with it stay on each contact's timeline."}`}
          className={`${card} mt-4`}
        />
      ) : null}
    </>
  );
}
