import type { Db } from "~/db/client.server";
import { pruneAiDraftDays } from "~/modules/ai/quota.server";
import { count } from "~/modules/ops/cron-jobs";
import { pruneSyncLog } from "~/modules/sync/field-copy.server";
import { pruneAppliedChanges } from "~/modules/sync/queued-changes.server";

/**
 * The field copy's upkeep (ADR 0031): an hourly mark of the change log, the log pruned past 30 days (a
 * phone that has not synced since gets a whole copy), the keys of applied changes and submissions past 60 days, and the
 * AI quota's counts of days gone (ADR 0051).
 */
export async function syncUpkeepJob(db: Db): Promise<string> {
  // The app's clock, not the scheduled time: a mark says "the log's top seq at this moment", and a mark dated
  // otherwise (a late or replayed run) would prune entries newer than its date.
  const now = Date.now();
  const [entries, keys, quotaDays] = await Promise.all([pruneSyncLog({ db }, now), pruneAppliedChanges({ db }, now), pruneAiDraftDays({ db }, now)]);
  if (entries + keys + quotaDays > 0) console.log(JSON.stringify({ event: "sync_upkeep", entries, keys, quotaDays }));
  return `${count(entries, "log entry", "log entries")}, ${count(keys, "change key")} and ${count(quotaDays, "AI quota day")} pruned`;
}
