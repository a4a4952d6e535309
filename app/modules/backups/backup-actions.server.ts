import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { ToastMessage } from "~/lib/toast";
import { startBackup } from "./backup-job.server";
import { listBackups } from "./backup.server";
import { startRestoreDrill } from "./drill.server";
import { RestoreFormSchema } from "./restore.schema";
import { restoreAgent } from "./restore.server";

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

/** One agent's restore from a backup, the agent named by e-mail; refused (nothing changed) when the form or the address is wrong. */
export async function restoreAgentByEmail(
  context: RequestContext,
  form: FormData,
  requestedBy: string,
): Promise<{ ok: true; toast: Toast } | { ok: false; error: string }> {
  const parsed = RestoreFormSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That restore cannot be run." };
  const agent = await context.db.select({ id: users.id }).from(users).where(eq(users.email, parsed.data.email)).get();
  if (!agent) return { ok: false, error: "No account has that e-mail address." };
  const done = await restoreAgent(context.cloudflare.env, context.db, { backupId: parsed.data.backupId, userId: agent.id, requestedBy });
  const rows = `${done.rowCount.toLocaleString("en-US")} ${done.rowCount === 1 ? "row" : "rows"}`;
  return {
    ok: true,
    toast:
      done.status === "completed"
        ? {
            title: "Restore Completed",
            description: `${rows} of ${parsed.data.email} restored. What they had before is in a safety copy at the top of the list.`,
            variant: "success",
          }
        : {
            title: "Restore Failed",
            description: `${done.errorMessage ?? "Please try again."} Nothing of the agent's was changed.`,
            variant: "destructive",
          },
  };
}
