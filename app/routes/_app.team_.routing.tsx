import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireTeamMember } from "~/modules/team/guard.server";
import { deleteRule, loadRouting, moveRule, saveRoutingSettings, saveRule, type RoutingResult } from "~/modules/team/routing-settings.server";
import { canManage } from "~/modules/team/team.server";
import { RoutingRules } from "~/modules/team/components/RoutingRules";
import { RoutingSettings } from "~/modules/team/components/RoutingSettings";

export const meta: MetaFunction = () => [{ title: "Lead routing — Porchlight" }];

// Lead routing (ADR 0078): the team's rules in order, business hours with the after-hours target, the daily cap and
// auto-reassign. Every member reads them; the owner and admins change them (403 for an agent's post).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { team } = await requireTeamMember(request, context);
  return { teamName: team.teamName, manages: canManage(team), ...(await loadRouting(context, team)) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const rule = String(form.get("rule") ?? "");
  const answer = async (pending: Promise<RoutingResult>) => {
    const result = await pending;
    if (result.ok) return redirectWithToast(context, "/team/routing", { title: result.message, variant: "success" });
    return data({ ok: false as const, intent, rule, error: result.error, fieldErrors: result.fieldErrors ?? {} }, { status: result.status });
  };
  return dispatchIntent(form, {
    "rule-save": () => answer(saveRule(context, request, user, team, form)),
    "rule-delete": () => answer(deleteRule(context, request, user, team, rule)),
    "rule-up": () => answer(moveRule(context, request, user, team, rule, true)),
    "rule-down": () => answer(moveRule(context, request, user, team, rule, false)),
    settings: () => answer(saveRoutingSettings(context, request, user, team, form)),
  });
}

export default function TeamRoutingPage() {
  const loaded = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const refusal =
    failed && !failed.ok && "intent" in failed
      ? { intent: failed.intent, rule: "rule" in failed ? failed.rule : "", error: failed.error, fieldErrors: failed.fieldErrors }
      : null;
  return (
    <>
      <PageHeader
        title="Lead routing"
        description={`${loaded.teamName}: the first rule a new lead matches decides where it goes; with none, the team's distribution does.`}
      />
      <p className="mb-4 text-sm">
        <Link to="/team/leads" className="underline underline-offset-2">
          Back to team leads
        </Link>
      </p>
      <div className="grid gap-4 lg:grid-cols-2">
        <RoutingRules page={loaded} manages={loaded.manages} busy={busy} refusal={refusal} />
        <RoutingSettings page={loaded} manages={loaded.manages} busy={busy} refusal={refusal} />
      </div>
    </>
  );
}
