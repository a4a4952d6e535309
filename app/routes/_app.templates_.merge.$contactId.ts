import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { mergeValuesFor } from "~/modules/templates/templates.server";

/** What one of the agent's contacts fills a template with: the editors' live preview and the send dialog read it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const values = await mergeValuesFor(context, user.id, params.contactId ?? "");
  // Someone else's contact and one that does not exist look the same.
  if (!values) return Response.json({ error: "No such contact." }, { status: 404 });
  return Response.json({ values }, { headers: { "Cache-Control": "private, no-store" } });
}
