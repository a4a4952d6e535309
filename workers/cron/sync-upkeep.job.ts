import type { Db } from "~/db/client.server";
import { count } from "~/modules/ops/cron-jobs";
import { pruneSyncLog } from "~/modules/sync/field-copy.server";
import { pruneAppliedChanges } from "~/modules/sync/queued-changes.server";

/**
 * The field copy's upkeep (issue 20, ADR 0031): an hourly mark of the change log, the log pruned past 30 days (a
 * phone that has not synced since gets a whole copy), and the keys of applied offline changes past 60 days.
 */
export async function syncUpkeepJob(db: Db): Promise<string> {
  // The app's clock, not the scheduled time: a mark says "the log's top seq at this moment", and a mark dated
  // otherwise (a late or replayed run) would prune entries newer than its date.
  const now = Date.now();
  const [entries, keys] = await Promise.all([pruneSyncLog({ db }, now), pruneAppliedChanges({ db }, now)]);
  if (entries + keys > 0) console.log(JSON.stringify({ event: "sync_upkeep", entries, keys }));
  return `${count(entries, "log entry", "log entries")} and ${count(keys, "change key")} pruned`;
}
