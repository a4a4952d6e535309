import { buttonClass } from "~/components/ui/Button";
import type { QueuedEntry } from "../local-copy.client";

/** The server's answers to changes made offline that did not go as made (a conflict, a refusal), until dismissed. */
export function ChangeAnswers({ answered, onDismiss }: { answered: readonly QueuedEntry[]; onDismiss: () => void }) {
  if (answered.length === 0) return null;
  return (
    <section
      aria-labelledby="change-answers-title"
      className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
    >
      <h2 id="change-answers-title" className="font-semibold text-amber-950 dark:text-amber-100">
        What happened to changes made offline
      </h2>
      <ul className="mt-2 space-y-2 text-sm text-amber-950 dark:text-amber-100">
        {answered.map((entry) => (
          <li key={entry.seq}>
            <span className="font-medium">{entry.label}:</span> {entry.message}
          </li>
        ))}
      </ul>
      <button type="button" className={buttonClass("secondary", "mt-3")} onClick={onDismiss}>
        Got it
      </button>
    </section>
  );
}
