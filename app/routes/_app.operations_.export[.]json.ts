import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { findUserByEmail } from "~/modules/auth/accounts.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { exportResponse, refuse } from "~/modules/data/export.server";
import { EXPORT_CATEGORY_KEYS } from "~/modules/data/tables";

export async function loader({ request, context }: ActionFunctionArgs) {
  await requireAdmin(request, context);
  return redirect("/operations?tab=compliance");
}

/**
 * POST /operations/export.json (email=…): an admin exports everything of the agent with that e-mail, for a
 * request that came by e-mail (Operations Center → Compliance). Recorded on the agent as an access request
 * naming the admin. Admins only (404 for everyone else, like the rest of the Operations Center).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const admin = await requireAdmin(request, context);
  const email = (await readForm(request)).get("email");
  if (typeof email !== "string" || !email.trim()) return refuse(400, "Enter the e-mail address of the account to export.");
  const limit = await hitRateLimit(context.cloudflare.env.KV, "data-export", admin.id, RATE_LIMITS.dataExport);
  if (!limit.allowed)
    return refuse(
      429,
      `You have exported ${RATE_LIMITS.dataExport.limit} times this hour. Please try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`,
    );
  const subject = await findUserByEmail(context, email);
  if (!subject) return refuse(404, "There is no account with that e-mail address.");
  return exportResponse(context, subject, EXPORT_CATEGORY_KEYS, {
    type: "access",
    description: `Export (JSON) of everything, by ${admin.email} for a request by e-mail`,
  });
}
