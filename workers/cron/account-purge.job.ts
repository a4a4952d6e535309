import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { queueDueAccountPurges } from "~/modules/data/purge.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * Deletes the accounts whose 30 days are over, every row of each in every table: the run puts each due account on
 * the purge queue, whose consumer deletes it a slice at a time (ADR 0056). An account whose purge stopped part-way
 * is queued again an hour after its last slice and picks up where it stopped.
 */
export async function accountPurgeJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const queued = await queueDueAccountPurges(db, getConfig(env), new Date());
  if (queued.length > 0) console.log(JSON.stringify({ event: "account_purge", queued: queued.length }));
  return `${count(queued.length, "account")} queued for purging`;
}
