import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { runProbes } from "~/modules/ops/probes.server";
import { prune, rollUpHours } from "~/modules/ops/rollup.server";

/** The Operations Center's five-minute work (issue 17): probe every component, roll ended hours up, prune. */
export async function opsJob(db: Db, controller: Pick<ScheduledController, "cron" | "scheduledTime">, env: Env) {
  const now = Date.now();
  await runProbes(db, env, controller, now);
  await rollUpHours(db, now);
  await prune(db, now);
}
