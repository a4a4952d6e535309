import { useLocation, useNavigate, useSubmit } from "@remix-run/react";
import { ArrowLeft, ArrowRight, Check } from "lucide-react";
import { useEffect, useRef } from "react";
import { Button } from "~/components/ui/Button";
import { ONBOARDING_ACTION, type OnboardingIntent } from "../onboarding";
import { TOUR_LENGTH, TOUR_STEPS, tourDestination } from "../tour";
import { endTour, setTourStep, takeTourFocusRequest, useTourOwner, useTourStep } from "../tour-store";

/**
 * The 8-step onboarding tour (spec "Onboarding tour"), rendered by the signed-in layout so it stays on
 * screen while Next and Previous move between pages. A non-modal panel: the page it describes stays
 * usable behind it. Skip and Complete Onboarding record the outcome and go to the dashboard.
 */
export function OnboardingTour() {
  const owner = useTourOwner();
  const step = useTourStep(owner);
  const location = useLocation();
  const navigate = useNavigate();
  const submit = useSubmit();
  const heading = useRef<HTMLHeadingElement>(null);

  // A start, Next or Previous moves focus to the step's title, so keyboard and screen-reader users follow.
  // Focus stays in the panel (not on the highlighted element) so Next and Previous remain a Tab away.
  useEffect(() => {
    if (step !== null && takeTourFocusRequest()) heading.current?.focus({ preventScroll: true });
  }, [step]);

  const target = step === null ? undefined : TOUR_STEPS[step - 1]?.target;
  useTourHighlight(target, location.pathname);

  if (step === null) return null;
  const current = TOUR_STEPS[step - 1]!;
  const last = step === TOUR_LENGTH;

  const go = (to: number) => {
    setTourStep(owner, to);
    const destination = tourDestination(to, location.pathname);
    if (destination) navigate(destination);
  };
  const finish = (intent: Extract<OnboardingIntent, "skip" | "complete">) => {
    endTour();
    submit({ intent }, { method: "post", action: ONBOARDING_ACTION });
  };

  return (
    <div
      role="dialog"
      aria-labelledby="onboarding-tour-title"
      aria-describedby="onboarding-tour-body"
      className="fixed inset-x-2 bottom-[4.5rem] z-50 rounded-2xl border border-stone-200 bg-white p-4 shadow-2xl md:inset-x-auto md:bottom-6 md:right-28 md:w-[26rem] dark:border-stone-700 dark:bg-stone-900"
    >
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-stone-600 dark:text-stone-400">
          Step {step} of {TOUR_LENGTH}
        </p>
        {last ? null : (
          <button
            type="button"
            onClick={() => finish("skip")}
            className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium text-stone-700 underline-offset-4 hover:underline dark:text-stone-300"
          >
            Skip
          </button>
        )}
      </div>
      <div
        role="progressbar"
        aria-label="Onboarding progress"
        aria-valuemin={1}
        aria-valuemax={TOUR_LENGTH}
        aria-valuenow={step}
        aria-valuetext={`Step ${step} of ${TOUR_LENGTH}`}
        className="mt-1 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
      >
        <div className="h-full rounded-full bg-brand-700 transition-[width] dark:bg-brand-400" style={{ width: `${(step / TOUR_LENGTH) * 100}%` }} />
      </div>
      <h2 id="onboarding-tour-title" ref={heading} tabIndex={-1} className="mt-3 text-lg font-semibold outline-none focus-visible:underline">
        {current.title}
      </h2>
      <p id="onboarding-tour-body" className="mt-1 text-stone-700 dark:text-stone-300">
        {current.body}
      </p>
      {current.target ? <p className="sr-only">The part of the page this step describes is outlined.</p> : null}
      <div className="mt-4 flex items-center justify-between gap-2">
        <Button type="button" variant="secondary" disabled={step === 1} onClick={() => go(step - 1)}>
          <ArrowLeft aria-hidden="true" className="h-5 w-5" />
          Previous
        </Button>
        {last ? (
          <Button type="button" onClick={() => finish("complete")}>
            <Check aria-hidden="true" className="h-5 w-5" />
            Complete Onboarding
          </Button>
        ) : (
          <Button type="button" onClick={() => go(step + 1)}>
            Next
            <ArrowRight aria-hidden="true" className="h-5 w-5" />
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * Outlines the element a step describes (its data-tour attribute; styled in app.css) and scrolls it into
 * view above the panel. The page may still be loading after Next navigated, so it waits for the element
 * (a DOM observer, given up after 5 s); the outline goes when the step or page changes.
 */
function useTourHighlight(target: string | undefined, pathname: string) {
  useEffect(() => {
    if (!target) return;
    let marked: Element | null = null;
    const mark = () => {
      const element = document.querySelector(`[data-tour="${target}"]`);
      if (!element) return false;
      marked = element;
      element.setAttribute("data-tour-active", "");
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      element.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
      return true;
    };
    let observer: MutationObserver | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (!mark()) {
      observer = new MutationObserver(() => {
        if (mark()) observer?.disconnect();
      });
      observer.observe(document.body, { childList: true, subtree: true });
      timer = setTimeout(() => observer?.disconnect(), 5_000);
    }
    return () => {
      observer?.disconnect();
      clearTimeout(timer);
      (marked as Element | null)?.removeAttribute("data-tour-active");
    };
  }, [target, pathname]);
}
