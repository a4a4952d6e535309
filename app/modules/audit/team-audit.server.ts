import type { RequestContext } from "~/lib/context.server";
import { csvResponse } from "~/lib/csv-response";
import { isoDateIn } from "~/lib/format";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { requireTeamManager } from "~/modules/team/guard.server";
import { listMembers } from "~/modules/team/team.server";
import { AUDIT_GROUPS } from "./catalogue";
import { auditCsv, auditLinesForCsv, auditPage, readAuditQuery, securityScope } from "./log.server";

// The team's audit log (/team/audit and its CSV) for the owner and admins, and the user's own security events.

/** /team/audit: a page of the team's log with the filter, the members to filter by and the next page's cursor. */
export async function loadTeamAudit(request: Request, context: RequestContext) {
  const { user, team } = await requireTeamManager(request, context);
  const url = new URL(request.url);
  const { filter, after } = readAuditQuery(url);
  const [prefs, members] = await Promise.all([getDisplayPreferences(context, user.id), listMembers(context, team.teamId)]);
  const page = await auditPage(context, { teamId: team.teamId }, filter, prefs, after);
  const query = new URLSearchParams();
  if (filter.group) query.set("group", filter.group);
  if (filter.member) query.set("member", filter.member);
  return {
    teamName: team.teamName,
    filter,
    groups: AUDIT_GROUPS,
    members: members.map((m) => ({ id: m.userId, name: m.name })),
    lines: page.lines,
    next: page.next,
    first: after !== null,
    query: query.toString(),
    timezone: prefs.timezone,
  };
}

/** /team/audit.csv: every row of the same filter, as the pages show them. */
export async function teamAuditCsv(request: Request, context: RequestContext): Promise<Response> {
  const { user, team } = await requireTeamManager(request, context);
  const { filter } = readAuditQuery(new URL(request.url));
  const prefs = await getDisplayPreferences(context, user.id);
  const lines = await auditLinesForCsv(context, { teamId: team.teamId }, filter, prefs);
  return csvResponse(auditCsv(lines), `porchlight-team-audit-${isoDateIn(new Date(), prefs.timezone)}.csv`);
}

/** Settings → Security: the user's own events of the last 90 days, 50 a page. */
export async function loadSecurityEvents(context: RequestContext, userId: string, after: string | null) {
  const prefs = await getDisplayPreferences(context, userId as never);
  return auditPage(context, securityScope(userId, Date.now()), { group: null, member: null }, prefs, after);
}

/** Settings → Security as CSV. */
export async function securityCsv(context: RequestContext, userId: string): Promise<Response> {
  const prefs = await getDisplayPreferences(context, userId as never);
  const lines = await auditLinesForCsv(context, securityScope(userId, Date.now()), { group: null, member: null }, prefs);
  return csvResponse(auditCsv(lines), `porchlight-security-${isoDateIn(new Date(), prefs.timezone)}.csv`);
}
