import { formatDate, formatTime, type DisplayPreferences } from "~/lib/format";
import type { QaRunRow } from "../dashboard.server";
import { passRate, releaseVerdict } from "../report";

const SUITE_LABEL = { system: "System checks", ai: "AI QA suite" } as const;

/** Past runs of both suites, each labelled with its suite, its pass rate and (system checks) its verdict. */
export function QaRunHistory({ runs, prefs, className }: { runs: QaRunRow[]; prefs: DisplayPreferences; className: string }) {
  return (
    <section aria-labelledby="qa-history-heading" className={className}>
      <h2 id="qa-history-heading" className="text-lg font-semibold">
        Past runs
      </h2>
      {runs.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">None yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-stone-200 text-sm dark:divide-stone-800">
          {runs.map((r) => {
            const ran = r.passed + r.failed;
            const outcome =
              r.status === "completed"
                ? `${passRate(r.passed, ran)}${r.skipped ? `, ${r.skipped} skipped` : ""})${r.suite === "system" ? ` · ${releaseVerdict({ failed: r.failed, critical: r.criticalFailed, criticalSkipped: r.criticalSkipped }).headline}` : ""}`
                : r.status === "running"
                  ? "Running"
                  : "Stopped before the end";
            return (
              <li key={r.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                <span>
                  <span className="font-semibold">{SUITE_LABEL[r.suite]}</span>
                  {` · ${formatDate(r.startedAt, prefs)} ${formatTime(r.startedAt, prefs)}`}
                </span>
                <span>{outcome}</span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
