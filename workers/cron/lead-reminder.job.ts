import type { Db } from "~/db/client.server";
import { getConfig, type Env } from "~/lib/env.server";
import { count } from "~/modules/ops/cron-jobs";
import { sendLeadReminders } from "~/modules/push/lead-alerts.server";
import { pushPublicKey } from "~/modules/push/push.server";

/**
 * Speed to lead (ADR 0032): one push reminder for each new lead still unanswered five minutes after it
 * arrived, queued on the push queue (ADR 0056). Nothing to do while push notifications are off.
 */
export async function leadReminderJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const config = getConfig(env);
  if (!pushPublicKey(config)) return "push notifications are off here: nothing to remind";
  const { reminded, queued } = await sendLeadReminders({ db, config });
  if (reminded > 0) console.log(JSON.stringify({ event: "lead_reminders", reminded, queued }));
  return `${count(reminded, "lead")} reminded, ${count(queued, "push message")} queued`;
}
