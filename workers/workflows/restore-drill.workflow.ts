import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { applyTestClock } from "~/lib/clock";
import { durableStep, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { DRILL_ROWS_PER_STEP, drillSummary, loadDrillPart, prepareDrill, recordDrill, type DrillParams } from "~/modules/backups/drill.server";
import { failJob, finishJob, getJob, jobProgress } from "~/modules/jobs/durable-jobs.server";

const JOB = "restore-drill";

/**
 * The restore drill as a durable job (ADR 0058): prepare the scratch database, load and check each table a part at a
 * time (parents first), then record the outcome on the backup and the job. Each step is one invocation within D1's
 * limits and is retried alone; a part that was cut off is loaded again from where the part before it ended.
 */
export class RestoreDrillWorkflow extends WorkflowEntrypoint<Env, DrillParams> {
  override async run(event: Readonly<WorkflowEvent<DrillParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const { jobId, backupId } = event.payload;
    const rowsPerStep = Math.max(1, event.payload.rowsPerStep ?? DRILL_ROWS_PER_STEP);
    try {
      const plan = await durableStep(step, this.env, JOB, "prepare the scratch database", async (env) => {
        const db = createDb(env.DB);
        await jobProgress(db, jobId, "Preparing the scratch database");
        const prepared = await prepareDrill(env, backupId, rowsPerStep);
        await jobProgress(db, jobId, "Loading", { done: 0, total: prepared.total });
        return prepared;
      });
      let done = 0;
      for (const { table, rows, slices } of plan.tables) {
        let after = 0;
        for (const slice of slices) {
          const part = { table, ...slice, after };
          const loaded = await durableStep(step, this.env, JOB, `load ${table} from row ${slice.line}`, async (env) => {
            const result = await loadDrillPart(env, backupId, part);
            await jobProgress(createDb(env.DB), jobId, `Loading ${table}`, { done: done + slice.line + result.rows });
            return result;
          });
          after = loaded.last;
        }
        done += rows;
      }
      return await durableStep(step, this.env, JOB, "record the result", async (env) => {
        const db = createDb(env.DB);
        const job = await getJob(db, jobId);
        const ms = Date.now() - (job?.startedAt ?? job?.createdAt ?? Date.now());
        await recordDrill(db, { backupId, ok: true, ms, error: null, rows: plan.total });
        await finishJob(db, jobId, drillSummary(plan.total, ms));
        return { ok: true, rows: plan.total };
      });
    } catch (error) {
      const message = messageOf(error);
      return await durableStep(step, this.env, JOB, "record the failure", async (env) => {
        const db = createDb(env.DB);
        const job = await getJob(db, jobId);
        const ms = Date.now() - (job?.startedAt ?? job?.createdAt ?? Date.now());
        await recordDrill(db, { backupId, ok: false, ms, error: message, rows: 0 });
        await failJob(db, jobId, message);
        return { ok: false, rows: 0 };
      });
    }
  }
}
