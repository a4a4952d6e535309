import { Info } from "lucide-react";
import { useId, useRef, useState, type KeyboardEvent } from "react";
import { METRIC_DEFINITIONS, type MetricKey } from "../metrics";

/**
 * "How is this counted?": a disclosure button (top right of the nearest positioned card) and the metric's
 * definition, shown in the card's flow when opened. Escape closes it and returns focus to the button.
 */
export function MetricDefinition({ metric }: { metric: MetricKey }) {
  return <Definition {...METRIC_DEFINITIONS[metric]} />;
}

/** The same disclosure for any figure with a label and a definition (Reports has its own list of them). */
export function Definition({ label, definition }: { label: string; definition: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !open) return;
    event.preventDefault();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onKeyDown}
        className="absolute right-1 top-1 inline-flex h-10 w-10 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 hover:text-stone-900 aria-expanded:bg-stone-100 aria-expanded:text-stone-900 dark:text-stone-400 dark:hover:bg-stone-800 dark:hover:text-stone-100 dark:aria-expanded:bg-stone-800 dark:aria-expanded:text-stone-100"
      >
        <Info aria-hidden="true" className="h-4 w-4" />
        <span className="sr-only">{`How ${label} is counted`}</span>
      </button>
      <p id={id} hidden={!open} className="mt-2 rounded-lg bg-stone-100 p-2 text-sm text-stone-800 dark:bg-stone-800 dark:text-stone-200">
        {definition}
      </p>
    </>
  );
}
