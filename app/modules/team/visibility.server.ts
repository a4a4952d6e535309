import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { teams } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { canManage, isMemberSql, listMembers, MANAGER_ROLES, type MemberRow, type Membership } from "./team.server";

// Who sees whose data in a team view: the one rule (docs/decisions/0034-team-visibility.md).
//   - An agent sees their own rows (and, once deals can be shared, the rows shared with them).
//   - A team's owner and admins see every member's rows.
//   - Nobody outside the team sees anything of it: an id of another team's member, of a Solo agent or of no one at
//     all gets the same 404, so a guess tells nothing.
//   - Members' contacts, timelines and tasks (ADR 0075): the owner and admins see them, or see and edit them, only when
//     the owner has chosen so for the team (teams.member_records); otherwise only what is shared with them.
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

/** What the viewer may do with a teammate's contacts, timelines and tasks: "edit", "view", or nothing beyond what is shared. */
export function memberRecordAccess(viewer: Viewer): "view" | "edit" | null {
  const team = viewer.team;
  if (!canManage(team)) return null;
  return team.memberRecords === "shared" ? null : team.memberRecords;
}

/** The members whose contacts, timelines and tasks the viewer may open: every other member with access, else none. */
export async function recordsOfMembers(context: RequestContext, viewer: Viewer): Promise<MemberRow[]> {
  if (!memberRecordAccess(viewer)) return [];
  return (await visibleMembers(context, viewer)).filter((m) => m.userId !== viewer.userId);
}

/**
 * The member a teammate's record view or write is for: a member whose records the viewer may open with `need`
 * (edit needs the team's "see and edit"). Anything else throws the same 404 as a record that does not exist.
 */
export async function recordsAgent(context: RequestContext, viewer: Viewer, agentId: string, need: "view" | "edit"): Promise<MemberRow> {
  const access = memberRecordAccess(viewer);
  if (!access || (need === "edit" && access !== "edit")) throw notFound();
  const member = (await recordsOfMembers(context, viewer)).find((m) => m.userId === agentId);
  if (!member) throw notFound();
  return member;
}

/**
 * SQL for a teammate's write in `agentId`'s records, re-read by the database in the write's own batch or statement:
 * the viewer still runs the team, the team still lets its managers edit members' records, and the agent is still in it.
 */
export function memberRecordsWriteSql(viewer: Viewer & { team: Membership }, agentId: string): SQL {
  const teamId = viewer.team.teamId;
  const allowed = sql`exists (select 1 from ${teams} where ${and(eq(teams.id, teamId), inArray(teams.memberRecords, ["edit"]))})`;
  return and(isMemberSql(teamId, viewer.userId, MANAGER_ROLES), isMemberSql(teamId, agentId), allowed)!;
}
