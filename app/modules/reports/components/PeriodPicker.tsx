import { Form, Link } from "@remix-run/react";
import { buttonClass } from "~/components/ui/Button";
import { PERIOD_KEYS, PERIOD_LABELS, type Period } from "../periods";

/**
 * The period links, the custom range form and the reason a request fell back to This month: one picker for Reports
 * and the team leaderboard. `keep` holds other query parameters the page must keep (the agent a report is about).
 */
export function PeriodPicker({
  path,
  period,
  keep = {},
}: {
  path: string;
  period: Pick<Period, "key" | "from" | "to" | "problem">;
  keep?: Record<string, string>;
}) {
  const kept = Object.entries(keep);
  const href = (key: string) => `${path}?${new URLSearchParams([...kept, ["period", key]]).toString()}`;
  return (
    <>
      <nav aria-label="Report period" className="relative -mx-4 mb-3 flex gap-2 overflow-x-auto px-4 pb-1 print:hidden">
        {PERIOD_KEYS.filter((key) => key !== "custom").map((key) => (
          <Link
            key={key}
            to={href(key)}
            preventScrollReset
            aria-current={period.key === key ? "page" : undefined}
            className={`inline-flex min-h-12 shrink-0 items-center rounded-full px-4 text-sm font-medium ${
              period.key === key
                ? "bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950"
                : "border border-stone-300 bg-white text-stone-800 hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-200 dark:hover:bg-stone-800"
            }`}
          >
            {PERIOD_LABELS[key]}
          </Link>
        ))}
      </nav>
      <Form method="get" action={path} aria-label="Custom range" className="mb-4 flex flex-wrap items-end gap-2 print:hidden">
        {kept.map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <input type="hidden" name="period" value="custom" />
        <label className="flex flex-col text-sm font-medium">
          From
          <input
            type="date"
            name="from"
            required
            defaultValue={period.from}
            className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <label className="flex flex-col text-sm font-medium">
          To
          <input
            type="date"
            name="to"
            required
            defaultValue={period.to}
            className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <button type="submit" aria-current={period.key === "custom" ? "page" : undefined} className={buttonClass("secondary")}>
          Show custom range
        </button>
      </Form>
      {period.problem ? (
        <p
          role="alert"
          className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
        >
          {period.problem}
        </p>
      ) : null}
    </>
  );
}
