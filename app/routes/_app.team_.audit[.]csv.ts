import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { teamAuditCsv } from "~/modules/audit/team-audit.server";

/** /team/audit.csv?group=&member=: the team's audit log as the page filters it, for the owner and admins (404 to others). */
export function loader({ request, context }: LoaderFunctionArgs) {
  return teamAuditCsv(request, context);
}
