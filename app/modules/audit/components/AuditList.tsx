import { Link } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";

export interface AuditListLine {
  id: string;
  at: number;
  when: string;
  what: string;
  place: string;
  device: string;
}

/**
 * The audit log's rows as a list (a card per row on a phone, the same list wider on a desk): when, what (the sentence
 * names who), from where and on what. `nextHref` links the next page; `firstHref` goes back to the newest.
 */
export function AuditList({
  lines,
  label,
  nextHref,
  firstHref,
  empty,
}: {
  lines: readonly AuditListLine[];
  label: string;
  nextHref: string | null;
  firstHref: string | null;
  empty: string;
}) {
  if (lines.length === 0)
    return (
      <div className="flex flex-col gap-3">
        <p className="rounded-2xl border border-stone-200 bg-white p-5 text-stone-600 dark:border-stone-800 dark:bg-stone-900 dark:text-stone-300">
          {empty}
        </p>
        {firstHref ? (
          <Link to={firstHref} className={buttonClass("secondary")}>
            Back to the newest
          </Link>
        ) : null}
      </div>
    );
  return (
    <div className="flex flex-col gap-4">
      <ol
        aria-label={label}
        className="divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900"
      >
        {lines.map((line) => (
          <li key={line.id} className="flex flex-col gap-1 p-4 md:flex-row md:items-baseline md:gap-4">
            <time dateTime={new Date(line.at).toISOString()} className="shrink-0 text-sm text-stone-600 md:w-44 dark:text-stone-400">
              {line.when}
            </time>
            <p className="min-w-0 flex-1 wrap-anywhere">{line.what}</p>
            <p className="shrink-0 text-sm text-stone-600 md:w-56 md:text-right dark:text-stone-400">
              <span className="sr-only">From </span>
              {line.place} · {line.device}
            </p>
          </li>
        ))}
      </ol>
      <nav aria-label="Pages" className="flex flex-wrap gap-2">
        {firstHref ? (
          <Link to={firstHref} className={buttonClass("secondary")}>
            Newest
          </Link>
        ) : null}
        {nextHref ? (
          <Link to={nextHref} className={buttonClass("secondary")}>
            Older
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
