import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { requireSubscriber, SECURITY_PATH } from "~/modules/auth/guards.server";
import { passkeyRegistrationOptions } from "~/modules/auth/passkeys.server";

// "Add a passkey" asks here for the options of navigator.credentials.create(): a fresh one-use challenge, kept for the user.

export const loader = () => redirect(SECURITY_PATH);

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return Response.json(await passkeyRegistrationOptions(context, request, user), { headers: { "Cache-Control": "no-store" } });
}
