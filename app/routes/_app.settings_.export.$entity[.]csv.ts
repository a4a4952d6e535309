import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { recordExport } from "~/modules/audit/exports.server";
import { isoDateIn } from "~/lib/format";
import { requireUser } from "~/modules/auth/guards.server";
import { csvStream, isCsvEntity } from "~/modules/data/csv-exports.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";

/**
 * /settings/export/<deals|tasks|activities>.csv: every one of the agent's rows of that kind as a spreadsheet,
 * streamed a page at a time (Settings → Data). Like the JSON export, open to any signed-in agent.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const entity = params.entity ?? "";
  if (!isCsvEntity(entity))
    throw new Response("There is no export by that name.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  await recordExport(context, request, user, `${entity} (CSV)`);
  const [prefs, stages] = await Promise.all([getDisplayPreferences(context, user.id), getStages(context, user.id)]);
  const body = csvStream(context.cloudflare.env.DB, user.id, entity, { stages, timezone: prefs.timezone });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-${entity}-${isoDateIn(new Date(), prefs.timezone)}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
