import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
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

/** Starts a manual backup of the whole database as a durable job and answers at once; the Backup tab shows its progress. */
export async function backupNow(context: RequestContext, startedBy: string): Promise<Toast> {
  const started = await startBackup(context.cloudflare.env, context.db, "manual", startedBy);
  return started
    ? { title: "Backup started", description: "Its progress shows under Backups; it is listed when it completes.", variant: "success" }
    : { title: "A backup is already running", description: "Its progress shows under Backups.", variant: "destructive" };
}

/**
 * Starts the restore drill of the newest completed whole-database backup as a durable job and answers at once; the
 * Backup tab shows its progress and result.
 */
export async function drillNewestBackup(context: RequestContext, startedBy: string): Promise<Toast> {
  const [newest] = (await listBackups(context.db, 20)).filter((b) => b.status === "completed" && b.userId === null);
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
): Promise<{ ok: true; toast: Toast } | { ok: false; error: string }> {
  const parsed = RestoreFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That restore cannot be run." };
  const agent = await context.db.select({ id: users.id }).from(users).where(eq(users.email, parsed.data.email)).get();
  if (!agent) return { ok: false, error: "No account has that e-mail address." };
  const started = await startAgentRestore(context.cloudflare.env, context.db, { backupId: parsed.data.backupId, userId: agent.id, requestedBy });
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
