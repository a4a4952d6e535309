import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { automaticBackupDue, createBackup, pruneBackups } from "~/modules/backups/backup.server";
import { drillDue, startRestoreDrill } from "~/modules/backups/drill.server";
import { abandonStaleRestores } from "~/modules/backups/restore.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * The daily automatic backup (ADR 0027): taken on the first five-minute run a day after the last one, and
 * backups older than 30 days deleted (safety copies too) and an agent restore cut off part-way marked failed; then, once a week,
 * a restore drill of the newest backup is started as a durable job. A failed backup is recorded (the Backup tab shows why) and
 * makes the run an error in the cron log; a drill's outcome is recorded on its backup and its job.
 */
export async function backupJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  const pruned = await pruneBackups(env, db);
  await abandonStaleRestores(db);
  const done = [`${count(pruned, "old backup")} deleted`];
  if (await automaticBackupDue(db)) {
    const backup = await createBackup(env, db, "automatic");
    console.log(JSON.stringify({ event: "backup", id: backup.id, status: backup.status, rows: backup.rowCount, bytes: backup.sizeBytes, pruned }));
    if (backup.status === "failed") throw new Error(`Automatic backup ${backup.id} failed: ${backup.errorMessage ?? "unknown error"}`);
    done.unshift(`backup taken (${count(backup.rowCount, "row")})`);
  } else done.unshift("no backup due");
  const due = await drillDue(db);
  if (!due) return done.join(", ");
  // The drill runs as a durable job (ADR 0058): started here, its outcome recorded on the backup by its last step.
  const drill = await startRestoreDrill(env, db, due, null);
  return [...done, drill ? "restore drill started" : "restore drill already running"].join(", ");
}
