import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { startBackup } from "~/modules/backups/backup-job.server";
import { automaticBackupDue, pruneBackups } from "~/modules/backups/backup.server";
import { drillDue, startRestoreDrill } from "~/modules/backups/drill.server";
import { abandonStaleRestores } from "~/modules/backups/restore.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * The daily automatic backup (ADR 0027): taken on the first five-minute run a day after the last one, and
 * backups older than 30 days deleted (safety copies too) and an agent restore cut off part-way marked failed; then, once a week,
 * a restore drill of the newest backup. Both run as durable jobs, started here; a failed backup or drill is recorded on the
 * backup and its job (the Backup tab shows why).
 */
export async function backupJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const pruned = await pruneBackups(env, db);
  await abandonStaleRestores(db);
  const done = [`${count(pruned, "old backup")} deleted`];
  if (await automaticBackupDue(db)) {
    // The backup runs as a durable job (ADR 0058): started here, its outcome recorded on its row by its last step.
    const started = await startBackup(env, db, "automatic", null);
    done.unshift(started ? "backup started" : "backup already running");
  } else done.unshift("no backup due");
  const due = await drillDue(db);
  if (!due) return done.join(", ");
  // The drill runs as a durable job (ADR 0058): started here, its outcome recorded on the backup by its last step.
  const drill = await startRestoreDrill(env, db, due, null);
  return [...done, drill ? "restore drill started" : "restore drill already running"].join(", ");
}
