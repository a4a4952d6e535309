import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { dueAccountPurges, purgeAccount } from "~/modules/data/account.server";

/**
 * Deletes the accounts whose 30 days are over: every row of each, in every table. A few per run;
 * one that fails is logged and tried again on the next run (the purge picks up where it stopped), without
 * holding back the others.
 */
export async function purgeDueAccounts(env: Pick<Env, "DB" | "INSIGHTS">, db: Db, now = new Date()) {
  const due = await dueAccountPurges(db, now);
  let purged = 0;
  for (const userId of due) {
    try {
      await purgeAccount(env, db, userId, now);
      purged += 1;
    } catch (error) {
      console.error(JSON.stringify({ event: "account_purge_failed", userId, detail: error instanceof Error ? error.message : String(error) }));
    }
  }
  if (due.length > 0) console.log(JSON.stringify({ event: "account_purge", due: due.length, purged }));
  if (purged < due.length) throw new Error(`${due.length - purged} of ${due.length} account purges failed; they are retried on the next run.`);
  return { due: due.length, purged };
}

export async function accountPurgeJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const { purged } = await purgeDueAccounts(env, db);
  return `${count(purged, "account")} purged`;
}
