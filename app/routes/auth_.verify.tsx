import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { redirectWithToast } from "~/lib/toast.server";
import { verifyEmail } from "~/modules/auth/accounts.server";
import { getUser, VERIFY_EMAIL_PATH } from "~/modules/auth/guards.server";

const FAILURE = {
  invalid: "This confirmation link is not valid. Ask for a new one below.",
  expired: "This confirmation link has expired. Ask for a new one below.",
  used: "This confirmation link was already used.",
} as const;

/** The link in the confirmation e-mail lands here. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const result = await verifyEmail(context, token);
  const user = await getUser(request, context);
  if (!result.ok) {
    if (user?.emailVerified) return redirectWithToast(context, "/dashboard", { title: "E-mail already confirmed", variant: "success" });
    return redirectWithToast(context, user ? VERIFY_EMAIL_PATH : "/auth", {
      title: "Link not valid",
      description: FAILURE[result.reason],
      variant: "destructive",
    });
  }
  // Signed in on this device: carry on (the billing guard sends a new account to start its trial).
  if (user && user.id === result.userId) {
    return redirectWithToast(context, "/dashboard", { title: "E-mail confirmed", description: "Thanks! Your account is ready.", variant: "success" });
  }
  return redirectWithToast(context, "/auth", {
    title: "E-mail confirmed",
    description: "Sign in to continue.",
    variant: "success",
  });
}
