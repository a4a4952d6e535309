import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { dispatchResourceIntent } from "~/lib/intents.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { apiKeyAction } from "~/modules/intake/api-keys.server";

// Settings → Lead sources → API keys post here: make a key (answered once, in JSON) or revoke one of the agent's own.

export const loader = () => redirect("/settings?tab=leads");

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchResourceIntent(form, {
    create: () => apiKeyAction(context, user.id, "create", form),
    revoke: () => apiKeyAction(context, user.id, "revoke", form),
  });
}
