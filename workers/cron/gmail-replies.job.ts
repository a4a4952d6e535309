import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { pollGmailReplies } from "~/modules/conversations/gmail-replies.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * Contacts' replies in the agents' Gmail threads (ADR 0071): a bounded pass over this database's connected mailboxes,
 * each reply recorded on the contact's log and timeline and pushed, each mail-system report marking its e-mail bounced.
 */
export async function gmailRepliesJob(db: Db, controller: ScheduledController, env: Env): Promise<string> {
  const pass = await pollGmailReplies({ db, config: getConfig(env), kv: env.KV }, new Date(controller.scheduledTime));
  if (!pass) return "Gmail is not set up here: nothing to read";
  const extra = [
    pass.skipped ? `${count(pass.skipped, "mailbox", "mailboxes")} to reconnect skipped` : null,
    pass.errors ? `${count(pass.errors, "thread read", "thread reads")} failed` : null,
  ].filter(Boolean);
  return `${count(pass.replies, "reply", "replies")} and ${count(pass.bounces, "bounce")} from ${count(pass.threads, "thread")} of ${count(pass.agents, "agent")}${extra.length ? `, ${extra.join(", ")}` : ""}`;
}
