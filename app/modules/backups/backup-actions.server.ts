import { eq } from "drizzle-orm";
import { auditPerson, recordAudit, type AuditWhere } from "~/modules/audit/audit.server";
import { accountDirectory, teamMembers, users } from "~/db/schema";
import type { Db } from "~/db/client.server";
import type { RequestContext } from "~/lib/context.server";
import { HOME_SHARD, shardDatabases } from "~/lib/shards.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import type { ToastMessage } from "~/lib/toast";
import { startBackup } from "./backup-job.server";
import { listBackups } from "./backup.server";
import { startRestoreDrill } from "./drill.server";
import { RestoreFormSchema } from "./restore.schema";
import { startAgentRestore } from "./restore.server";

// What the Operations Center's Backup tab does for an admin: a backup now, a restore drill of the newest whole backup,
// and one agent's restore. Each answers the toast that says how it went (a drill: that it started), or (a restore it cannot start)
// the reason.

type Toast = Omit<ToastMessage, "id">;

/**
 * Starts a manual backup of one whole account database (the form's `shard`, else the home database) as a durable job
 * and answers at once; the Backup tab shows its progress.
 */
export async function backupNow(context: RequestContext, form: FormData, startedBy: string): Promise<Toast> {
  const env = context.cloudflare.env;
  const databases = shardDatabases(env).length;
  const asked = form.get("shard");
  const shard = asked === null || asked === "" ? HOME_SHARD : Number(asked);
  if (!Number.isInteger(shard) || shard < 0 || shard >= databases)
    return { title: "Backup not started", description: `There is no database ${String(asked).slice(0, 20)} to back up.`, variant: "destructive" };
  const started = await startBackup(env, context.db, "manual", startedBy, { shard });
  const of = databases > 1 ? `Database ${shard}: its` : "Its";
  return started
    ? { title: "Backup started", description: `${of} progress shows under Backups; it is listed when it completes.`, variant: "success" }
    : { title: "A backup is already running", description: "Its progress shows under Backups.", variant: "destructive" };
}

/**
 * Starts the restore drill of the newest completed whole-database backup as a durable job and answers at once; the
 * Backup tab shows its progress and result.
 */
export async function drillNewestBackup(context: RequestContext, startedBy: string): Promise<Toast> {
  const [newest] = (await listBackups([context.db], 20)).filter((b) => b.status === "completed" && b.userId === null);
  if (!newest) return { title: "Restore drill failed", description: "There is no completed backup to drill yet.", variant: "destructive" };
  const job = await startRestoreDrill(context.cloudflare.env, context.db, newest.id, startedBy);
  return job
    ? { title: "Drill started", description: "Its progress and result show under Restore drill.", variant: "success" }
    : { title: "A restore drill is already running", description: "Its progress shows under Restore drill.", variant: "destructive" };
}

/**
 * Starts one agent's restore from a backup as a durable job, the agent named by e-mail, and answers at once; refused
 * (nothing changed) when the form or the address is wrong. The Backup tab shows its progress and result.
 */
export async function restoreAgentByEmail(
  context: RequestContext,
  form: FormData,
  requestedBy: string,
  where: AuditWhere,
): Promise<{ ok: true; toast: Toast } | { ok: false; error: string }> {
  const parsed = RestoreFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That restore cannot be run." };
  // The agent's account database (ADR 0060): listed in the directory, else the home database (accounts made before it).
  const listed = await context.db
    .select({ shard: accountDirectory.shard })
    .from(accountDirectory)
    .where(eq(accountDirectory.email, parsed.data.email))
    .get();
  const shard = listed?.shard ?? HOME_SHARD;
  const account = accountDatabases(context.cloudflare.env)[shard];
  const agent = await account?.select({ id: users.id }).from(users).where(eq(users.email, parsed.data.email)).get();
  if (!account || !agent) return { ok: false, error: "No account has that e-mail address." };
  const started = await startAgentRestore(
    context.cloudflare.env,
    context.db,
    { backupId: parsed.data.backupId, userId: agent.id, requestedBy, shard },
    {},
    Date.now(),
    account,
  );
  if (started) await auditRestore(account, agent.id, parsed.data.backupId, where);
  return {
    ok: true,
    toast: started
      ? {
          title: "Restore started",
          description: `${parsed.data.email}: its progress and result show under Agent restores. What they have now is kept in a safety copy first.`,
          variant: "success",
        }
      : {
          title: "A restore is already running",
          description: "Its progress shows under Agent restores; start this one when it has ended.",
          variant: "destructive",
        },
  };
}

/**
 * The restore's audit row, in the agent's own database (their team's log if they are in one, their Security page either
 * way). Porchlight's staff run restores: the actor is "Porchlight support", not a user of that database.
 */
async function auditRestore(account: Db, agentId: string, backupId: string, where: AuditWhere) {
  const team = await account.select({ teamId: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.userId, agentId)).get();
  await recordAudit(
    { db: account },
    {
      action: "backup.restored",
      teamId: team?.teamId ?? null,
      actor: null,
      subject: await auditPerson(account, agentId),
      target: { type: "backup", id: backupId, label: backupId.slice(0, 10) },
      where,
      at: Date.now(),
    },
  );
}
