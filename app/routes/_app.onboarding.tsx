import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { readForm } from "~/lib/body.server";
import { dispatchResourceIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import type { OnboardingIntent } from "~/modules/onboarding/onboarding";
import { completeOnboarding, dismissOnboarding, resetOnboarding, skipOnboarding } from "~/modules/onboarding/onboarding.server";

const TOUR_SKIPPED = { title: "Tour skipped", description: "You can take it any time from Settings." };

// Action only: the onboarding dialog, the tour and Settings post here. Always the signed-in user's own
// preferences; nothing the browser sends names a user.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const handlers: Record<OnboardingIntent, () => Promise<Response>> = {
    start: async () => {
      // The browser shows the tour from step 1; until it is completed or skipped it is not finished.
      await resetOnboarding(context, user.id);
      return redirect("/dashboard");
    },
    skip: async () => {
      await skipOnboarding(context, user.id);
      return redirectWithToast(context, "/dashboard", TOUR_SKIPPED);
    },
    dismiss: async () => {
      await dismissOnboarding(context, user.id);
      return redirectWithToast(context, "/dashboard", TOUR_SKIPPED);
    },
    complete: async () => {
      await completeOnboarding(context, user.id);
      return redirectWithToast(context, "/dashboard", {
        title: "Onboarding complete",
        description: "You can take the tour again from Settings.",
        variant: "success",
      });
    },
    reset: async () => {
      await resetOnboarding(context, user.id);
      return redirectWithToast(context, "/settings", {
        title: "Onboarding reset",
        description: "Your dashboard offers the tour again while your account has no contacts, deals or tasks.",
        variant: "success",
      });
    },
  };
  return dispatchResourceIntent(await readForm(request), handlers);
}
