import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { TWO_FACTOR_PATH } from "~/modules/auth/guards.server";
import { secondStepPasskeyOptions } from "~/modules/auth/second-factor.server";

// The second step's "Use your passkey" asks here for navigator.credentials.get()'s options: a fresh one-use challenge,
// bound to this browser's pending sign-in. Without one (expired, used) there is nothing to sign: 401.

export const loader = () => redirect(TWO_FACTOR_PATH);

export async function action({ request, context }: ActionFunctionArgs) {
  const options = await secondStepPasskeyOptions(context, request);
  if (!options) return Response.json({ error: "Sign in again: this sign-in has expired." }, { status: 401 });
  return Response.json(options, { headers: { "Cache-Control": "no-store" } });
}
