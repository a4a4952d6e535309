import * as z from "zod";

/** What the onboarding action route accepts (spec section 4 "Onboarding"). */
/** skip: the tour's Skip. dismiss: the welcome dialog's Skip (the spec's hook skip, which also sets completed). */
export const ONBOARDING_INTENTS = ["start", "skip", "dismiss", "complete", "reset"] as const;
export const OnboardingIntentSchema = z.object({
  intent: z.enum(ONBOARDING_INTENTS, { error: "Unknown onboarding action." }),
});
export type OnboardingIntent = z.infer<typeof OnboardingIntentSchema>["intent"];

/** Where the forms that drive onboarding post (app/routes/_app.onboarding.tsx). */
export const ONBOARDING_ACTION = "/onboarding";
