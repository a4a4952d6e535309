import { Link } from "@remix-run/react";
import { formatCentsWhole, type DisplayPreferences } from "~/lib/format";
import type { Dashboard } from "../metrics";

/** Open stages in pipeline order: deals, value and weighted value, with a bar of each stage's share of the value. */
export function PipelineOverview({ stages, prefs }: { stages: Dashboard["pipeline"]; prefs: DisplayPreferences }) {
  return (
    <ul className="flex flex-col gap-3">
      {stages.map((stage) => (
        <li key={stage.key}>
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <Link
              to={`/pipeline?view=list&stage=${encodeURIComponent(stage.key)}`}
              className="inline-flex min-h-8 items-center gap-2 font-medium underline-offset-4 hover:underline"
            >
              <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full" style={{ backgroundColor: stage.color }} />
              {stage.name}{" "}
              <span className="text-sm font-normal text-stone-600 dark:text-stone-400">
                {stage.count} {stage.count === 1 ? "deal" : "deals"}
              </span>
            </Link>
            <span className="text-sm tabular-nums">
              <span className="font-semibold">{formatCentsWhole(stage.valueCents, prefs)}</span>
              <span className="text-stone-600 dark:text-stone-400"> · weighted {formatCentsWhole(stage.weightedCents, prefs)}</span>
            </span>
          </div>
          <div aria-hidden="true" className="mt-1 h-2 rounded-full bg-stone-100 dark:bg-stone-800">
            <div className="h-2 rounded-full" style={{ width: `${stage.barPct}%`, backgroundColor: stage.color }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
