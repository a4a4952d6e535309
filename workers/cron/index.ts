import { createDb } from "~/db/client.server";
import { cronRuns } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { accountPurgeJob } from "./account-purge.job";
import { backupJob } from "./backup.job";
import { digestJob } from "./digest.job";
import { heartbeatJob } from "./heartbeat.job";
import { leadOffersJob } from "./lead-offers.job";
import { leadReminderJob } from "./lead-reminder.job";
import { leadScoreJob } from "./lead-score.job";
import { opsJob } from "./ops.job";
import { syncUpkeepJob } from "./sync-upkeep.job";
import { trashPurgeJob } from "./trash-purge.job";

type Job = (db: ReturnType<typeof createDb>, controller: ScheduledController, env: Env) => Promise<void>;

/** Jobs by cron expression (wrangler.toml [triggers]). */
export const JOBS: Record<string, Job[]> = {
  "*/5 * * * *": [heartbeatJob, opsJob, leadOffersJob, leadReminderJob, digestJob, leadScoreJob, accountPurgeJob, trashPurgeJob, syncUpkeepJob, backupJob],
};

export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const jobs = JOBS[controller.cron] ?? [];
  for (const job of jobs) {
    try {
      await job(db, controller, env);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ event: "cron_job_failed", cron: controller.cron, job: job.name, detail }));
      await db.insert(cronRuns).values({
        job: job.name,
        cron: controller.cron,
        scheduledAt: new Date(controller.scheduledTime),
        startedAt: new Date(),
        finishedAt: new Date(),
        status: "error",
        detail,
      });
    }
  }
}
