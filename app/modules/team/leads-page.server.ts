import { appOrigin, type RequestContext } from "~/lib/context.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { leadFormPath } from "./lead-form";
import { leadFormKeyOf } from "./lead-form.server";
import { INTAKE_MESSAGES } from "~/modules/intake/intake";
import { intakeAddressOf, rotateIntakeAddress } from "~/modules/intake/intake.server";
import { assignLead, LEAD_MESSAGES, loadLeads, requestDeps, type LeadResult } from "./leads.server";
import { auditWhere } from "~/modules/audit/audit.server";
import { canManage, listMembers, worksLeadDesk, type Membership } from "./team.server";

// The team leads page (ADR 0038): what each member sees of the team's leads, and the assignment as its manager.

/** The request's Deps, with the app's address for the e-mails about waiting leads. */
export const leadDeps = (context: RequestContext, request: Request) => requestDeps(context, appOrigin(context, request));

export async function loadLeadsPage(context: RequestContext, request: Request, user: SessionUser, team: Membership) {
  const manages = canManage(team);
  // The lead desk: owners, admins and ISAs add leads and hand them to agents (ADR 0080).
  const desk = worksLeadDesk(team);
  const [view, prefs, formKey, intake] = await Promise.all([
    loadLeads(context, team, leadDeps(context, request)),
    getDisplayPreferences(context, user.id),
    manages ? leadFormKeyOf(context, team.teamId) : Promise.resolve(null),
    manages ? intakeAddressOf(context, teamHolder(team)) : Promise.resolve(null),
  ]);
  return {
    me: user.id,
    manages,
    desk,
    isa: team.role === "isa",
    teamName: team.teamName,
    prefs,
    // The public lead form's address: for the owner and admins, who hand it out (ADR 0040).
    leadFormUrl: formKey ? `${appOrigin(context, request)}${leadFormPath(formKey)}` : null,
    // The team's lead intake address (ADR 0065): portals' lead e-mails sent to it are the team's leads.
    intakeAddress: intake?.address ?? null,
    ...view,
    // Agents see who a waiting lead is and where it came from; its phone and e-mail once it is theirs. The lead desk
    // sees them all, to call a lead before handing it on.
    waiting: view.waiting.map((lead) => (desk ? lead : { ...lead, email: null, phone: null })),
  };
}

const teamHolder = (team: Membership) => ({ userId: team.ownerId, teamId: team.teamId });

/** An owner or admin gives the team a new intake address; the old one bounces from then on. */
export async function rotateTeamIntakeAddress(context: RequestContext, team: Membership): Promise<LeadResult> {
  if (!canManage(team)) return { ok: false, status: 403, error: LEAD_MESSAGES.managersOnly };
  await rotateIntakeAddress(context, teamHolder(team));
  return { ok: true, message: "New address ready", detail: INTAKE_MESSAGES.rotated };
}

/** An owner, admin or ISA gives a lead to an agent, named in the agent's alert by their name in the team. */
export async function assignLeadAsManager(
  context: RequestContext,
  request: Request,
  user: SessionUser,
  team: Membership,
  leadId: string,
  agentId: string,
): Promise<LeadResult> {
  const me = (await listMembers(context, team.teamId)).find((m) => m.userId === user.id);
  return assignLead(
    context,
    team,
    leadDeps(context, request),
    { id: user.id, name: me?.name ?? user.email, where: auditWhere(request) },
    leadId,
    agentId,
  );
}
