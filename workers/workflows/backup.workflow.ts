import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { applyTestClock } from "~/lib/clock";
import { durableStep, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import {
  BACKUP_ROWS_PER_PART,
  failBackup,
  finishBackup,
  joinBackupTable,
  planBackup,
  writeBackupPart,
  type BackupParams,
} from "~/modules/backups/backup-job.server";
import type { TableManifest } from "~/modules/backups/backup.server";
import { failJob, finishJob, jobProgress } from "~/modules/jobs/durable-jobs.server";

const JOB = "backup";

/**
 * A backup of the whole database as a durable job (ADR 0058): plan, each table read in parts (one step each, one R2
 * object each), each table's parts joined into its file, then the manifest. Each step is one invocation within D1's
 * limits and is retried alone; a part that was cut off is read and written again from where the part before it ended.
 */
export class BackupWorkflow extends WorkflowEntrypoint<Env, BackupParams> {
  override async run(event: Readonly<WorkflowEvent<BackupParams>>, step: WorkflowStep) {
    applyTestClock(this.env);
    const { jobId, backupId } = event.payload;
    const rowsPerPart = Math.max(1, event.payload.rowsPerPart ?? BACKUP_ROWS_PER_PART);
    try {
      const plan = await durableStep(step, this.env, JOB, "plan", async (env) => {
        const planned = await planBackup(env);
        await jobProgress(createDb(env.DB), jobId, "Reading", { done: 0, total: planned.total });
        return planned;
      });
      const tables: TableManifest[] = [];
      let done = 0;
      for (const table of plan.tables) {
        let after = 0;
        let parts = 0;
        let more = true;
        while (more) {
          parts += 1;
          const part = parts;
          const from = after;
          const written = await durableStep(step, this.env, JOB, `read ${table.name} part ${part}`, async (env) => {
            const result = await writeBackupPart(env, backupId, table.name, part, from, rowsPerPart);
            await jobProgress(createDb(env.DB), jobId, `Reading ${table.name}`, { done: done + result.rows });
            return result;
          });
          done += written.rows;
          after = written.last;
          more = written.more;
        }
        tables.push(await durableStep(step, this.env, JOB, `join ${table.name}`, (env) => joinBackupTable(env, backupId, table, parts)));
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
