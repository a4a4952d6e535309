import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { automaticBackupDue, createBackup, pruneBackups } from "~/modules/backups/backup.server";
import { drillDue, runRestoreDrill } from "~/modules/backups/drill.server";
import { abandonStaleRestores } from "~/modules/backups/restore.server";
import { count } from "~/modules/ops/cron-jobs";

/**
 * The daily automatic backup (ADR 0027): taken on the first five-minute run a day after the last one, and
 * backups older than 30 days deleted (safety copies too) and an agent restore cut off part-way marked failed; then, once a week, a restore drill of the newest backup. A failed backup
 * or drill is recorded (the Backup tab shows why) and makes the run an error in the cron log.
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
  const drill = await runRestoreDrill(env, db, due);
  console.log(JSON.stringify({ event: "restore_drill", id: due, ok: drill.ok, ms: drill.ms, rows: drill.rows }));
  if (!drill.ok) throw new Error(`Restore drill of backup ${due} failed: ${drill.error}`);
  return [...done, `restore drill passed (${count(drill.rows, "row")})`].join(", ");
}
