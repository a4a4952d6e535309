import type { RequestContext } from "~/lib/context.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getSubscription } from "~/modules/billing/subscription.server";
import { canManage, getMembership, sellsOnTeam, type Membership } from "./team.server";

/** Whether the user's plan has team features (Team and Enterprise) and they are in a team. */
export async function teamOf(context: RequestContext, user: SessionUser): Promise<Membership | null> {
  const [subscription, membership] = await Promise.all([getSubscription(context, user.id), getMembership(context, user.id)]);
  const teamPlan = subscription.known && (subscription.plan === "team" || subscription.plan === "enterprise");
  return teamPlan ? membership : null;
}

/**
 * Team pages exist only for members of a team on a team plan (spec: Solo never sees team routes). For anyone else they
 * answer 404, as if there were nothing there.
 */
export async function requireTeamMember(request: Request, context: RequestContext): Promise<{ user: SessionUser; team: Membership }> {
  const user = await requireSubscriber(request, context);
  const team = await teamOf(context, user);
  if (!team) throw new Response("Not Found", { status: 404 });
  return { user, team };
}

/** The team's owner or an admin; anyone else gets 404, like every team page for a non-member. */
export async function requireTeamManager(request: Request, context: RequestContext): Promise<{ user: SessionUser; team: Membership }> {
  const { user, team } = await requireTeamMember(request, context);
  if (!canManage(team)) throw new Response("Not Found", { status: 404 });
  return { user, team };
}

/**
 * The team's deals and commissions (team pipeline and board, shared deals, the leaderboard): every member but an ISA,
 * who has no part in them (ADR 0080) and gets 404, as for a page that is not there.
 */
export async function requireTeamSeller(request: Request, context: RequestContext): Promise<{ user: SessionUser; team: Membership }> {
  const { user, team } = await requireTeamMember(request, context);
  if (!sellsOnTeam(team)) throw new Response("Not Found", { status: 404 });
  return { user, team };
}
