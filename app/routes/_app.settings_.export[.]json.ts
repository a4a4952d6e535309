import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { recordExport } from "~/modules/audit/exports.server";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { requireUser } from "~/modules/auth/guards.server";
import { categoryLabels, chosenCategories, exportResponse, refuse } from "~/modules/data/export.server";

/** The export is asked for with a POST from Settings → Data; a GET (a bookmark, a typed URL) goes there. */
export function loader() {
  return redirect("/settings?tab=data");
}

/**
 * POST /settings/export.json (category=contacts&category=deals…): everything the agent owns in the chosen
 * categories, as one JSON file named with the agent's date (spec section 9), streamed a page of rows at a time.
 * Signed-in agents only, whatever their billing state: the terms promise the export "whenever you like". Each
 * export is recorded as a portability request, completed when the last byte is written.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const categories = chosenCategories((await readForm(request)).getAll("category"));
  if (categories.length === 0) return refuse(400, "Choose at least one category to export.");
  const limit = await hitRateLimit(context.cloudflare.env.KV, "data-export", user.id, RATE_LIMITS.dataExport);
  if (!limit.allowed)
    return refuse(
      429,
      `You have exported ${RATE_LIMITS.dataExport.limit} times this hour. Please try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`,
    );
  await recordExport(context, request, user, `${categoryLabels(categories)} (JSON)`);
  return exportResponse(context, user, categories, { type: "portability", description: `Export (JSON): ${categoryLabels(categories)}` });
}
