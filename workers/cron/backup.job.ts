import type { Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { shardDatabases } from "~/lib/shards.server";
import { startBackup } from "~/modules/backups/backup-job.server";
import { automaticBackupDue, pruneBackups } from "~/modules/backups/backup.server";
import { drillDue, startRestoreDrill } from "~/modules/backups/drill.server";
import { abandonStaleRestores } from "~/modules/backups/restore.server";
import { count } from "~/modules/ops/cron-jobs";
import { accountDatabases } from "~/modules/shards/databases.server";

/**
 * The daily automatic backup of every account database (ADR 0027, ADR 0060): each database's taken on the first
 * five-minute run a day after its last one, one database a run (one backup job runs at a time); backups older than 30
 * days deleted (safety copies too) and an agent restore cut off part-way marked failed; then, once a week for each
 * database, a restore drill of its newest backup. Backups and drills run as durable jobs, started here; a failed backup
 * or drill is recorded on the backup and its job (the Backup tab shows why).
 */
export async function backupJob(db: Db, _controller: ScheduledController, env: Env): Promise<string> {
  // Whole backups' rows are at home; an agent's safety copies and restores are in the agent's database (ADR 0060).
  const accounts = accountDatabases(env);
  let pruned = 0;
  for (const account of accounts) pruned += await pruneBackups(env, account);
  await abandonStaleRestores(db, accounts);
  const done = [`${count(pruned, "old backup")} deleted`];
  const databases = shardDatabases(env).length;
  const named = (shard: number) => (databases > 1 ? ` of database ${shard}` : "");
  let due: number | null = null;
  for (let shard = 0; shard < databases && due === null; shard++) if (await automaticBackupDue(db, Date.now(), shard)) due = shard;
  if (due !== null) {
    // The backup runs as a durable job (ADR 0058): started here, its outcome recorded on its row by its last step.
    const started = await startBackup(env, db, "automatic", null, { shard: due });
    done.unshift(started ? `backup${named(due)} started` : "backup already running");
  } else done.unshift("no backup due");
  const drill = await drillDue(db, Date.now(), databases);
  if (!drill) return done.join(", ");
  // The drill runs as a durable job (ADR 0058): started here, its outcome recorded on the backup by its last step.
  const started = await startRestoreDrill(env, db, drill, null);
  return [...done, started ? "restore drill started" : "restore drill already running"].join(", ");
}
