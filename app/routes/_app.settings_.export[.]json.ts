import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { isoDateIn } from "~/lib/format";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { requireUser } from "~/modules/auth/guards.server";
import { chosenCategories, exportChunks } from "~/modules/data/export.server";
import { finishDataRequest, openDataRequest } from "~/modules/data/requests.server";
import { EXPORT_CATEGORIES } from "~/modules/data/tables";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";

function refuse(status: number, message: string) {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}

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
  const env = context.cloudflare.env;
  const limit = await hitRateLimit(env.KV, "data-export", user.id, RATE_LIMITS.dataExport);
  if (!limit.allowed) return refuse(429, `You have exported ${RATE_LIMITS.dataExport.limit} times this hour. Please try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`);

  const now = new Date();
  const prefs = await getDisplayPreferences(context, user.id);
  const labels = EXPORT_CATEGORIES.filter((c) => (categories as string[]).includes(c.key)).map((c) => c.label);
  const requestId = await openDataRequest(context.db, user.id, "portability", `Export (JSON): ${labels.join(", ")}`, now);
  const chunks = exportChunks({ db: env.DB, user, categories, now });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          await finishDataRequest(context.db, user.id, requestId, "completed", new Date());
          controller.close();
        } else {
          controller.enqueue(encoder.encode(next.value));
        }
      } catch (error) {
        console.error(JSON.stringify({ event: "data_export_failed", detail: error instanceof Error ? error.message : String(error) }));
        await finishDataRequest(context.db, user.id, requestId, "failed", new Date()).catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
      await finishDataRequest(context.db, user.id, requestId, "cancelled", new Date()).catch(() => undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-export-${isoDateIn(now, prefs.timezone)}.json"`,
      "Cache-Control": "private, no-store",
      "X-Export-Request": requestId,
    },
  });
}
