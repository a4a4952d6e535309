import { and, desc, eq, gte, inArray, notInArray, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import type { DURABLE_JOB_KINDS } from "~/db/enums";
import { durableJobs, type DurableJob } from "~/db/schema";

// Durable jobs (ADR 0058): a long job (a restore drill, a backup, an agent's restore, an account's move) runs as a Cloudflare Workflow
// instance whose id is its durable_jobs row's. Starting one only writes the row and creates the instance, so the admin's
// request answers at once; each step of the workflow then updates the row (its step, rows done of the total) and the
// last one writes the result or the error, which the Operations Center shows.

export type DurableJobKind = (typeof DURABLE_JOB_KINDS)[number];

/** What every job's workflow is started with: its row's id (the instance's too). */
export interface JobParams {
  jobId: string;
}

/** A job queued or running longer than this was lost (its instance was terminated): it no longer holds the next one off. */
const STALE_MS = 24 * 3_600_000;

/**
 * Records a job and starts its workflow instance under the same id. Only one job of a kind runs at a time: the row is
 * written only when no other of its kind is queued or running (one statement), else null. A start the platform refuses
 * marks the row failed and throws.
 */
export async function startDurableJob<P extends JobParams>(
  db: Db,
  workflow: Workflow<P>,
  job: {
    kind: DurableJobKind;
    startedBy: string | null;
    subject: string | null;
    step: string;
    /** The row's (and instance's) id, when the caller has written rows under it already; else a new one. */
    id?: string;
    /** One job of the kind per subject at a time (an account's move), rather than one of the kind. */
    perSubject?: boolean;
  },
  params: Omit<P, "jobId">,
  now = Date.now(),
  /** What the job's steps need in place before its instance runs (a backup's row), once its own row is in. */
  prepare?: () => Promise<void>,
): Promise<DurableJob | null> {
  const id = job.id ?? crypto.randomUUID();
  const sameSubject = job.perSubject ? sql`and subject = ${job.subject}` : sql``;
  const inserted = await db.run(
    sql`insert into ${durableJobs} (id, kind, started_by, subject, status, step, created_at)
        select ${id}, ${job.kind}, ${job.startedBy}, ${job.subject}, 'queued', ${job.step}, ${now}
        where not exists (select 1 from ${durableJobs} where kind = ${job.kind} ${sameSubject} and status in ('queued', 'running') and created_at > ${now - STALE_MS})`,
  );
  const row = inserted.meta.changes > 0 ? await getJob(db, id) : undefined;
  if (!row) return null;
  await launchJob(db, workflow, id, params, prepare);
  return row;
}

/**
 * The statement that records a job queued, for a batch that writes it together with what it works on (a handover is
 * written in the batch that ends the membership); `launchJob` then starts its instance. No one-of-a-kind rule here:
 * the batch's own checks decide.
 */
export function queueJob(
  db: Db,
  id: string,
  job: { kind: DurableJobKind; startedBy: string | null; subject: string | null; step: string },
  now: number,
) {
  return db
    .insert(durableJobs)
    .values({ id, kind: job.kind, startedBy: job.startedBy, subject: job.subject, status: "queued", step: job.step, createdAt: now });
}

/** Starts the workflow instance of the job recorded as `id`; a start the platform refuses marks the job failed and throws. */
export async function launchJob<P extends JobParams>(
  db: Db,
  workflow: Workflow<P>,
  id: string,
  params: Omit<P, "jobId">,
  prepare?: () => Promise<void>,
): Promise<void> {
  try {
    await prepare?.();
    await workflow.create({ id, params: { ...params, jobId: id } as P });
  } catch (error) {
    await failJob(db, id, `The job could not be started: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500));
    throw error;
  }
}

/** The job is on `step`; with `done`/`total`, that many of its rows are done. */
export async function jobProgress(db: Db, id: string, step: string, progress: { done?: number; total?: number } = {}): Promise<void> {
  await db
    .update(durableJobs)
    .set({ status: "running", step, ...progress, startedAt: sql`coalesce(${durableJobs.startedAt}, ${Date.now()})` })
    .where(and(eq(durableJobs.id, id), inArray(durableJobs.status, ["queued", "running"])));
}

export async function finishJob(db: Db, id: string, result: string): Promise<void> {
  await db
    .update(durableJobs)
    .set({ status: "succeeded", step: null, result, error: null, finishedAt: Date.now(), done: sql`${durableJobs.total}` })
    .where(eq(durableJobs.id, id));
}

export async function failJob(db: Db, id: string, error: string): Promise<void> {
  await db.update(durableJobs).set({ status: "failed", step: null, error, finishedAt: Date.now() }).where(eq(durableJobs.id, id));
}

export function getJob(db: Db, id: string): Promise<DurableJob | undefined> {
  return db.select().from(durableJobs).where(eq(durableJobs.id, id)).get();
}

/** The newest job of each kind started in the last week, for the Backup tab (a team's handovers show on its Team page). */
export async function latestJobs(db: Db, now = Date.now()): Promise<Partial<Record<DurableJobKind, DurableJob>>> {
  const rows = await db
    .select()
    .from(durableJobs)
    // Accounts' moves (one per team joined across databases) and handovers (one per member removed with their work) are
    // the agents' own: they would crowd the admins' jobs out.
    .where(and(gte(durableJobs.createdAt, now - 7 * 86_400_000), notInArray(durableJobs.kind, ["account-move", "handover"])))
    .orderBy(desc(durableJobs.createdAt))
    .limit(30);
  const latest: Partial<Record<DurableJobKind, DurableJob>> = {};
  for (const row of rows) latest[row.kind] ??= row;
  return latest;
}
