import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { redirectWithToast } from "~/lib/toast.server";
import { signOut, signOutEverywhere } from "~/modules/auth/accounts.server";
import { getUser } from "~/modules/auth/guards.server";
import { readForm } from "~/lib/body.server";
import { SIGN_OUT_EVERYWHERE_CONFIRM } from "~/modules/auth/auth.schema";

export function loader() {
  // Sign-out changes state, so it is a POST (a link or prefetch must not sign anyone out).
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
  // Signing out every device cannot be taken back: it needs the dialog's confirmation, or it changes nothing.
  if (form.get("scope") === "everywhere" && form.get("confirm") !== SIGN_OUT_EVERYWHERE_CONFIRM) {
    return new Response("Confirm signing out everywhere: every device signed in to your account is signed out, this one included.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const user = await getUser(request, context);
  const everywhere = form.get("scope") === "everywhere" && user;
  const cookie = everywhere ? await signOutEverywhere(context, request, user.id) : await signOut(context, request);
  return redirectWithToast(
    context,
    "/auth",
    everywhere
      ? { title: "Signed out everywhere", description: "Every device signed in to your account has been signed out." }
      : { title: "Signed out", description: "See you soon." },
    { "Set-Cookie": cookie },
  );
}
