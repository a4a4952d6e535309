import type { LeadScoreFactor } from "~/db/schema";
import { LEAD_SCORE_BAND_LABELS, leadScoreBand, type LeadScoreBand } from "../lead-score";

const FILL: Record<LeadScoreBand, string> = {
  high: "bg-emerald-700 dark:bg-emerald-400",
  medium: "bg-yellow-700 dark:bg-yellow-400",
  low: "bg-stone-500 dark:bg-stone-400",
};

const FACTOR_NAMES: Record<LeadScoreFactor["key"], string> = {
  status: "Status",
  recency: "Recency",
  engagement: "Engagement",
  budget: "Budget",
  source: "Source",
  deals: "Deals",
  reachable: "Reachable",
};

const signed = (points: number) => (points < 0 ? `−${Math.abs(points)}` : `+${points}`);

/** "Why this score": the number, a meter, and each factor with the points it gave (the profile's #lead-score). */
export function LeadScorePanel({ score, factors, className = "" }: { score: number; factors: LeadScoreFactor[]; className?: string }) {
  const band = leadScoreBand(score);
  const bandLabel = LEAD_SCORE_BAND_LABELS[band];
  return (
    <section id="lead-score" aria-labelledby="lead-score-heading" className={`scroll-mt-24 ${className}`}>
      <div className="flex items-baseline justify-between gap-2">
        <h2 id="lead-score-heading" className="text-lg font-semibold">
          Lead score
        </h2>
        <p className="flex items-baseline gap-1">
          <span className="text-3xl font-bold tabular-nums">{score}</span>
          <span className="text-sm text-stone-600 dark:text-stone-400">of 100 · {bandLabel}</span>
        </p>
      </div>
      <div
        role="meter"
        aria-label="Lead score"
        aria-valuenow={score}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuetext={`${score} of 100, ${bandLabel.toLowerCase()}`}
        className="mt-2 h-2.5 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-700"
      >
        <div className={`h-full rounded-full ${FILL[band]}`} style={{ width: `${Math.min(100, Math.max(0, score))}%` }} />
      </div>
      {factors.length === 0 ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">
          Not scored yet: the score appears once this contact is saved again or within a few minutes.
        </p>
      ) : (
        <>
          <h3 className="mt-4 text-sm font-semibold">Why this score</h3>
          <ul aria-label="Score factors" className="mt-1 divide-y divide-stone-200 dark:divide-stone-800">
            {factors.map((factor) => (
              <li key={factor.key} className="flex items-baseline gap-3 py-1.5 text-sm">
                <span className="w-9 shrink-0 text-right font-semibold tabular-nums">{signed(factor.points)}</span>{" "}
                <span className="min-w-0 flex-1">{factor.reason}</span>{" "}
                <span className="shrink-0 text-xs text-stone-600 dark:text-stone-400">
                  {FACTOR_NAMES[factor.key]}, up to {factor.max}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">
        Status, recent activity, activities in the last 90 days, budget, source, open deals and contact details add up to at most 100. The score
        updates when any of them changes, and daily as time passes.
      </p>
    </section>
  );
}
