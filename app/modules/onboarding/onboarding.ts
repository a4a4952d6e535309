// Spec section 4: the onboarding dialog shows only when the user has no contact, deal or task and has
// neither completed nor skipped onboarding. Pure, so the dashboard can decide from the figures it
// already loads in its one round of queries.

export interface OnboardingCounts {
  contacts: number;
  deals: number;
  tasks: number;
}

export interface OnboardingFlags {
  onboardingCompleted: boolean;
  onboardingSkipped: boolean;
}

export function onboardingDue(counts: OnboardingCounts, flags: OnboardingFlags | undefined | null): boolean {
  if (flags?.onboardingCompleted || flags?.onboardingSkipped) return false;
  return counts.contacts === 0 && counts.deals === 0 && counts.tasks === 0;
}

/**
 * What the onboarding action route (/onboarding) accepts, one handler each. skip: the tour's Skip. dismiss: the
 * welcome dialog's Skip (the spec's hook skip, which also sets completed).
 */
export type OnboardingIntent = "start" | "skip" | "dismiss" | "complete" | "reset";

/** Where the forms that drive onboarding post (app/routes/_app.onboarding.tsx). */
export const ONBOARDING_ACTION = "/onboarding";
