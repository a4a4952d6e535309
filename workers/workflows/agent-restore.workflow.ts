import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { applyTestClock } from "~/lib/clock";
import { durableStep, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { BACKUP_ROWS_PER_PART } from "~/modules/backups/backup-job.server";
import type { TableManifest } from "~/modules/backups/backup.server";
import {
  checkRestore,
  failRestore,
  finishSafetyCopy,
  planSafetyCopy,
  RESTORE_ROWS_PER_STEP,
  restoreAccount,
  restoreSummary,
  stageRestorePart,
  swapRestore,
  type AgentRestoreParams,
  type Staged,
} from "~/modules/backups/restore.server";
import { failJob, finishJob, jobProgress } from "~/modules/jobs/durable-jobs.server";
import { backupTableInSteps } from "./backup.workflow";

const JOB = "agent-restore";

/**
 * An agent's restore as a durable job (ADR 0058): check the backup, stage the agent's rows of each table's file a part
 * at a time (parents first), take the safety copy of the agent's current rows a part at a time, then swap in one D1
 * batch. Each step is one invocation within D1's limits and is retried alone; only the last changes the agent's rows.
 */
export class AgentRestoreWorkflow extends WorkflowEntrypoint<Env, AgentRestoreParams> {
  override async run(event: Readonly<WorkflowEvent<AgentRestoreParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const { jobId, restoreId, backupId, userId, shard = 0 } = event.payload;
    // The restore's row, its staging, the safety copy and the swap are in the agent's database (ADR 0060); the job's
    // row and whole backups' rows at home.
    const account = (env: Env) => restoreAccount(env, shard);
    const rowsPerStep = Math.max(1, event.payload.rowsPerStep ?? RESTORE_ROWS_PER_STEP);
    const rowsPerPart = Math.max(1, event.payload.rowsPerPart ?? BACKUP_ROWS_PER_PART);
    let safetyBackupId: string | null = null;
    try {
      const plan = await durableStep(step, this.env, JOB, "check the backup", async (env) => {
        const db = createDb(env.DB);
        await jobProgress(db, jobId, "Checking the backup");
        const agent = account(env);
        const checked = await checkRestore(agent.env, agent.db, { backupId, userId }, rowsPerStep, db);
        await jobProgress(db, jobId, "Staging", { done: 0, total: checked.total });
        return checked;
      });

      const staged: Staged[] = [];
      let done = 0;
      for (const { table, owner, rows, slices } of plan.tables) {
        const table_ = { table, owner, rows: 0, columns: [] as string[] };
        for (const slice of slices) {
          const part = { table, owner, ...slice };
          const result = await durableStep(step, this.env, JOB, `stage ${table} from row ${slice.line}`, async (env) => {
            const staging = await stageRestorePart(account(env).env, { id: restoreId, backupId, userId }, part);
            await jobProgress(createDb(env.DB), jobId, `Staging ${table}`, { done: done + slice.line + slice.count });
            return staging;
          });
          table_.rows += result.rows;
          if (result.columns.length > 0) table_.columns = result.columns;
        }
        done += rows;
        staged.push(table_);
      }

      // The safety copy: the agent's current rows of the same tables, written as a backup is, a part at a time.
      const safety = await durableStep(step, this.env, JOB, "safety copy: plan", async (env) => {
        await jobProgress(createDb(env.DB), jobId, "Taking the safety copy");
        const agent = account(env);
        return planSafetyCopy(agent.env, agent.db, userId, plan, Date.now(), shard);
      });
      safetyBackupId = safety.backupId;
      const owners = new Map(plan.tables.map((t) => [t.table, t.owner]));
      const tables: TableManifest[] = [];
      for (const table of safety.tables) {
        const owner = { column: owners.get(table.name)!, userId };
        tables.push(await backupTableInSteps(step, this.env, JOB, "safety copy: ", { backupId: safety.backupId, table, rowsPerPart, owner, shard }));
      }
      await durableStep(step, this.env, JOB, "safety copy: write the manifest", (env) => {
        const agent = account(env);
        return finishSafetyCopy(agent.env, agent.db, restoreId, userId, safety, tables);
      });

      return await durableStep(step, this.env, JOB, "swap the agent's rows", async (env) => {
        const db = createDb(env.DB);
        await jobProgress(db, jobId, "Swapping the rows in");
        const agent = account(env);
        const restore = await swapRestore(agent.env, agent.db, { restoreId, userId }, staged);
        await finishJob(db, jobId, restoreSummary(restore.rowCount));
        return { ok: true, rows: restore.rowCount };
      });
    } catch (error) {
      const message = messageOf(error);
      return await durableStep(step, this.env, JOB, "record the failure", async (env) => {
        const db = createDb(env.DB);
        // A database no longer bound cannot be cleaned: the job still records the failure.
        const agent = (() => {
          try {
            return account(env);
          } catch {
            return null;
          }
        })();
        if (agent) await failRestore(agent.env, agent.db, restoreId, safetyBackupId, message);
        await failJob(db, jobId, message);
        return { ok: false, rows: 0 };
      });
    }
  }
}
