import { userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { OnboardingFlags } from "./onboarding";

// The onboarding fields of user_preferences (spec sections 3 and 4), always the signed-in user's row.
// Writes are upserts: an account made before its preferences row existed still gets one.

export interface OnboardingState extends OnboardingFlags {
  onboardingCompletedAt: Date | null;
  onboardingSkippedAt: Date | null;
}

const NOT_STARTED: OnboardingState = { onboardingCompleted: false, onboardingSkipped: false, onboardingCompletedAt: null, onboardingSkippedAt: null };

export async function getOnboardingState(context: RequestContext, userId: UserId): Promise<OnboardingState> {
  const row = await context.db
    .select({
      onboardingCompleted: userPreferences.onboardingCompleted,
      onboardingSkipped: userPreferences.onboardingSkipped,
      onboardingCompletedAt: userPreferences.onboardingCompletedAt,
      onboardingSkippedAt: userPreferences.onboardingSkippedAt,
    })
    .from(userPreferences)
    .where(ownedBy(userPreferences, userId))
    .get();
  return row ?? NOT_STARTED;
}

async function write(context: RequestContext, userId: UserId, fields: Partial<OnboardingState>) {
  await context.db
    .insert(userPreferences)
    .values({ userId, ...fields })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...fields, updatedAt: new Date() } });
}

/** The tour's Skip: skipped, with the time. */
export function skipOnboarding(context: RequestContext, userId: UserId, now = new Date()) {
  return write(context, userId, { onboardingSkipped: true, onboardingSkippedAt: now });
}

/** The welcome dialog's Skip (spec: "the hook's skip also sets completed"): skipped and completed, with the time. */
export function dismissOnboarding(context: RequestContext, userId: UserId, now = new Date()) {
  return write(context, userId, { onboardingSkipped: true, onboardingSkippedAt: now, onboardingCompleted: true, onboardingCompletedAt: now });
}

/** 'Complete Onboarding' on the last step: completed, with the time. */
export function completeOnboarding(context: RequestContext, userId: UserId, now = new Date()) {
  return write(context, userId, { onboardingCompleted: true, onboardingCompletedAt: now });
}

/**
 * Reset clears all four fields, so onboarding counts as not finished again. Starting the tour does the
 * same: while it runs onboarding is not finished, and a tour left half-way is offered again.
 */
export function resetOnboarding(context: RequestContext, userId: UserId) {
  return write(context, userId, NOT_STARTED);
}
