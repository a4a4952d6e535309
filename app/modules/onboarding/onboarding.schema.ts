import * as z from "zod";
import { ONBOARDING_INTENTS } from "./onboarding";

/** What the onboarding action route accepts (spec section 4 "Onboarding"). */
export const OnboardingIntentSchema = z.object({
  intent: z.enum(ONBOARDING_INTENTS, { error: "Unknown onboarding action." }),
});
