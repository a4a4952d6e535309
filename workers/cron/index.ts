import { createDb } from "~/db/client.server";
import { d1MeterOf } from "~/lib/d1-limits";
import type { CronQueueMessage, Env } from "~/lib/env.server";
import { HOME_SHARD, homeDatabase, shardDatabases, shardEnv } from "~/lib/shards.server";
import { CRON_JOBS, type CronJobId } from "~/modules/ops/cron-jobs";
import { recordCronRun } from "~/modules/ops/cron-runs.server";
import { accountPurgeJob } from "./account-purge.job";
import { backupJob } from "./backup.job";
import { digestJob } from "./digest.job";
import { firstReplyJob } from "./first-reply.job";
import { gmailRepliesJob } from "./gmail-replies.job";
import { heartbeatJob } from "./heartbeat.job";
import { leadOffersJob } from "./lead-offers.job";
import { leadReassignJob } from "./lead-reassign.job";
import { leadReminderJob } from "./lead-reminder.job";
import { leadScoreJob } from "./lead-score.job";
import { opsJob } from "./ops.job";
import { planStepsJob } from "./plan-steps.job";
import { syncUpkeepJob } from "./sync-upkeep.job";
import { trashPurgeJob } from "./trash-purge.job";
import { auditRetentionJob } from "./audit-retention.job";

/** A job does its work and says in a few words what it did ("3 accounts purged"); it throws when it failed. */
type Job = (db: ReturnType<typeof createDb>, controller: ScheduledController, env: Env) => Promise<string>;

/** Each job's code by its id (every id in CRON_JOBS needs one). */
const CODE: Record<CronJobId, Job> = {
  heartbeat: heartbeatJob,
  ops: opsJob,
  "lead-offers": leadOffersJob,
  "lead-reassign": leadReassignJob,
  "lead-reminders": leadReminderJob,
  "first-replies": firstReplyJob,
  "gmail-replies": gmailRepliesJob,
  "plan-steps": planStepsJob,
  digest: digestJob,
  "lead-scores": leadScoreJob,
  "account-purge": accountPurgeJob,
  "trash-purge": trashPurgeJob,
  "audit-retention": auditRetentionJob,
  "sync-upkeep": syncUpkeepJob,
  backup: backupJob,
};
const ID_OF = new Map<Job, CronJobId>(CRON_JOBS.map((job) => [CODE[job.id], job.id]));

/**
 * Jobs that work on accounts' rows, run once per account database (ADR 0060): each pass gets that database as its DB.
 * The others (the heartbeat, monitoring, backups) work on the home database's global tables.
 */
export const EVERY_DATABASE: ReadonlySet<CronJobId> = new Set([
  "lead-offers",
  "lead-reassign",
  "lead-reminders",
  "first-replies",
  "gmail-replies",
  "plan-steps",
  "digest",
  "lead-scores",
  "account-purge",
  "trash-purge",
  "audit-retention",
  "sync-upkeep",
]);

/**
 * One database's pass of a job on accounts' rows, its result named by the database ("database 1: 2 accounts purged")
 * when there are several; a job on global tables runs on the home database. Throws, with the name, when it failed.
 */
export async function runJob(id: string, job: Job, controller: ScheduledController, env: Env, shard = HOME_SHARD): Promise<string> {
  const several = shardDatabases(env).length > 1;
  if (!EVERY_DATABASE.has(id as CronJobId) || !several) return job(createDb(env.DB), controller, env);
  const passEnv = shardEnv(env, shard);
  try {
    return `database ${shard}: ${await job(createDb(passEnv.DB), controller, passEnv)}`;
  } catch (error) {
    throw new Error(`database ${shard}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Jobs by cron expression (wrangler.toml [triggers]), in CRON_JOBS' order. */
export const JOBS: Record<string, Job[]> = {
  "*/5 * * * *": CRON_JOBS.map((job) => CODE[job.id]),
};

/** The queue the cron hands each other database's pass to (wrangler.toml's [[queues.consumers]], ADR 0064). */
export const CRON_QUEUE_NAME = "porchlight-cron";

/**
 * Runs the trigger's jobs one after another: every job on the home database, and for the jobs on accounts' rows the
 * home database's pass. Each other database's passes go on the cron queue, one message a database, so each runs in an
 * invocation of its own (D1 allows 1,000 queries an invocation; a database's passes take about a hundred, ADR 0064).
 * Each run is recorded (cron_runs: start, duration, outcome and the job's one-line result or its error), so the
 * Operations Center shows every job, not only that the scheduler ran. A job that fails is logged and recorded, and the
 * next one runs all the same.
 */
export async function runScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const jobs = JOBS[controller.cron] ?? [];
  await runJobs(controller, env, jobs, HOME_SHARD);
  const others = shardDatabases(env).length - 1;
  if (others === 0 || !jobs.some((job) => EVERY_DATABASE.has(ID_OF.get(job)!))) return;
  const messages = Array.from({ length: others }, (_, n) => ({
    body: { cron: controller.cron, scheduledTime: controller.scheduledTime, shard: n + 1 } satisfies CronQueueMessage,
  }));
  try {
    await env.CRON_QUEUE.sendBatch(messages);
  } catch (error) {
    // Nothing ran on those databases: each job on accounts' rows records the failure, so the Operations Center shows it.
    const detail = `databases 1 to ${others} not queued: ${error instanceof Error ? error.message : String(error)}`;
    console.error(JSON.stringify({ event: "cron_fan_out_failed", cron: controller.cron, detail }));
    for (const job of jobs.filter((j) => EVERY_DATABASE.has(ID_OF.get(j)!)))
      await record(createDb(env.DB), controller, ID_OF.get(job)!, Date.now(), "error", detail);
  }
}

/**
 * The cron queue's consumer: each message is one database's passes of the jobs on accounts' rows for one scheduled
 * event, run in this invocation (`env` is that database's, workers/queues.ts) and recorded at home like the others.
 * A pass that failed is recorded and the message acknowledged all the same: the next run, five minutes on, is the retry.
 */
export async function consumeCronBatch(batch: MessageBatch<CronQueueMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) {
    const { cron, scheduledTime, shard } = message.body;
    const controller: ScheduledController = { cron, scheduledTime, noRetry() {} };
    const jobs = (JOBS[cron] ?? []).filter((job) => EVERY_DATABASE.has(ID_OF.get(job)!));
    // The message's env is routed to its database already; the passes open it from the whole set, as at home.
    await runJobs(controller, { ...env, DB: homeDatabase(env), HOME_DB: undefined }, jobs, shard);
    message.ack();
  }
}

async function runJobs(controller: ScheduledController, env: Env, jobs: Job[], shard: number): Promise<void> {
  const db = createDb(homeDatabase(env));
  const meter = d1MeterOf(env.DB);
  for (const job of jobs) {
    const id = ID_OF.get(job) ?? job.name;
    meter?.step(`cron:${id}`);
    const startedAt = Date.now();
    let status: "ok" | "error" = "ok";
    let detail: string | null;
    try {
      detail = (await runJob(id, job, controller, env, shard)) || null;
    } catch (error) {
      status = "error";
      detail = error instanceof Error ? error.message : String(error);
      console.error(JSON.stringify({ event: "cron_job_failed", cron: controller.cron, job: id, detail }));
    }
    await record(db, controller, id, startedAt, status, detail);
  }
}

async function record(
  db: ReturnType<typeof createDb>,
  controller: ScheduledController,
  job: string,
  startedAt: number,
  status: "ok" | "error",
  detail: string | null,
) {
  try {
    await recordCronRun(db, { job, cron: controller.cron, scheduledAt: controller.scheduledTime, startedAt, finishedAt: Date.now(), status, detail });
  } catch (error) {
    console.error(JSON.stringify({ event: "cron_run_not_recorded", job, detail: error instanceof Error ? error.message : String(error) }));
  }
}
