import type { ReportResult } from "../report";

const STATUS_TEXT = { passed: "Passed", failed: "Failed", skipped: "Skipped" } as const;
const STATUS_CLASS = {
  passed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  skipped: "bg-stone-200 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
} as const;

/** A run's results by suite: status, criticality, name, time and details of each check. */
export function QaResultList({ results, running }: { results: ReportResult[]; running: boolean }) {
  const suites = [...new Set(results.map((r) => r.suite))];
  return (
    <div className="flex flex-col gap-6">
      {suites.map((suite) => (
        <div key={suite}>
          <h3 className="mb-2 text-lg font-semibold">{suite}</h3>
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {results
              .filter((r) => r.suite === suite)
              .map((r) => (
                <li key={r.name} className="py-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className={`rounded-full px-2 py-0.5 text-sm font-semibold ${STATUS_CLASS[r.status]}`}>{STATUS_TEXT[r.status]}</span>
                    {r.critical ? (
                      <span className="rounded-full border border-stone-400 px-2 py-0.5 text-xs font-medium dark:border-stone-500">Critical</span>
                    ) : null}
                    <span className="font-medium">{r.name}</span>
                    <span className="text-sm tabular-nums text-stone-600 dark:text-stone-400">{r.ms} ms</span>
                  </div>
                  <p className="mt-1 break-words text-sm text-stone-700 dark:text-stone-300">{r.details}</p>
                </li>
              ))}
          </ul>
        </div>
      ))}
      {running ? <p className="text-sm text-stone-600 dark:text-stone-400">More results arrive as each check finishes.</p> : null}
    </div>
  );
}
