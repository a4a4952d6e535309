import { Form, useNavigation } from "@remix-run/react";
import { Compass } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { ONBOARDING_ACTION } from "../onboarding";
import { readTourStep, startTour, useTourOwner } from "../tour-store";

/**
 * The welcome that offers the tour (spec: "On /dashboard an onboarding dialog appears when onboarding
 * should show"). The dashboard renders it only when `onboardingDue` says so. Start tour opens the 8-step
 * tour; Skip records the choice; Esc or Close only puts it away until the next visit.
 */
export function OnboardingDialog() {
  const dialog = useRef<HTMLDialogElement>(null);
  const owner = useTourOwner();
  const navigation = useNavigation();
  const skipping = navigation.state !== "idle" && navigation.formAction === ONBOARDING_ACTION && navigation.formData?.get("intent") === "dismiss";

  // Opens once the page is interactive, unless a tour is already running (it came back to the dashboard).
  useEffect(() => {
    if (readTourStep(owner) === null && !dialog.current?.open) dialog.current?.showModal();
  }, [owner]);

  return (
    <Modal ref={dialog} id="onboarding-welcome" title="Take a quick tour?">
      <div className="flex flex-col items-center gap-3 text-center">
        <Compass aria-hidden="true" className="h-10 w-10 text-brand-700 dark:text-brand-400" />
        <p className="text-stone-700 dark:text-stone-300">
          Take a short tour of your dashboard, contacts, pipeline, AI assistant and tasks. It shows where everything is, one step at a time, and you
          can leave it whenever you like.
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">You can take the tour later from Settings.</p>
      </div>
      <Form method="post" action={ONBOARDING_ACTION} className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="submit" name="intent" value="dismiss" variant="secondary" busy={skipping} busyLabel="Skipping…">
          Skip
        </Button>
        <Button
          type="button"
          onClick={() => {
            dialog.current?.close();
            startTour(owner);
          }}
        >
          Start tour
        </Button>
      </Form>
    </Modal>
  );
}
