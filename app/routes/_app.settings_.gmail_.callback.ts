import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { callbackFromGoogle } from "~/modules/gmail/gmail-settings.server";

// Google sends the browser back here after the consent page (OAuth redirect URI): connected, or why not, on the tab.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return callbackFromGoogle(context, request, user.id);
}
