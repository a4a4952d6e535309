import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { OnboardingIntentSchema } from "~/modules/onboarding/onboarding.schema";
import { completeOnboarding, dismissOnboarding, resetOnboarding, skipOnboarding } from "~/modules/onboarding/onboarding.server";
import { readForm } from "~/lib/body.server";

// Action only: the onboarding dialog, the tour and Settings post here. Always the signed-in user's own
// preferences; nothing the browser sends names a user.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const parsed = OnboardingIntentSchema.safeParse(Object.fromEntries(await readForm(request)));
  // A plain Response: this route has no page, and Remix passes a resource route's Response through as is.
  if (!parsed.success) return Response.json({ ok: false, error: parsed.error.issues[0]?.message ?? "Unknown onboarding action." }, { status: 400 });

  switch (parsed.data.intent) {
    case "start":
      // The browser shows the tour from step 1; until it is completed or skipped it is not finished.
      await resetOnboarding(context, user.id);
      return redirect("/dashboard");
    case "skip":
    case "dismiss":
      await (parsed.data.intent === "skip" ? skipOnboarding : dismissOnboarding)(context, user.id);
      return redirectWithToast(context, "/dashboard", { title: "Tour skipped", description: "You can take it any time from Settings." });
    case "complete":
      await completeOnboarding(context, user.id);
      return redirectWithToast(context, "/dashboard", {
        title: "Onboarding complete",
        description: "You can take the tour again from Settings.",
        variant: "success",
      });
    case "reset":
      await resetOnboarding(context, user.id);
      return redirectWithToast(context, "/settings", {
        title: "Onboarding reset",
        description: "Your dashboard offers the tour again while your account has no contacts, deals or tasks.",
        variant: "success",
      });
  }
}
