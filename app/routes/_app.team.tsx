import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Columns3, Trophy } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { readForm } from "~/lib/body.server";
import { redirectWithToast } from "~/lib/toast.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { requireTeamMember } from "~/modules/team/guard.server";
import { inviteMember, listInvitations, resendInvitation, revokeInvitation } from "~/modules/team/invitations.server";
import { INVITE_DAYS, TeamActionSchema, type TeamAction } from "~/modules/team/team.schema";
import { canManage, leaveTeam, listMembers, paidSeats, removeMember, renameTeam, setRole } from "~/modules/team/team.server";
import { OWNERSHIP_COPY, TEAM_MESSAGES } from "~/modules/team/team.messages";
import { acceptOwnership, canTakeTheBill, declineOwnership, offerOwnership, pendingOffer, withdrawOffer } from "~/modules/team/ownership.server";
import { getTeamPlan, saveTeamPlan } from "~/modules/commissions/plans.server";
import { PlanForm } from "~/modules/commissions/components/PlanForm";
import { PlanSummary } from "~/modules/commissions/components/PlanSummary";
import { DEFAULT_PLAN } from "~/modules/commissions/plan.schema";
import { formatDate } from "~/lib/format";
import { appOrigin } from "~/lib/context.server";
import { RemoveMember } from "~/modules/team/components/RemoveMember";
import { NO_WORK } from "~/modules/team/removal";
import { workOfMembers } from "~/modules/team/removal.server";

export const meta: MetaFunction = () => [{ title: "Team — Porchlight" }];

// The team (ADR 0033): its members and their roles, and invitations by e-mail. Only for members of a team
// on a team plan: anyone else gets 404 (requireTeamMember).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  const manager = canManage(team);
  const members = await listMembers(context, team.teamId);
  const [seats, invitations, prefs, teamPlan, offer, work] = await Promise.all([
    paidSeats(context, team),
    manager ? listInvitations(context, team.teamId) : Promise.resolve([]),
    getDisplayPreferences(context, user.id),
    getTeamPlan(context.db, team.teamId),
    pendingOffer(context, team.teamId),
    // What each member the viewer may remove would take or leave: the removal dialog says it before anything moves.
    manager ? workOfMembers(context, team.teamId, members.filter((m) => m.role !== "owner" && m.userId !== user.id).map((m) => m.userId)) : Promise.resolve({} as Awaited<ReturnType<typeof workOfMembers>>),
  ]);
  // An offer is seen by the owner who made it and the member it is for; with the member's standing to take the bill.
  const visibleOffer = offer && (team.role === "owner" || offer.to === user.id) ? offer : null;
  const offerForMe = visibleOffer?.to === user.id ? { canTakeTheBill: await canTakeTheBill(context, user.id) } : null;
  return {
    me: user.id,
    team: { name: team.teamName, role: team.role },
    members,
    seats,
    invitations,
    invitesOn: context.config.FEATURE_FLAGS.TEAM_INVITES,
    prefs,
    teamPlan,
    offer: visibleOffer,
    offerForMe,
    work,
  };
}

type ActionData = { intent: TeamAction["intent"] | null; errors: Record<string, string> };

const DONE: Record<TeamAction["intent"], string> = {
  invite: "Invitation sent",
  resend: "Invitation sent again",
  revoke: "Invitation withdrawn",
  remove: "Member removed",
  role: "Role changed",
  rename: "Team renamed",
  leave: "You left the team",
  "offer-ownership": "Ownership offered",
  "withdraw-offer": "Offer withdrawn",
  "accept-ownership": "You are the team's owner",
  "decline-ownership": "Offer declined",
};

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamMember(request, context);
  const form = Object.fromEntries(await readForm(request));
  // The team's default commission plan (ADR 0035): its own form, answered to the form's fetcher.
  if (form.intent === "commission-plan") {
    if (!canManage(team)) return data({ ok: false as const, fieldErrors: { form: TEAM_MESSAGES.managersOnly } }, { status: 403 });
    const result = await saveTeamPlan(context.db, team.teamId, form);
    return data(result, { status: result.ok ? 200 : 400 });
  }
  const parsed = TeamActionSchema.safeParse(form);
  if (!parsed.success) {
    const intent = TeamActionSchema.options.some((o) => o.shape.intent.value === form.intent) ? (form.intent as TeamAction["intent"]) : null;
    return data<ActionData>({ intent, errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "form"), i.message])) }, { status: 400 });
  }
  const input = parsed.data;
  const result = await (() => {
    switch (input.intent) {
      case "invite":
        return inviteMember(context, request, user, { email: input.email, role: input.role });
      case "resend":
        return resendInvitation(context, request, user, input.invitationId);
      case "revoke":
        return revokeInvitation(context, user, input.invitationId);
      case "remove":
        return removeMember(context, user, input.memberId, input.reassignTo, appOrigin(context, request));
      case "role":
        return setRole(context, user, input.memberId, input.role);
      case "rename":
        return renameTeam(context, user, input.name);
      case "leave":
        return leaveTeam(context, user);
      case "offer-ownership":
        return offerOwnership(context, user, input.memberId, appOrigin(context, request));
      case "withdraw-offer":
        return withdrawOffer(context, user);
      case "accept-ownership":
        return acceptOwnership(context, user);
      case "decline-ownership":
        return declineOwnership(context, user);
    }
  })();
  if (!result.ok) return data<ActionData>({ intent: input.intent, errors: { form: result.message } }, { status: 400 });
  const description =
    input.intent === "invite"
      ? `${input.email} has ${INVITE_DAYS} days to accept.`
      : input.intent === "accept-ownership"
        ? "The team's seats are on your subscription now; the former owner is an admin."
        : input.intent === "remove" && input.reassignTo
          ? "Their contacts, deals, tasks and leads moved to the teammate you chose."
          : undefined;
  return redirectWithToast(context, input.intent === "leave" ? "/dashboard" : "/team", { title: DONE[input.intent], description, variant: "success" });
}

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";
const ROLE_NAMES = { owner: "Owner", admin: "Admin", agent: "Agent" } as const;

export default function TeamPage() {
  const loaded = useLoaderData<typeof loader>();
  const { me, team, members, seats, invitations, invitesOn, prefs } = loaded;
  // The page's own forms answer ActionData; the team plan's form answers its fetcher.
  const answered = useActionData<typeof action>();
  const actionData = answered && "errors" in answered ? answered : undefined;
  const navigation = useNavigation();
  const busy = (intent: string, id?: string) =>
    navigation.state === "submitting" && navigation.formData?.get("intent") === intent && (id === undefined || navigation.formData?.get("memberId") === id || navigation.formData?.get("invitationId") === id);
  const errors = (intent: TeamAction["intent"]) => (actionData?.intent === intent ? actionData.errors : {});
  const owner = team.role === "owner";
  const manager = owner || team.role === "admin";

  return (
    <>
      <PageHeader
        title="Team"
        description={`${team.name} · ${members.length === 1 ? "1 member" : `${members.length} members`} · ${seats} seats paid`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/team/pipeline" className={buttonClass("secondary")}>
              <Columns3 aria-hidden="true" className="h-5 w-5" />
              Team pipeline
            </Link>
            <Link to="/team/leaderboard" className={buttonClass("secondary")}>
              <Trophy aria-hidden="true" className="h-5 w-5" />
              Leaderboard
            </Link>
          </div>
        }
      />
      {actionData?.errors.form ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {actionData.errors.form}
        </p>
      ) : null}
      <div className="flex flex-col gap-6">
        {loaded.offerForMe ? (
          <section aria-labelledby="offer-heading" className={`${card} border-brand-700 dark:border-brand-400`}>
            <h2 id="offer-heading" className="text-lg font-semibold">
              {OWNERSHIP_COPY.offered(members.find((m) => m.role === "owner")?.name ?? "The owner", team.name)}
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{OWNERSHIP_COPY.terms(Math.max(seats, members.length))}</p>
            {loaded.offerForMe.canTakeTheBill ? null : (
              <p className="mt-2 text-sm font-medium">{TEAM_MESSAGES.ownerNeedsSubscription}</p>
            )}
            <div className="mt-3 flex flex-wrap gap-2">
              {loaded.offerForMe.canTakeTheBill ? (
                <Form method="post">
                  <input type="hidden" name="intent" value="accept-ownership" />
                  <Button type="submit" busy={busy("accept-ownership")} busyLabel="Taking over…">
                    Accept ownership
                  </Button>
                </Form>
              ) : (
                <Link to="/trial/start" className={buttonClass("primary")}>
                  Start your subscription
                </Link>
              )}
              <Form method="post">
                <input type="hidden" name="intent" value="decline-ownership" />
                <Button type="submit" variant="secondary" busy={busy("decline-ownership")} busyLabel="Declining…">
                  Decline
                </Button>
              </Form>
            </div>
          </section>
        ) : null}
        <section aria-labelledby="members-heading" className={card}>
          <h2 id="members-heading" className="text-lg font-semibold">
            Members
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Each member has a seat. The owner pays and manages billing; admins invite and remove agents; agents work their own contacts and deals.
          </p>
          <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800">
            {members.map((member) => (
              <li key={member.userId} className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="min-w-0">
                  <p className="truncate font-medium">
                    {member.name}
                    {member.userId === me ? " (you)" : ""}
                  </p>
                  <p className="truncate text-sm text-stone-600 dark:text-stone-400">
                    {member.email} · {ROLE_NAMES[member.role]} · joined {formatDate(member.joinedAt, prefs)}
                  </p>
                </div>
                {member.role !== "owner" && member.userId !== me && manager ? (
                  <div className="flex flex-wrap items-end gap-2">
                    {owner ? (
                      <Form method="post" className="flex items-end gap-2">
                        <input type="hidden" name="intent" value="role" />
                        <input type="hidden" name="memberId" value={member.userId} />
                        <SelectField
                          label={`Role of ${member.name}`}
                          name="role"
                          defaultValue={member.role}
                          options={[
                            ["agent", "Agent"],
                            ["admin", "Admin"],
                          ]}
                        />
                        <Button type="submit" variant="secondary" busy={busy("role", member.userId)} busyLabel="Saving…">
                          Save role
                        </Button>
                      </Form>
                    ) : null}
                    {owner || member.role === "agent" ? (
                      <div className="sm:ml-6">
                        <RemoveMember member={member} members={members} me={me} owner={owner} work={loaded.work[member.userId] ?? NO_WORK} busy={busy("remove", member.userId)} />
                      </div>
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
            A removed member keeps their account and, unless the owner gives it to a teammate, everything they made in it; to go on using Porchlight they start a plan of their own.
            {owner ? " Given to a teammate, their contacts, deals, tasks, activities and leads become that teammate's, with their timelines." : ""} Remove… says what moves, and to whom, before anything changes.
          </p>
        </section>

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
        ) : (
          <section aria-labelledby="team-plan-heading" className={card}>
            <h2 id="team-plan-heading" className="text-lg font-semibold">
              Team commission plan
            </h2>
            {loaded.teamPlan ? (
              <>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">Set by the team's owner and admins. Your deals use it unless you saved a plan of your own under Forecast and commissions.</p>
                <PlanSummary plan={loaded.teamPlan} prefs={loaded.prefs} />
              </>
            ) : (
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">The team has no default plan. Your deals use your own plan under Forecast and commissions.</p>
            )}
          </section>
        )}

        {manager ? (
          <section aria-labelledby="invite-heading" className={card}>
            <h2 id="invite-heading" className="text-lg font-semibold">
              Invitations
            </h2>
            {invitesOn ? (
              <>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                  We e-mail a link that works once and expires in {INVITE_DAYS} days. Your team is billed for a new seat when the invitation is accepted.
                </p>
                <Form method="post" className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Invite a member">
                  <input type="hidden" name="intent" value="invite" />
                  <div className="sm:flex-1">
                    <Field label="E-mail" name="email" type="email" autoComplete="off" required error={errors("invite").email} />
                  </div>
                  <SelectField label="Role" name="role" defaultValue="agent" error={errors("invite").role} options={owner ? [["agent", "Agent"], ["admin", "Admin"]] : [["agent", "Agent"]]} />
                  <Button type="submit" busy={busy("invite")} busyLabel="Sending…">
                    Send invitation
                  </Button>
                </Form>
              </>
            ) : (
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                Invitations by e-mail are not available on this server yet. Write to hello@porchlight.app to add members.
              </p>
            )}
            {invitations.length > 0 ? (
              <ul className="mt-4 divide-y divide-stone-200 dark:divide-stone-800" aria-label="Pending invitations">
                {invitations.map((invitation) => (
                  <li key={invitation.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
                    <p className="min-w-0 truncate text-sm">
                      <span className="font-medium">{invitation.email}</span> · {ROLE_NAMES[invitation.role]} ·{" "}
                      {invitation.expired ? "expired" : `expires ${formatDate(invitation.expiresAt, prefs)}`}
                    </p>
                    <div className="flex gap-2">
                      <Form method="post">
                        <input type="hidden" name="intent" value="resend" />
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <Button type="submit" variant="secondary" busy={busy("resend", invitation.id)} busyLabel="Sending…" aria-label={`Send the invitation to ${invitation.email} again`}>
                          Resend
                        </Button>
                      </Form>
                      <Form method="post">
                        <input type="hidden" name="intent" value="revoke" />
                        <input type="hidden" name="invitationId" value={invitation.id} />
                        <Button type="submit" variant="secondary" busy={busy("revoke", invitation.id)} busyLabel="Withdrawing…" aria-label={`Withdraw the invitation to ${invitation.email}`}>
                          Withdraw
                        </Button>
                      </Form>
                    </div>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}

        {owner && members.length > 1 ? <OwnershipSection members={members} me={me} offer={loaded.offer} prefs={prefs} busy={busy} errors={errors("offer-ownership")} /> : null}

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

/** The owner offers the team (and its bill) to a member, or withdraws the offer (ADR 0039). */
function OwnershipSection({
  members,
  me,
  offer,
  prefs,
  busy,
  errors,
}: {
  members: { userId: string; name: string }[];
  me: string;
  offer: { to: string; at: number } | null;
  prefs: Parameters<typeof formatDate>[1];
  busy: (intent: string) => boolean;
  errors: Record<string, string>;
}) {
  const offeredTo = offer ? members.find((m) => m.userId === offer.to) : undefined;
  return (
    <section aria-labelledby="ownership-heading" className={card}>
      <h2 id="ownership-heading" className="text-lg font-semibold">
        Transfer ownership
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        The owner pays for the team and manages its billing. The member you choose becomes the owner when they accept: the team&apos;s seats move to their own
        subscription, you stay on as an admin, and your subscription ends with the period you have paid.
      </p>
      {offer && offeredTo ? (
        <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p role="status" className="text-sm">
            Offered to <span className="font-medium">{offeredTo.name}</span> on {formatDate(offer.at, prefs)}. Waiting for their answer.
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="withdraw-offer" />
            <Button type="submit" variant="secondary" busy={busy("withdraw-offer")} busyLabel="Withdrawing…">
              Withdraw offer
            </Button>
          </Form>
        </div>
      ) : (
        <Form method="post" className="mt-3 grid grid-cols-1 gap-3 sm:flex sm:items-end">
          <input type="hidden" name="intent" value="offer-ownership" />
          <SelectField
            label="New owner"
            name="memberId"
            placeholder={{ label: "Choose a member", disabled: true }}
            error={errors.memberId}
            options={members.filter((m) => m.userId !== me).map((m) => [m.userId, m.name] as const)}
          />
          <Button type="submit" variant="secondary" busy={busy("offer-ownership")} busyLabel="Offering…">
            Offer ownership
          </Button>
        </Form>
      )}
    </section>
  );
}
