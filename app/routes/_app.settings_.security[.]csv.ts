import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/modules/auth/guards.server";
import { securityCsv } from "~/modules/audit/team-audit.server";

/** /settings/security.csv: the signed-in user's own security events of the last 90 days. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return securityCsv(context, user.id);
}
