import { Form, useNavigation } from "@remix-run/react";
import { Button } from "~/components/ui/Button";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import { ONBOARDING_ACTION } from "../onboarding";
import { startTour, useTourOwner } from "../tour-store";

export interface OnboardingSettingsState {
  onboardingCompleted: boolean;
  onboardingSkipped: boolean;
  onboardingCompletedAt: Date | string | null;
  onboardingSkippedAt: Date | string | null;
}

function onboardingStatusText(state: OnboardingSettingsState, prefs: DisplayPreferences): string {
  // With both set, the later one says what happened; a tie is the welcome dialog's Skip, which sets completed
  // too (spec) and was still a skip.
  const time = (value: Date | string | null) => (value ? new Date(value).getTime() : 0);
  const skippedLast = state.onboardingSkipped && (!state.onboardingCompleted || time(state.onboardingSkippedAt) >= time(state.onboardingCompletedAt));
  if (skippedLast) return state.onboardingSkippedAt ? `Skipped on ${formatDate(state.onboardingSkippedAt, prefs)}.` : "Skipped.";
  if (state.onboardingCompleted)
    return state.onboardingCompletedAt ? `Completed on ${formatDate(state.onboardingCompletedAt, prefs)}.` : "Completed.";
  return "Not finished.";
}

/** Settings > Account: where onboarding stands, taking the tour again, and resetting it (spec: reset clears all four fields). */
export function OnboardingSettings({ state, prefs, className }: { state: OnboardingSettingsState; prefs: DisplayPreferences; className: string }) {
  const owner = useTourOwner();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === ONBOARDING_ACTION ? navigation.formData?.get("intent") : null;
  return (
    <section aria-labelledby="onboarding-heading" className={className}>
      <h2 id="onboarding-heading" className="text-lg font-semibold">
        Onboarding
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Welcome tour: <span className="font-medium text-stone-900 dark:text-stone-100">{onboardingStatusText(state, prefs)}</span>
      </p>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        Take the tour now, or reset onboarding so your dashboard offers it again while your account has no contacts, deals or tasks.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Form method="post" action={ONBOARDING_ACTION} onSubmit={() => startTour(owner)}>
          <Button type="submit" name="intent" value="start" busy={pending === "start"} busyLabel="Starting…">
            Take the tour
          </Button>
        </Form>
        <Form method="post" action={ONBOARDING_ACTION}>
          <Button type="submit" name="intent" value="reset" variant="secondary" busy={pending === "reset"} busyLabel="Resetting…">
            Reset onboarding
          </Button>
        </Form>
      </div>
    </section>
  );
}
