import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { runProbes } from "~/modules/ops/probes.server";
import { prune, rollUpHours } from "~/modules/ops/rollup.server";
import { refreshMonitoringAggregates } from "~/modules/ops/aggregates.server";
import { checkSystemThresholds } from "~/modules/ops/thresholds.server";
import { accountDatabases } from "~/modules/shards/databases.server";

/**
 * The Operations Center's five-minute work: probe every component, roll ended hours up, prune, check the thresholds,
 * and store the Monitoring tab's figures over a day or more (the page reads them back rather than thousands of rows).
 */
export async function opsJob(db: Db, controller: Pick<ScheduledController, "cron" | "scheduledTime">, env: Env): Promise<string> {
  const now = Date.now();
  const probes = await runProbes(db, env, controller, now);
  await rollUpHours(db, now);
  await prune(db, now);
  const check = await checkSystemThresholds({ db, accounts: accountDatabases(env), config: getConfig(env), kv: env.KV }, now);
  await refreshMonitoringAggregates(db, now);
  if (check.alerts_triggered > 0) console.log(JSON.stringify({ event: "ops_alerts_opened", ...check }));
  const failing = probes.filter((p) => !p.ok).length;
  return `${count(probes.length, "probe")} (${failing} failing), ${count(check.alerts.length, "alert")} open, ${check.alerts_triggered} new`;
}
