import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { redirectWithToast } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guards.server";
import { customerPortalUrl } from "~/modules/billing/details.server";

export function loader() {
  return redirect("/settings?tab=billing");
}

/** "Manage billing" / "Fix payment": the Stripe Customer Portal. Open to past-due and canceled accounts too. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const url = await customerPortalUrl(context, request, user).catch((error: unknown) => {
    console.error(JSON.stringify({ event: "portal_failed", userId: user.id, message: String(error) }));
    return null;
  });
  if (url) return redirect(url);
  return redirectWithToast(context, "/pricing?billing=expired", {
    title: "Billing management unavailable",
    description: "It could not be opened right now. Please try again, or write to hello@porchlight.app.",
    variant: "destructive",
  });
}
