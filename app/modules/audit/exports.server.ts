import type { RequestContext } from "~/lib/context.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getMembership } from "~/modules/team/team.server";
import { auditPerson, auditWhere, recordAudit } from "./audit.server";

/**
 * An export of the user's data (the JSON export, the contacts, deals, tasks and activities CSVs): one row when it is
 * asked for (the file streams after), in the user's team's log when they are in a team and on their own Security page
 * either way. Reports' CSVs are figures, not the records: not audited (ADR 0073).
 */
export async function recordExport(context: RequestContext, request: Request, user: Pick<SessionUser, "id">, what: string): Promise<void> {
  const [membership, me] = await Promise.all([getMembership(context, user.id), auditPerson(context.db, user.id)]);
  await recordAudit(context, {
    action: "data.exported",
    teamId: membership?.teamId ?? null,
    actor: me,
    subject: me,
    target: { type: "export", id: null, label: what },
    where: auditWhere(request),
    at: Date.now(),
  });
}
