import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { dispatchResourceIntent } from "~/lib/intents.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { connectFromSettings, disconnectFromSettings, EMAIL_TAB } from "~/modules/gmail/gmail-settings.server";

// Settings → E-mail posts here: "Connect Gmail" (off to Google's consent page) or "Disconnect".

export const loader = () => redirect(EMAIL_TAB);

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  return dispatchResourceIntent(form, {
    connect: () => connectFromSettings(context, request, user.id),
    disconnect: () => disconnectFromSettings(context, user.id),
  });
}
