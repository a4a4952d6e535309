import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { applyTestClock } from "~/lib/clock";
import { durableStep, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import {
  BACKUP_ROWS_PER_PART,
  backupSource,
  failBackup,
  finishBackup,
  partedTable,
  planBackup,
  writeBackupPart,
  type BackupParams,
  type BackupPlan,
} from "~/modules/backups/backup-job.server";
import type { TableFile, TableManifest } from "~/modules/backups/backup.server";
import { failJob, finishJob, jobProgress } from "~/modules/jobs/durable-jobs.server";

const JOB = "backup";

/**
 * One table of a backup written in steps (the backup's, and an agent's restore's safety copy with `owner`): each part of
 * `rowsPerPart` rows read and written to R2 in a step of its own (`<prefix>read <table> part N`); the table's manifest
 * entry lists the parts. `progress` runs inside each part's step with the table's rows so far.
 */
export async function backupTableInSteps(
  step: WorkflowStep,
  env: Env,
  job: string,
  prefix: string,
  part: {
    backupId: string;
    table: Omit<BackupPlan["tables"][number], "rows">;
    rowsPerPart: number;
    owner?: { column: string; userId: string };
    /** The account database read (ADR 0060); the home database when absent. */
    shard?: number;
  },
  progress?: (env: Env, rows: number) => Promise<void>,
): Promise<TableManifest> {
  const { backupId, table, rowsPerPart, owner, shard = 0 } = part;
  let rows = 0;
  let after = 0;
  const parts: TableFile[] = [];
  let more = true;
  while (more) {
    const n = parts.length + 1;
    const from = after;
    const written = await durableStep(step, env, job, `${prefix}read ${table.name} part ${n}`, async (e) => {
      const result = await writeBackupPart(backupSource(e, shard), backupId, table.name, n, from, rowsPerPart, owner);
      await progress?.(e, rows + result.rows);
      return result;
    });
    rows += written.rows;
    after = written.last;
    more = written.more;
    if (written.file) parts.push(written.file);
  }
  return partedTable(backupId, table, parts);
}

/**
 * A backup of one whole account database (ADR 0060) as a durable job (ADR 0058): plan, each table read in parts (one step each, one R2
 * object each), then the manifest, which lists every table's parts. Each step is one invocation within D1's
 * limits and is retried alone; a part that was cut off is read and written again from where the part before it ended.
 */
export class BackupWorkflow extends WorkflowEntrypoint<Env, BackupParams> {
  override async run(event: Readonly<WorkflowEvent<BackupParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const { jobId, backupId, shard = 0 } = event.payload;
    const rowsPerPart = Math.max(1, event.payload.rowsPerPart ?? BACKUP_ROWS_PER_PART);
    try {
      const plan = await durableStep(step, this.env, JOB, "plan", async (env) => {
        const planned = await planBackup(backupSource(env, shard));
        await jobProgress(createDb(env.DB), jobId, "Reading", { done: 0, total: planned.total });
        return planned;
      });
      const tables: TableManifest[] = [];
      let done = 0;
      for (const table of plan.tables) {
        const before = done;
        const written = await backupTableInSteps(step, this.env, JOB, "", { backupId, table, rowsPerPart, shard }, async (env, rows) => {
          await jobProgress(createDb(env.DB), jobId, `Reading ${table.name}`, { done: before + rows });
        });
        tables.push(written);
        done += written.rows;
      }
      return await durableStep(step, this.env, JOB, "write the manifest", async (env) => {
        const db = createDb(env.DB);
        const backup = await finishBackup(env, db, backupId, plan, tables);
        await finishJob(db, jobId, `${backup.tableCount} tables, ${backup.rowCount.toLocaleString("en-US")} rows.`);
        return { ok: true, rows: backup.rowCount };
      });
    } catch (error) {
      const message = messageOf(error);
      return await durableStep(step, this.env, JOB, "record the failure", async (env) => {
        const db = createDb(env.DB);
        await failBackup(env, db, backupId, message);
        await failJob(db, jobId, message);
        return { ok: false, rows: 0 };
      });
    }
  }
}
