import { and, eq } from "drizzle-orm";
import { teams } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { SessionUser } from "~/modules/auth/session.server";
import type { PlanChangeResult } from "~/modules/billing/plan-change.server";
import type { AuditWhere } from "~/modules/audit/audit.server";
import { distribution, reofferLeadsOf, requestDeps, unansweredLeadsOf } from "./leads.server";
import { TEAM_MESSAGES } from "./team.messages";
import { getMembership, leaveTeam, memberCount } from "./team.server";

/**
 * Closing an account leaves its team at once, before anything else of the account changes: round robin must not hand
 * leads to an account waiting for its purge. A member leaves as by "Leave team" (their seat goes, their shares end) and
 * the leads they never answered go back to the team to be offered again. An owner with members is refused (the team
 * works on their subscription): they transfer ownership or remove the members first. An owner alone takes the team
 * with them.
 */
export async function leaveTeamOnAccountClose(
  context: RequestContext,
  origin: string,
  user: Pick<SessionUser, "id">,
  at: Date,
  where: AuditWhere,
): Promise<PlanChangeResult> {
  const membership = await getMembership(context, user.id);
  if (!membership) return { ok: true };
  if (membership.role === "owner") {
    const others = (await memberCount(context, membership.teamId)) - 1;
    if (others > 0) return { ok: false, message: TEAM_MESSAGES.ownerClosesWithMembers(others) };
    await context.db.delete(teams).where(and(eq(teams.id, membership.teamId), eq(teams.ownerId, user.id)));
    context.memo.delete(`team:${user.id}`);
    return { ok: true };
  }
  const unanswered = await unansweredLeadsOf(context.db, membership.teamId, user.id);
  const left = await leaveTeam(context, user, where);
  if (!left.ok) return left;
  await reofferLeadsOf(requestDeps(context, origin), await distribution(context.db, membership.teamId, membership.teamName), user.id, unanswered, at);
  return { ok: true };
}
