import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { purgeExpiredTrash, TRASH_DAYS } from "~/modules/trash/trash.server";

/**
 * Deletes for good what has been in the trash for 30 days (ADR 0028), every agent's, a chunk of rows
 * per statement. What is left (a failure part-way) goes on the next run. The scheduled time is the clock.
 */
export async function trashPurgeJob(_db: Db, controller: ScheduledController, env: Env): Promise<string> {
  const purged = await purgeExpiredTrash(env.DB, controller.scheduledTime);
  if (purged > 0) console.log(JSON.stringify({ event: "trash_purge", purged, days: TRASH_DAYS }));
  return `${count(purged, "trashed item")} purged`;
}
