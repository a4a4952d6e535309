import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { redirectWithToast } from "~/lib/toast.server";
import { signOut, signOutEverywhere } from "~/modules/auth/accounts.server";
import { getUser } from "~/modules/auth/guards.server";
import { readForm } from "~/lib/body.server";

export function loader() {
  // Sign-out changes state, so it is a POST (a link or prefetch must not sign anyone out).
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readForm(request);
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
