import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { queueDueDigests } from "~/modules/digest/digest.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * The 7:00 daily digest (ADR 0032): every agent whose morning it is, once a day. The run only puts each due agent
 * on the digest queue; its consumer builds and sends each digest (ADR 0056).
 */
export async function digestJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const queued = await queueDueDigests({ db, config: getConfig(env) });
  if (queued > 0) console.log(JSON.stringify({ event: "daily_digests", queued }));
  return `${count(queued, "digest")} queued`;
}
