import { introspectWorkflow, introspectWorkflowInstance } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, desc, eq, inArray } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { backupRestores, durableJobs, teamHandovers, type BackupRestore, type DurableJob } from "~/db/schema";
import { startAgentRestore, type RestoreRequest } from "~/modules/backups/restore.server";
import type { DurableJobKind } from "~/modules/jobs/durable-jobs.server";

const db = createDb(env.DB);

type Modifier = Parameters<Parameters<Awaited<ReturnType<typeof introspectWorkflow>>["modifyAll"]>[0]>[0];

/**
 * Waits until no job of `kind` is queued or running: a job another test file started (the cron's weekly drill) must
 * end before this file starts its own, as only one of a kind runs at a time.
 */
async function settle(workflow: Workflow, kind: DurableJobKind) {
  const running = await db
    .select({ id: durableJobs.id })
    .from(durableJobs)
    .where(and(eq(durableJobs.kind, kind), inArray(durableJobs.status, ["queued", "running"])));
  for (const { id } of running) {
    await using instance = await introspectWorkflowInstance(workflow, id);
    await instance.waitForStatus("complete");
  }
}

/**
 * Starts a durable job through `start` (the app's own start function) and waits for its workflow to complete, with
 * retry delays off (a retried step runs again at once) and `modify` applied to its instance (a step made to fail once).
 * Returns the job's row as the workflow left it.
 */
export async function runDurableJob(
  workflow: Workflow,
  kind: DurableJobKind,
  start: () => Promise<DurableJob | null>,
  modify?: (m: Modifier) => Promise<void>,
): Promise<DurableJob> {
  await settle(workflow, kind);
  await using introspector = await introspectWorkflow(workflow);
  await introspector.modifyAll(async (m) => {
    await m.disableRetryDelays();
    await modify?.(m);
  });
  const job = await start();
  if (!job) throw new Error(`a ${kind} job is already running`);
  const [instance] = introspector.get();
  await instance!.waitForStatus("complete");
  return (await db.select().from(durableJobs).where(eq(durableJobs.id, job.id)).get())!;
}

/**
 * An agent's restore run to its end as a durable job (started as the Backup tab starts it); returns the restore's row
 * as the job left it, with the job's.
 */
export async function runAgentRestore(
  request: RestoreRequest,
  options: { rowsPerStep?: number; rowsPerPart?: number } = {},
  modify?: (m: Modifier) => Promise<void>,
): Promise<BackupRestore & { job: DurableJob }> {
  let restoreId = "";
  const job = await runDurableJob(
    env.AGENT_RESTORE_WORKFLOW,
    "agent-restore",
    async () => {
      const started = await startAgentRestore(env, db, request, options);
      restoreId = started?.restore.id ?? "";
      return started?.job ?? null;
    },
    modify,
  );
  const restore = (await db.select().from(backupRestores).where(eq(backupRestores.id, restoreId)).get())!;
  return { ...restore, job };
}

/**
 * A removal with a handover, made by `remove` (the owner's form post), and its handover job run to its end; returns
 * the removal's answer and the job's row as the workflow left it.
 */
export async function runHandover(
  from: string,
  remove: () => Promise<Response>,
  modify?: (m: Modifier) => Promise<void>,
): Promise<{ response: Response; job: DurableJob }> {
  let response: Response | undefined;
  const job = await runDurableJob(
    env.HANDOVER_WORKFLOW,
    "handover",
    async () => {
      response = await remove();
      const [handover] = await db
        .select({ id: teamHandovers.id })
        .from(teamHandovers)
        .where(eq(teamHandovers.fromUserId, from))
        .orderBy(desc(teamHandovers.createdAt))
        .limit(1);
      return handover ? ((await db.select().from(durableJobs).where(eq(durableJobs.id, handover.id)).get()) ?? null) : null;
    },
    modify,
  );
  return { response: response!, job };
}
