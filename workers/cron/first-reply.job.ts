import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { sendDueFirstReplies } from "~/modules/intake/first-reply.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * Instant first replies (ADR 0068) that waited for their agent's sending hours, and any a request could not send:
 * each due one is checked again and sent through the e-mail queue, or skipped with its reason.
 */
export async function firstReplyJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const { sent, skipped, waiting } = await sendDueFirstReplies({ db, config: getConfig(env), env });
  return `${count(sent, "first reply", "first replies")} sent, ${skipped} skipped${waiting ? `, ${waiting} waiting for sending hours` : ""}`;
}
