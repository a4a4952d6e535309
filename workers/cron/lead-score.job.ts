import type { Db } from "~/db/client.server";
import { refreshStaleScores, rescoreAging } from "~/modules/contacts/lead-score.server";
import { count } from "~/modules/ops/cron-jobs";

/** Contacts scored per run, at most, in each of the two passes (the cron runs every five minutes). */
const LEAD_SCORE_BATCH = 2_000;

/**
 * Keeps lead scores current between views: recomputes scores older than a day (recency and the 90-day window
 * move with the clock), oldest first, then scores left stale by changes nobody has looked at since. Both
 * passes are bounded, so a backlog drains over several runs instead of making one run long.
 */
export async function updateLeadScores(db: Db, now = new Date(), limit = LEAD_SCORE_BATCH) {
  const started = Date.now();
  const aged = await rescoreAging(db, now, limit);
  const stale = await refreshStaleScores(db, now, limit);
  console.log(JSON.stringify({ event: "lead_scores", aged, stale, ms: Date.now() - started }));
  return { aged, stale };
}

export async function leadScoreJob(db: Db): Promise<string> {
  const { aged, stale } = await updateLeadScores(db);
  return `${count(aged, "day-old score")} and ${count(stale, "stale score")} recomputed`;
}
