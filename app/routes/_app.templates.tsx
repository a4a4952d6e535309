import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { FilePlus2, FileText } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { readForm } from "~/lib/body.server";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getMembership } from "~/modules/team/team.server";
import { TemplateList } from "~/modules/templates/components/TemplateList";
import { TEMPLATE_MESSAGES } from "~/modules/templates/templates";
import { addStarterTemplates, copyTeamTemplate, listTemplates } from "~/modules/templates/templates.server";

export const meta: MetaFunction = () => [{ title: "Templates — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const [templates, team] = await Promise.all([listTemplates(context, user.id), getMembership(context, user.id)]);
  return { templates, team: team ? { name: team.teamName, manages: team.role === "owner" || team.role === "admin" } : null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, {
    starters: async () => {
      const added = await addStarterTemplates(context, user.id);
      return redirectWithToast(context, "/templates", { title: TEMPLATE_MESSAGES.starters(added), variant: "success" });
    },
    copy: async () => {
      const copied = await copyTeamTemplate(context, user.id, String(form.get("id") ?? ""));
      if (!copied) return refuse("copy", { form: TEMPLATE_MESSAGES.notFound }, 404);
      return redirectWithToast(context, `/templates/${copied.id}`, { title: TEMPLATE_MESSAGES.copied(copied.name), variant: "success" });
    },
  });
}

export default function Templates() {
  const { templates, team } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const adding = navigation.state !== "idle" && navigation.formData?.get("intent") === "starters";
  const mine = templates.filter((t) => t.scope === "mine");
  const shared = templates.filter((t) => t.scope === "team");
  const starters = (
    <Form method="post">
      <input type="hidden" name="intent" value="starters" />
      <Button type="submit" variant="secondary" busy={adding}>
        Add starter templates
      </Button>
    </Form>
  );
  return (
    <>
      <PageHeader
        title="Templates"
        description="E-mails and texts you send again and again, with merge fields filled in for each contact."
        actions={
          <Link to="/templates/new" className={buttonClass("primary")}>
            <FilePlus2 aria-hidden="true" className="h-5 w-5" /> New template
          </Link>
        }
      />
      {templates.length === 0 ? (
        <EmptyState icon={FileText} title="No templates yet">
          <p>
            Start from ours (a new buyer lead, a new seller lead, after a showing, under contract, a closing anniversary and two texts) and make them
            yours, or write your own.
          </p>
          <div className="mt-4 flex justify-center">{starters}</div>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-6">
          <TemplateList heading="Your templates" templates={mine} empty="You have no templates of your own yet." />
          {team ? (
            <TemplateList
              heading={`${team.name}'s templates`}
              templates={shared}
              empty={
                team.manages
                  ? "Nothing shared with the team yet: choose “My team” when you write a template."
                  : "Your team has shared no templates yet."
              }
              copyable={!team.manages}
            />
          ) : null}
          <div>{starters}</div>
        </div>
      )}
    </>
  );
}
