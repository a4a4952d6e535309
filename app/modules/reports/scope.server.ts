import type { RequestContext } from "~/lib/context.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { teamOf } from "~/modules/team/guard.server";
import { agentInView, seesWholeTeam, visibleMembers } from "~/modules/team/visibility.server";
import { withoutLinks } from "./build.server";
import { loadReports } from "./reports.server";

/**
 * The reports a request asks for: the agent's own, or on the Team plan, for an owner or admin, any member's
 * (`?agent=<id>`, the rule in team/visibility.server.ts; anyone else asking for another agent gets 404). The page
 * and its CSV downloads both come through here.
 */
export async function loadReportsInView(request: Request, context: RequestContext) {
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const viewer = { userId: user.id, team: await teamOf(context, user) };
  const scope = await agentInView(context, viewer, params.get("agent"));
  const [reports, members] = await Promise.all([
    loadReports(context, scope.agentId, params),
    seesWholeTeam(viewer) ? visibleMembers(context, viewer) : Promise.resolve([]),
  ]);
  return {
    ...(scope.self ? reports : withoutLinks(reports)),
    me: user.id,
    agent: scope.self ? null : { id: scope.agentId as string, name: scope.name ?? "" },
    members: members.map((m) => ({ id: m.userId, name: m.name })),
  };
}
