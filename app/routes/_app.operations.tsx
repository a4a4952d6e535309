import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useFetcher, useLoaderData, useRevalidator } from "@remix-run/react";
import { Activity, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { PageHeader } from "~/components/PageHeader";
import { TabNav } from "~/components/ui/TabNav";
import { buttonClass } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { readForm } from "~/lib/body.server";
import { formatTime } from "~/lib/format";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { requireAdmin } from "~/modules/auth/guards.server";
import { loadCompliance } from "~/modules/data/compliance.server";
import { CompliancePanel } from "~/modules/data/components/CompliancePanel";
import { BACKUP_RETENTION_DAYS, backupStorage, createBackup, listBackups } from "~/modules/backups/backup.server";
import { BackupPanel, type BackupView } from "~/modules/backups/components/BackupPanel";
import { runRestoreDrill } from "~/modules/backups/drill.server";
import { listRestores, restoreAgent } from "~/modules/backups/restore.server";
import { RestoreFormSchema } from "~/modules/backups/restore.schema";
import { IncidentsPanel } from "~/modules/ops/components/IncidentsPanel";
import { MonitoringPanel } from "~/modules/ops/components/MonitoringPanel";
import { ThresholdsPanel } from "~/modules/ops/components/ThresholdsPanel";
import { STATUS_LABELS, statusFromAlerts, type SystemStatus } from "~/modules/ops/monitoring";
import { loadMonitoring, openAlerts } from "~/modules/ops/monitoring.server";
import { THRESHOLD_INFO, ThresholdEditSchema, type ThresholdMetric } from "~/modules/ops/thresholds";
import { checkSystemThresholds, listThresholds, updateThreshold } from "~/modules/ops/thresholds.server";
import { IncidentSchema } from "~/modules/ops/status";
import { postIncident, recentIncidents, resolveIncident } from "~/modules/ops/status.server";
import { users } from "~/db/schema";
import { eq } from "drizzle-orm";
import { redirectWithToast } from "~/lib/toast.server";
import { appOrigin } from "~/lib/context.server";
import { rememberAppOrigin } from "~/modules/ops/app-origin.server";

export const meta: MetaFunction = () => [{ title: "Operations Center — Porchlight" }];

// Monitoring, thresholds, backups and the GDPR requests. Admins only (everyone else gets 404).
const TABS = [
  { id: "monitoring", label: "Monitoring" },
  { id: "thresholds", label: "Thresholds" },
  { id: "backup", label: "Backup" },
  { id: "compliance", label: "Compliance" },
] as const;
type Tab = (typeof TABS)[number]["id"];
/** The Monitoring tab reads again this often while it is on screen (spec: every 30 s). */
const REFRESH_MS = 30_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  const prefs = await getDisplayPreferences(context, user.id);
  const tab: Tab = TABS.find((t) => t.id === new URL(request.url).searchParams.get("tab"))?.id ?? "monitoring";
  const now = Date.now();
  // The alert e-mails the cron sends link here; without PUBLIC_URL, the address an admin opens this page at is theirs.
  if (!context.config.PUBLIC_URL) await rememberAppOrigin(context.cloudflare.env.KV, appOrigin(context, request));
  if (tab === "thresholds") {
    const [thresholds, open] = await Promise.all([listThresholds(context.db), openAlerts(context.db)]);
    return { tab, prefs, status: statusFromAlerts(open), thresholds, monitoring: null, compliance: null, backup: null, incidents: [], readAt: now };
  }
  if (tab === "compliance") {
    const [compliance, open] = await Promise.all([loadCompliance(context.db, now), openAlerts(context.db)]);
    return { tab, prefs, status: statusFromAlerts(open), thresholds: null, monitoring: null, compliance, backup: null, incidents: [], readAt: now };
  }
  if (tab === "backup") {
    const bucket = context.cloudflare.env.BACKUPS;
    const [list, storage, restores, open] = await Promise.all([
      listBackups(context.db),
      backupStorage(bucket),
      listRestores(context.db),
      openAlerts(context.db),
    ]);
    const backup: BackupView = {
      backups: list,
      storage,
      retentionDays: BACKUP_RETENTION_DAYS,
      restores: restores.map((r) => ({ ...r.restore, email: r.email })),
    };
    return { tab, prefs, status: statusFromAlerts(open), thresholds: null, monitoring: null, compliance: null, backup, incidents: [], readAt: now };
  }
  const [monitoring, incidents] = await Promise.all([loadMonitoring(context.db, now), recentIncidents(context.db, now)]);
  return { tab, prefs, status: monitoring.status, thresholds: null, monitoring, compliance: null, backup: null, incidents, readAt: now };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "check") {
    const result = await checkSystemThresholds({ ...context, origin: appOrigin(context, request), kv: context.cloudflare.env.KV }, Date.now());
    return {
      ok: true as const,
      message:
        result.alerts.length === 0
          ? "All systems within normal parameters"
          : `${result.alerts.length} alert${result.alerts.length === 1 ? "" : "s"} open, ${result.alerts_triggered} new`,
    };
  }
  if (intent === "threshold") {
    const parsed = ThresholdEditSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ ok: false as const, error: parsed.error.issues[0]?.message ?? "That value cannot be saved." }, 400);
    const problem = await updateThreshold(context.db, parsed.data, Date.now());
    if (problem) return data({ ok: false as const, error: problem }, 400);
    const [saved] = (await listThresholds(context.db)).filter((t) => t.id === parsed.data.id);
    const label = THRESHOLD_INFO[saved?.metricName as ThresholdMetric]?.label ?? saved?.metricName ?? "Threshold";
    const message =
      parsed.data.field === "enabled"
        ? `${label} is ${parsed.data.value === "true" ? "checked" : "no longer checked"}.`
        : `${label}: ${parsed.data.field} at ${parsed.data.value}.`;
    return { ok: true as const, message };
  }
  if (intent === "backup") {
    const made = await createBackup(context.cloudflare.env, context.db, "manual");
    return redirectWithToast(
      context,
      "/operations?tab=backup",
      made.status === "completed"
        ? { title: "Backup Created", description: `${made.tableCount} tables, ${made.rowCount.toLocaleString("en-US")} rows.`, variant: "success" }
        : { title: "Backup Failed", description: made.errorMessage ?? "Please try again.", variant: "destructive" },
    );
  }
  if (intent === "drill") {
    const [newest] = (await listBackups(context.db, 20)).filter((b) => b.status === "completed" && b.userId === null);
    if (!newest)
      return redirectWithToast(context, "/operations?tab=backup", {
        title: "Restore drill failed",
        description: "There is no completed backup to drill yet.",
        variant: "destructive",
      });
    const drill = await runRestoreDrill(context.cloudflare.env, context.db, newest.id);
    return redirectWithToast(
      context,
      "/operations?tab=backup",
      drill.ok
        ? {
            title: "Restore drill passed",
            description: `${drill.rows.toLocaleString("en-US")} rows restored and checked in ${(drill.ms / 1000).toFixed(1)} s.`,
            variant: "success",
          }
        : { title: "Restore drill failed", description: drill.error ?? "Please try again.", variant: "destructive" },
    );
  }
  if (intent === "restore") {
    const parsed = RestoreFormSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success)
      return data({ ok: false as const, error: parsed.error.issues[0]?.message ?? "That restore cannot be run.", restore: true }, 400);
    const agent = await context.db.select({ id: users.id }).from(users).where(eq(users.email, parsed.data.email)).get();
    if (!agent) return data({ ok: false as const, error: "No account has that e-mail address.", restore: true }, 400);
    const done = await restoreAgent(context.cloudflare.env, context.db, { backupId: parsed.data.backupId, userId: agent.id, requestedBy: user.id });
    const rows = `${done.rowCount.toLocaleString("en-US")} ${done.rowCount === 1 ? "row" : "rows"}`;
    return redirectWithToast(
      context,
      "/operations?tab=backup",
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
    );
  }
  if (intent === "incident") {
    const parsed = IncidentSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) return data({ ok: false as const, error: parsed.error.issues[0]?.message ?? "That incident cannot be posted." }, 400);
    await postIncident(context.db, parsed.data, user.id, Date.now());
    return redirectWithToast(context, "/operations", {
      title: "Incident posted",
      description: "It shows on the status page now.",
      variant: "success",
    });
  }
  if (intent === "resolve-incident") {
    const id = Number(form.get("id"));
    if (!Number.isInteger(id) || !(await resolveIncident(context.db, id, Date.now())))
      return data({ ok: false as const, error: "That incident is not open." }, 400);
    return redirectWithToast(context, "/operations", { title: "Incident resolved", variant: "success" });
  }
  return data({ ok: false as const, error: "Unknown action." }, 400);
}

const BADGE_CLASS: Record<SystemStatus, string> = {
  operational: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  degraded: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  outage: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** Re-reads the page every 30 s while it is visible, without a full reload; paused while the tab is hidden. */
function useRefresh(active: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const tick = () => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    };
    const timer = window.setInterval(tick, REFRESH_MS);
    const onVisible = () => tick();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [active, revalidate, state]);
}

export default function OperationsPage() {
  const { tab, prefs, status, thresholds, monitoring, compliance, backup, incidents, readAt } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  useRefresh(tab === "monitoring");
  const check = useFetcher<{ ok: true; message: string } | { ok: false; error: string }>();
  useFetcherResult(check, (result) => {
    if (result.ok) toast({ title: "Health check completed", description: result.message, variant: "success" });
    else toast({ title: "Health check failed", description: result.error, variant: "destructive" });
  });
  return (
    <>
      <PageHeader
        title="Operations Center"
        description={`Read at ${formatTime(readAt, prefs)}${tab === "monitoring" ? " · refreshes every 30 s" : ""}`}
        actions={
          <div className="flex flex-wrap items-center gap-2">
            <span role="status" className={`inline-flex min-h-10 items-center gap-2 rounded-full px-3 text-sm font-semibold ${BADGE_CLASS[status]}`}>
              <Activity aria-hidden="true" className="h-4 w-4" />
              {STATUS_LABELS[status]}
            </span>
            <check.Form method="post">
              <button type="submit" name="intent" value="check" className={buttonClass("secondary")} disabled={check.state !== "idle"}>
                <RefreshCw aria-hidden="true" className="h-5 w-5" />
                Check thresholds now
              </button>
            </check.Form>
          </div>
        }
      />
      <TabNav label="Operations Center sections" base="/operations" tabs={TABS} current={tab} />
      {thresholds ? (
        <ThresholdsPanel thresholds={thresholds} />
      ) : compliance ? (
        <CompliancePanel view={compliance} prefs={prefs} />
      ) : backup ? (
        <BackupPanel view={backup} prefs={prefs} restoreError={actionData && !actionData.ok && "restore" in actionData ? actionData.error : null} />
      ) : monitoring ? (
        <div className="flex flex-col gap-6">
          <MonitoringPanel data={monitoring} prefs={prefs} />
          <IncidentsPanel incidents={incidents} prefs={prefs} error={actionData && !actionData.ok ? actionData.error : null} />
        </div>
      ) : null}
    </>
  );
}
