import { appOrigin, type RequestContext } from "~/lib/context.server";
import type { ToastMessage } from "~/lib/toast";
import type { SessionUser } from "~/modules/auth/session.server";
import { getTeamPlan, saveTeamPlan } from "~/modules/commissions/plans.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { inviteMember, listInvitations, resendInvitation, revokeInvitation } from "./invitations.server";
import { acceptOwnership, canTakeTheBill, declineOwnership, offerOwnership, pendingOffer, withdrawOffer } from "./ownership.server";
import { teamHandoverJobs } from "./handover.server";
import { workOfMembers } from "./removal.server";
import { handOverWork } from "./bulk-reassign.server";
import { INVITE_DAYS, TeamActionSchema, type TeamAction } from "./team.schema";
import { TEAM_MESSAGES } from "./team.messages";
import { auditPerson, auditWhere, teamSettingsAudit } from "~/modules/audit/audit.server";
import { PLAN_LABELS } from "~/modules/commissions/plan.schema";
import { canManage, sellsOnTeam, leaveTeam, listMembers, paidSeats, removeMember, renameTeam, setRole, type Membership } from "./team.server";

// The team page (ADR 0033): what it shows a member, and its forms' actions, each with the rule that goes with it.

/** What the team page shows: members, seats, invitations and the removal's effects to managers, and an ownership offer to those it concerns. */
export async function loadTeamPage(context: RequestContext, user: SessionUser, team: Membership) {
  const manager = canManage(team);
  const members = await listMembers(context, team.teamId);
  const [seats, invitations, prefs, teamPlan, offer, work, handovers] = await Promise.all([
    paidSeats(context, team),
    manager ? listInvitations(context, team.teamId) : Promise.resolve([]),
    getDisplayPreferences(context, user.id),
    // An ISA has no part in the team's commissions (ADR 0080): the plan is not theirs to read.
    sellsOnTeam(team) ? getTeamPlan(context.db, team.teamId) : Promise.resolve(null),
    pendingOffer(context, team.teamId),
    // What each member the viewer may remove would take or leave: the removal dialog says it before anything moves.
    manager
      ? workOfMembers(
          context,
          team.teamId,
          members.filter((m) => m.role !== "owner" && m.userId !== user.id).map((m) => m.userId),
        )
      : Promise.resolve({} as Awaited<ReturnType<typeof workOfMembers>>),
    // The owner's handovers (only the owner hands a member's work over): each job's progress, then its result.
    team.role === "owner" ? teamHandoverJobs(context.db, team.teamId) : Promise.resolve([]),
  ]);
  // An offer is seen by the owner who made it and the member it is for; with the member's standing to take the bill.
  const visibleOffer = offer && (team.role === "owner" || offer.to === user.id) ? offer : null;
  const offerForMe = visibleOffer?.to === user.id ? { canTakeTheBill: await canTakeTheBill(context, user.id) } : null;
  return {
    me: user.id,
    team: { name: team.teamName, role: team.role, memberRecords: team.memberRecords, requireTwoFactor: team.requireTwoFactor },
    members,
    seats,
    invitations,
    invitesOn: context.config.FEATURE_FLAGS.TEAM_INVITES,
    prefs,
    teamPlan,
    offer: visibleOffer,
    offerForMe,
    work,
    handovers,
  };
}

/** The team's default commission plan (ADR 0035): the owner's and admins' to save, 403 to agents; a change is audited. */
export async function saveTeamPlanFromForm(
  context: RequestContext,
  request: Request,
  user: SessionUser,
  team: Membership,
  fields: Record<string, FormDataEntryValue>,
) {
  if (!canManage(team)) return { body: { ok: false as const, fieldErrors: { form: TEAM_MESSAGES.managersOnly } }, status: 403 };
  const before = await getTeamPlan(context.db, team.teamId);
  const result = await saveTeamPlan(context.db, team.teamId, fields);
  if (result.ok) {
    const changes = (Object.keys(PLAN_LABELS) as (keyof typeof PLAN_LABELS)[])
      .filter((key) => !before || before[key] !== result.plan[key])
      .map((key) => ({
        setting: `team plan: ${PLAN_LABELS[key]}`,
        from: before ? String(before[key] ?? "none") : "not set",
        to: String(result.plan[key] ?? "none"),
      }));
    if (changes.length > 0)
      await teamSettingsAudit(context, {
        teamId: team.teamId,
        actor: await auditPerson(context.db, user.id),
        changes,
        where: auditWhere(request),
        at: Date.now(),
      });
  }
  return { body: result, status: result.ok ? 200 : 400 };
}

/** The intents of the team page's own forms (the commission plan's form is answered apart). */
export const TEAM_INTENTS = TeamActionSchema.options.map((o) => o.shape.intent.value);

export type TeamActionData = { intent: TeamAction["intent"] | null; errors: Record<string, string> };

const DONE: Record<TeamAction["intent"], string> = {
  invite: "Invitation sent",
  resend: "Invitation sent again",
  revoke: "Invitation withdrawn",
  remove: "Member removed",
  role: "Role changed",
  rename: "Team renamed",
  "hand-over": "Handover started",
  leave: "You left the team",
  "offer-ownership": "Ownership offered",
  "withdraw-offer": "Offer withdrawn",
  "accept-ownership": "You are the team's owner",
  "decline-ownership": "Offer declined",
};

/** One of the team page's forms: refused with its field errors (400), or done with where to go and what to say. */
export async function runTeamAction(
  context: RequestContext,
  request: Request,
  user: SessionUser,
  fields: Record<string, FormDataEntryValue>,
): Promise<{ ok: false; body: TeamActionData } | { ok: true; to: string; toast: Omit<ToastMessage, "id"> }> {
  const parsed = TeamActionSchema.safeParse(fields);
  if (!parsed.success) {
    const intent = TeamActionSchema.options.some((o) => o.shape.intent.value === fields.intent) ? (fields.intent as TeamAction["intent"]) : null;
    return { ok: false, body: { intent, errors: Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0] ?? "form"), i.message])) } };
  }
  const input = parsed.data;
  const where = auditWhere(request);
  const result = await (() => {
    switch (input.intent) {
      case "invite":
        return inviteMember(context, request, user, { email: input.email, role: input.role });
      case "resend":
        return resendInvitation(context, request, user, input.invitationId);
      case "revoke":
        return revokeInvitation(context, user, input.invitationId, where);
      case "remove":
        return removeMember(context, user, input.memberId, input.reassignTo, appOrigin(context, request), where);
      case "hand-over":
        return handOverWork(context, user, input.memberId, input.to, where);
      case "role":
        return setRole(context, user, input.memberId, input.role, where);
      case "rename":
        return renameTeam(context, user, input.name, where);
      case "leave":
        return leaveTeam(context, user, where);
      case "offer-ownership":
        return offerOwnership(context, user, input.memberId, appOrigin(context, request), where);
      case "withdraw-offer":
        return withdrawOffer(context, user, where);
      case "accept-ownership":
        return acceptOwnership(context, user, where);
      case "decline-ownership":
        return declineOwnership(context, user, where);
    }
  })();
  if (!result.ok) return { ok: false, body: { intent: input.intent, errors: { form: result.message } } };
  const description =
    input.intent === "invite"
      ? `${input.email} has ${INVITE_DAYS} days to accept.`
      : input.intent === "accept-ownership"
        ? "The team's seats are on your subscription now; the former owner is an admin."
        : (input.intent === "remove" && input.reassignTo) || input.intent === "hand-over"
          ? "Their contacts, deals, tasks and leads are moving to the teammate you chose: the Team page shows how far it has got."
          : undefined;
  return { ok: true, to: input.intent === "leave" ? "/dashboard" : "/team", toast: { title: DONE[input.intent], description, variant: "success" } };
}
