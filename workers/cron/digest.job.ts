import type { Db } from "~/db/client.server";
import type { RequestContext } from "~/lib/context.server";
import { getConfig, type Env } from "~/lib/env.server";
import { sendDueDigests } from "~/modules/digest/digest.server";
import { count } from "~/modules/ops/cron-jobs";

/** The 7:00 daily digest (ADR 0032): every agent whose morning it is, once a day. */
export async function digestJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  // The reads the digest shares with the app take a request context; the cron has no request and no waitUntil.
  const context: RequestContext = {
    cloudflare: { env, ctx: { waitUntil() {}, passThroughOnException() {}, props: {} } as unknown as ExecutionContext },
    db,
    config: getConfig(env),
    cspNonce: "",
    memo: new Map(),
    dispatch: null,
  };
  const sent = await sendDueDigests(context);
  if (sent > 0) console.log(JSON.stringify({ event: "daily_digests", sent }));
  return `${count(sent, "digest")} sent`;
}
