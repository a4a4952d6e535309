import { Link } from "@remix-run/react";
import { LEAD_SCORE_BAND_LABELS, leadScoreBand, type LeadScoreBand } from "../lead-score";

// The band is written out next to the number, so colour is never the only signal. Each pair keeps at least
// 4.5:1 between text and background, in light and in dark.
const BADGE_STYLE: Record<LeadScoreBand, string> = {
  high: "border-emerald-700 bg-emerald-50 text-emerald-900 dark:border-emerald-400 dark:bg-emerald-950 dark:text-emerald-100",
  medium: "border-yellow-700 bg-yellow-50 text-yellow-900 dark:border-yellow-400 dark:bg-yellow-950 dark:text-yellow-100",
  low: "border-stone-500 bg-stone-50 text-stone-800 dark:border-stone-400 dark:bg-stone-800 dark:text-stone-100",
};

/** The link's name starts with what it shows ("92 High"), so a voice user can say what they see (WCAG 2.5.3). */
function leadScoreLabel(score: number) {
  return `${score} ${LEAD_SCORE_BAND_LABELS[leadScoreBand(score)]}, lead score out of 100`;
}

/**
 * The score as a small badge that opens the profile's "why this score" section. `touch`: the link is 44 px
 * tall around the same badge, for the phone's cards.
 */
export function LeadScoreBadge({ contactId, score, touch = false }: { contactId: string; score: number; touch?: boolean }) {
  const band = leadScoreBand(score);
  const badge = `inline-flex min-h-6 shrink-0 items-center gap-1 rounded-md border px-1.5 text-xs font-semibold ${BADGE_STYLE[band]}`;
  const content = (
    <>
      <span className="tabular-nums">{score}</span>
      <span aria-hidden="true" className="font-medium">
        {LEAD_SCORE_BAND_LABELS[band]}
      </span>
    </>
  );
  return (
    <Link
      to={`/contacts/${contactId}#lead-score`}
      aria-label={leadScoreLabel(score)}
      title="Why this score"
      className={touch ? "group inline-flex min-h-11 shrink-0 items-center no-underline" : `${badge} no-underline hover:underline`}
    >
      {touch ? <span className={`${badge} group-hover:underline`}>{content}</span> : content}
    </Link>
  );
}
