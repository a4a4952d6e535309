import { DAY_MS } from "~/lib/dates";
import { and, desc, eq, gte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { cronRuns } from "~/db/schema";
import { CRON_JOBS, FAILURE_DAYS, SUMMARY_MAX, type CronJobId } from "./cron-jobs";

// Every run of every cron job (the heartbeat included): when it started, how long it took, whether it failed, and
// its one-line result. Kept 90 days (rollup.server.ts prunes them); the Operations Center lists them per job.

export async function recordCronRun(
  db: Db,
  run: {
    job: CronJobId | string;
    cron: string;
    scheduledAt: number;
    startedAt: number;
    finishedAt: number;
    status: "ok" | "error";
    detail: string | null;
  },
): Promise<void> {
  await db.insert(cronRuns).values({
    job: run.job,
    cron: run.cron,
    scheduledAt: new Date(run.scheduledAt),
    startedAt: new Date(run.startedAt),
    finishedAt: new Date(run.finishedAt),
    status: run.status,
    detail: run.detail === null ? null : run.detail.slice(0, SUMMARY_MAX),
  });
}

/**
 * Each job's latest run and its failures of the last FAILURE_DAYS days: one indexed lookup per job
 * (cron_runs_job_started_idx) and one range of failures (cron_runs_status_started), in one batch.
 */
export async function loadCronJobs(db: Db, now: number) {
  const [failures, ...latest] = await db.batch([
    db
      .select({ job: cronRuns.job, startedAt: cronRuns.startedAt, detail: cronRuns.detail })
      .from(cronRuns)
      .where(and(eq(cronRuns.status, "error"), gte(cronRuns.startedAt, new Date(now - FAILURE_DAYS * DAY_MS))))
      .orderBy(desc(cronRuns.startedAt))
      .limit(500),
    ...CRON_JOBS.map((job) => db.select().from(cronRuns).where(eq(cronRuns.job, job.id)).orderBy(desc(cronRuns.startedAt)).limit(1)),
  ]);
  return CRON_JOBS.map((job, i) => {
    const last = latest[i]?.[0] ?? null;
    const failed = failures.filter((f) => f.job === job.id);
    return {
      id: job.id,
      label: job.label,
      does: job.does,
      last: last
        ? {
            startedAt: last.startedAt.getTime(),
            ms: last.finishedAt ? last.finishedAt.getTime() - last.startedAt.getTime() : null,
            status: last.status,
            detail: last.detail,
          }
        : null,
      failures: failed.length,
      lastFailure: failed[0] ? { at: failed[0].startedAt.getTime(), detail: failed[0].detail } : null,
    };
  });
}
