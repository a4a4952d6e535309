import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { BarChart3, Columns3, Contact, Inbox, ScrollText, Trophy } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { readForm } from "~/lib/body.server";
import { formWideError } from "~/lib/action-result";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireTeamMember } from "~/modules/team/guard.server";
import type { TeamAction } from "~/modules/team/team.schema";
import { saveMemberRecords } from "~/modules/team/member-records.server";
import { MemberRecordsSetting } from "~/modules/team/components/MemberRecordsSetting";
import { loadTeamPage, runTeamAction, saveTeamPlanFromForm, TEAM_INTENTS } from "~/modules/team/team-page.server";
import { PlanForm } from "~/modules/commissions/components/PlanForm";
import { PlanSummary } from "~/modules/commissions/components/PlanSummary";
import { DEFAULT_PLAN } from "~/modules/commissions/plan.schema";
import { InvitationsSection } from "~/modules/team/components/InvitationsSection";
import { HandoversSection } from "~/modules/team/components/Handovers";
import { MembersSection } from "~/modules/team/components/MembersSection";
import { OwnershipOffer, OwnershipSection } from "~/modules/team/components/Ownership";
import { TwoFactorRequirement } from "~/modules/team/components/TwoFactorRequirement";
import { setTwoFactorRequired } from "~/modules/team/team.server";

export const meta: MetaFunction = () => [{ title: "Team — Porchlight" }];

// The team (ADR 0033): its members and their roles, and invitations by e-mail. Only for members of a team
// on a team plan: anyone else gets 404 (requireTeamMember).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  return loadTeamPage(context, user, team);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  const teamAction = async () => {
    const result = await runTeamAction(context, request, user, fields);
    return result.ok
      ? redirectWithToast(context, result.to, result.toast)
      : refuse(result.body.intent ?? String(fields.intent ?? ""), result.body.errors);
  };
  return dispatchIntent(form, {
    // What the owner and admins may do with members' contacts (ADR 0075): the owner's choice.
    "member-records": () => saveMemberRecords(context, request, { userId: user.id, team }, form),
    // The owner's two-factor requirement (ADR 0074): anyone else is refused with 403, nothing changed.
    "two-factor": async () => {
      const done = await setTwoFactorRequired(context, request, user, fields.on === "1");
      if (!done.ok) return refuse("two-factor", { form: done.message }, done.status ?? 400);
      const toast = fields.on === "1" ? "Two-factor sign-in required" : "Two-factor sign-in no longer required";
      return redirectWithToast(context, "/team", { title: toast, variant: "success" });
    },
    // The team's default commission plan (ADR 0035): its own form, answered to the form's fetcher.
    "commission-plan": async () => {
      const { body, status } = await saveTeamPlanFromForm(context, request, user, team, fields);
      return body.ok ? data({ ...body, intent: "commission-plan" }) : refuse("commission-plan", body.fieldErrors, status);
    },
    ...(Object.fromEntries(TEAM_INTENTS.map((intent) => [intent, teamAction])) as Record<TeamAction["intent"], typeof teamAction>),
  });
}

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

export default function TeamPage() {
  const loaded = useLoaderData<typeof loader>();
  const { me, team, members, seats, invitations, invitesOn, prefs } = loaded;
  // The page's own forms answer an ActionResult; the team plan's form answers its fetcher.
  const answered = useActionData<typeof action>();
  const refused = answered && "intent" in answered && !answered.ok ? answered : undefined;
  const navigation = useNavigation();
  const busy = (intent: string, id?: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    (id === undefined || navigation.formData?.get("memberId") === id || navigation.formData?.get("invitationId") === id);
  const errors = (intent: TeamAction["intent"]) => (refused?.intent === intent ? refused.fieldErrors : {});
  const formError = formWideError(refused);
  const owner = team.role === "owner";
  const manager = owner || team.role === "admin";
  // An ISA has no part in the team's deals or commissions (ADR 0080).
  const sells = team.role !== "isa";

  return (
    <>
      <PageHeader
        title="Team"
        description={`${team.name} · ${members.length === 1 ? "1 member" : `${members.length} members`} · ${seats} seats paid`}
        actions={
          <div className="flex flex-wrap gap-2">
            {sells ? (
              <Link to="/team/pipeline" className={buttonClass("secondary")}>
                <Columns3 aria-hidden="true" className="h-5 w-5" />
                Team pipeline
              </Link>
            ) : (
              <Link to="/team/leads" className={buttonClass("secondary")}>
                <Inbox aria-hidden="true" className="h-5 w-5" />
                Team leads
              </Link>
            )}
            {manager && team.memberRecords !== "shared" ? (
              <Link to="/team/contacts" className={buttonClass("secondary")}>
                <Contact aria-hidden="true" className="h-5 w-5" />
                Team contacts
              </Link>
            ) : null}
            {sells ? (
              <Link to="/team/leaderboard" className={buttonClass("secondary")}>
                <Trophy aria-hidden="true" className="h-5 w-5" />
                Leaderboard
              </Link>
            ) : null}
            {manager ? (
              <>
                <Link to="/team/reports" className={buttonClass("secondary")}>
                  <BarChart3 aria-hidden="true" className="h-5 w-5" />
                  Team reports
                </Link>
                <Link to="/team/audit" className={buttonClass("secondary")}>
                  <ScrollText aria-hidden="true" className="h-5 w-5" />
                  Audit log
                </Link>
              </>
            ) : null}
          </div>
        }
      />
      {formError ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-col gap-6">
        {loaded.offerForMe ? (
          <OwnershipOffer
            ownerName={members.find((m) => m.role === "owner")?.name ?? "The owner"}
            teamName={team.name}
            seats={Math.max(seats, members.length)}
            canTakeTheBill={loaded.offerForMe.canTakeTheBill}
            busy={busy}
          />
        ) : null}
        <MembersSection members={members} me={me} owner={owner} manager={manager} work={loaded.work} prefs={prefs} busy={busy} />
        {loaded.handovers.length > 0 ? <HandoversSection handovers={loaded.handovers} /> : null}
        <MemberRecordsSetting value={team.memberRecords} owner={owner} error={refused?.intent === "member-records" ? refused.error : undefined} />

        {manager ? (
          <PlanForm
            plan={loaded.teamPlan ?? DEFAULT_PLAN}
            id="team-plan-heading"
            title="Team commission plan"
            description={`${loaded.teamPlan ? "Members" : "Once saved, members"} who have not saved a plan of their own are priced by this one on every deal, forecast and report. A member's own plan, and a deal's own terms, override it.`}
            action="/team"
            intent="commission-plan"
            saved={{ title: "Team plan saved", description: "Members without a plan of their own are priced by it now." }}
          />
        ) : team.role === "isa" ? null : (
          <section aria-labelledby="team-plan-heading" className={card}>
            <h2 id="team-plan-heading" className="text-lg font-semibold">
              Team commission plan
            </h2>
            {loaded.teamPlan ? (
              <>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                  Set by the team's owner and admins. Your deals use it unless you saved a plan of your own under Forecast and commissions.
                </p>
                <PlanSummary plan={loaded.teamPlan} prefs={loaded.prefs} />
              </>
            ) : (
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                The team has no default plan. Your deals use your own plan under Forecast and commissions.
              </p>
            )}
          </section>
        )}

        {manager ? (
          <InvitationsSection invitesOn={invitesOn} invitations={invitations} owner={owner} prefs={prefs} busy={busy} errors={errors("invite")} />
        ) : null}

        {owner ? <TwoFactorRequirement on={team.requireTwoFactor} busy={busy("two-factor")} className={card} /> : null}

        {owner && members.length > 1 ? (
          <OwnershipSection members={members} me={me} offer={loaded.offer} prefs={prefs} busy={busy} errors={errors("offer-ownership")} />
        ) : null}

        {owner ? (
          <section aria-labelledby="name-heading" className={card}>
            <h2 id="name-heading" className="text-lg font-semibold">
              Team name
            </h2>
            <Form method="post" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
              <input type="hidden" name="intent" value="rename" />
              <div className="sm:flex-1">
                <Field label="Name" name="name" defaultValue={team.name} maxLength={80} required error={errors("rename").name} />
              </div>
              <Button type="submit" variant="secondary" busy={busy("rename")} busyLabel="Saving…">
                Save name
              </Button>
            </Form>
          </section>
        ) : (
          <section aria-labelledby="leave-heading" className={card}>
            <h2 id="leave-heading" className="text-lg font-semibold">
              Leave the team
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              You keep your account and everything you made in it. To go on using Porchlight after leaving, start a plan of your own.
            </p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="leave" />
              <Button type="submit" variant="secondary" busy={busy("leave")} busyLabel="Leaving…">
                Leave {team.name}
              </Button>
            </Form>
          </section>
        )}
      </div>
    </>
  );
}
