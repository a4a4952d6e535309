import { createDb } from "~/db/client.server";
import { d1MeterOf } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { shardDatabases, shardEnv } from "~/lib/shards.server";
import { CRON_JOBS, type CronJobId } from "~/modules/ops/cron-jobs";
import { recordCronRun } from "~/modules/ops/cron-runs.server";
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

/** A job does its work and says in a few words what it did ("3 accounts purged"); it throws when it failed. */
type Job = (db: ReturnType<typeof createDb>, controller: ScheduledController, env: Env) => Promise<string>;

/** Each job's code by its id (every id in CRON_JOBS needs one). */
const CODE: Record<CronJobId, Job> = {
  heartbeat: heartbeatJob,
  ops: opsJob,
  "lead-offers": leadOffersJob,
  "lead-reminders": leadReminderJob,
  digest: digestJob,
  "lead-scores": leadScoreJob,
  "account-purge": accountPurgeJob,
  "trash-purge": trashPurgeJob,
  "sync-upkeep": syncUpkeepJob,
  backup: backupJob,
};
const ID_OF = new Map<Job, CronJobId>(CRON_JOBS.map((job) => [CODE[job.id], job.id]));

/**
 * Jobs that work on accounts' rows, run once per account database (ADR 0060): each pass gets that database as its DB.
 * The others (the heartbeat, monitoring, backups) work on the home database's global tables.
 */
const EVERY_DATABASE: ReadonlySet<CronJobId> = new Set([
  "lead-offers",
  "lead-reminders",
  "digest",
  "lead-scores",
  "account-purge",
  "trash-purge",
  "sync-upkeep",
]);

/**
 * One job's run: on the home database, or for a job on accounts' rows, one pass per account database in turn, each
 * pass's result named by its database ("database 1: 2 accounts purged"). A pass that fails does not stop the next;
 * the run fails with the failed passes' errors.
 */
export async function runJob(id: string, job: Job, controller: ScheduledController, env: Env): Promise<string> {
  const count = shardDatabases(env).length;
  if (!EVERY_DATABASE.has(id as CronJobId) || count === 1) return job(createDb(env.DB), controller, env);
  const passes: string[] = [];
  let failed = false;
  for (let n = 0; n < count; n++) {
    const passEnv = shardEnv(env, n);
    try {
      passes.push(`database ${n}: ${await job(createDb(passEnv.DB), controller, passEnv)}`);
    } catch (error) {
      failed = true;
      passes.push(`database ${n}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failed) throw new Error(passes.join("; "));
  return passes.join("; ");
}

/** Jobs by cron expression (wrangler.toml [triggers]), in CRON_JOBS' order. */
export const JOBS: Record<string, Job[]> = {
  "*/5 * * * *": CRON_JOBS.map((job) => CODE[job.id]),
};

/**
 * Runs the trigger's jobs one after another. Each run is recorded (cron_runs: start, duration, outcome and the job's
 * one-line result or its error), so the Operations Center shows every job, not only that the scheduler ran. A job
 * that fails is logged and recorded, and the next one runs all the same.
 */
export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const db = createDb(env.DB);
  const meter = d1MeterOf(env.DB);
  for (const job of JOBS[controller.cron] ?? []) {
    const id = ID_OF.get(job) ?? job.name;
    meter?.step(`cron:${id}`);
    const startedAt = Date.now();
    let status: "ok" | "error" = "ok";
    let detail: string | null;
    try {
      detail = (await runJob(id, job, controller, env)) || null;
    } catch (error) {
      status = "error";
      detail = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ event: "cron_job_failed", cron: controller.cron, job: id, detail }));
    }
    try {
      await recordCronRun(db, {
        job: id,
        cron: controller.cron,
        scheduledAt: controller.scheduledTime,
        startedAt,
        finishedAt: Date.now(),
        status,
        detail,
      });
    } catch (error) {
      console.error(JSON.stringify({ event: "cron_run_not_recorded", job: id, detail: error instanceof Error ? error.message : String(error) }));
    }
  }
}
