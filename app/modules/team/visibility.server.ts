import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { canManage, listMembers, type MemberRow, type Membership } from "./team.server";

// Who sees whose data in a team view: the one rule (docs/decisions/0034-team-visibility.md).
//   - An agent sees their own rows (and, once deals can be shared, the rows shared with them).
//   - A team's owner and admins see every member's rows.
//   - Nobody outside the team sees anything of it: an id of another team's member, of a Solo agent or of no one at
//     all gets the same 404, so a guess tells nothing.
// Views that are not team views (Contacts, Pipeline, Tasks, search, exports, the calendar feed, AI) stay owner-only
// through ownedBy (lib/tenancy.server.ts). A team view turns a requested agent into a UserId only through here.

export interface Viewer {
  userId: UserId;
  /** Their team on a team plan (guard.server.ts teamOf), or null. */
  team: Membership | null;
}

/** Whether `viewer` may see the rows of every member (owners and admins). */
export const seesWholeTeam = (viewer: Viewer): boolean => canManage(viewer.team);

/** The team members whose rows `viewer` may see: all of them for owners and admins, else only themselves. */
export async function visibleMembers(context: RequestContext, viewer: Viewer): Promise<MemberRow[]> {
  if (!viewer.team) return [];
  const members = await listMembers(context, viewer.team.teamId);
  return seesWholeTeam(viewer) ? members : members.filter((m) => m.userId === viewer.userId);
}

/**
 * The leaderboard's standings (closed volume, deals won, speed to lead, activities) are the team's to see: every member
 * sees every member's. What an agent keeps (agent net, which shows their split and cap) follows the row rule.
 */
export const seesNetOf = (viewer: Viewer, agentId: string): boolean => agentId === viewer.userId || seesWholeTeam(viewer);

const notFound = () => new Response("Not Found", { status: 404 });

/**
 * The agent a team view shows: the viewer when nothing (or themselves) is asked for, else the requested member if
 * the rule lets the viewer see them. Anything else throws 404.
 */
export async function agentInView(
  context: RequestContext,
  viewer: Viewer,
  requested: string | null | undefined,
): Promise<{ agentId: UserId; self: boolean; name: string | null }> {
  if (!requested || requested === viewer.userId) return { agentId: viewer.userId, self: true, name: null };
  if (!seesWholeTeam(viewer)) throw notFound();
  const member = (await visibleMembers(context, viewer)).find((m) => m.userId === requested);
  if (!member) throw notFound();
  return { agentId: member.userId as UserId, self: false, name: member.name };
}
