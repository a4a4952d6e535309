import { appOrigin, type RequestContext } from "~/lib/context.server";
import { loadCompliance } from "~/modules/data/compliance.server";
import { BACKUP_RETENTION_DAYS, backupStorage, listBackups } from "~/modules/backups/backup.server";
import type { BackupView } from "~/modules/backups/components/BackupPanel";
import { listRestores } from "~/modules/backups/restore.server";
import { latestJobs } from "~/modules/jobs/durable-jobs.server";
import type { UserId } from "~/lib/tenancy.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { sendDeadEmailAgain } from "~/modules/email/dead-letters.server";
import { databaseFigures } from "~/modules/shards/figures.server";
import { HOME_SHARD, shardDatabases } from "~/lib/shards.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import { monitoringAggregates } from "./aggregates.server";
import { rememberAppOrigin } from "./app-origin.server";
import { loadMonitoring, openAlerts } from "./monitoring.server";
import { statusFromAlerts } from "./monitoring";
import { OPERATIONS_TABS, type OperationsTab } from "./operations-tabs";
import { recentIncidents } from "./status.server";
import { checkSystemThresholds, listThresholds, updateThreshold } from "./thresholds.server";
import { THRESHOLD_INFO, ThresholdEditSchema, type ThresholdMetric } from "./thresholds";
import { IncidentSchema } from "./status";
import { postIncident, resolveIncident } from "./status.server";

// The Operations Center (admins only): what each tab reads, and what its forms do. The route checks the admin,
// reads the form and shapes the answers.

/** The tab a request asks for (`?tab=`), the Monitoring tab by default. */
function operationsTab(request: Request): OperationsTab {
  return OPERATIONS_TABS.find((t) => t.id === new URL(request.url).searchParams.get("tab"))?.id ?? "monitoring";
}

/**
 * One tab's figures as of `now`, with the badge's status. The Monitoring tab's windows of a day or more are the cron's
 * stored figures (`aggregatesAt` says when they were computed; null when they were computed for this read).
 */
export async function loadOperationsPage(context: RequestContext, request: Request, userId: UserId, now: number) {
  const tab = operationsTab(request);
  const { db } = context;
  // The alert e-mails the cron sends link here; without PUBLIC_URL, the address an admin opens this page at is theirs.
  const remembered = context.config.PUBLIC_URL ? null : rememberAppOrigin(context.cloudflare.env.KV, appOrigin(context, request));
  const none = { thresholds: null, monitoring: null, compliance: null, backup: null, databases: null, incidents: [], aggregatesAt: null };
  const [prefs, tabData] = await Promise.all([
    getDisplayPreferences(context, userId),
    (async () => {
      if (tab === "thresholds") {
        const [thresholds, open] = await Promise.all([listThresholds(db), openAlerts(db)]);
        return { ...none, status: statusFromAlerts(open), thresholds };
      }
      if (tab === "compliance") {
        const [compliance, open] = await Promise.all([loadCompliance(accountDatabases(context.cloudflare.env), now), openAlerts(db)]);
        return { ...none, status: statusFromAlerts(open), compliance };
      }
      if (tab === "databases") {
        const [figures, open] = await Promise.all([databaseFigures(context.cloudflare.env), openAlerts(db)]);
        return { ...none, status: statusFromAlerts(open), databases: figures };
      }
      if (tab === "backup") {
        const [list, storage, restores, open, jobs] = await Promise.all([
          listBackups(accountDatabases(context.cloudflare.env)),
          backupStorage(context.cloudflare.env.BACKUPS),
          listRestores(accountDatabases(context.cloudflare.env)),
          openAlerts(db),
          latestJobs(db, now),
        ]);
        const backup: BackupView = {
          backups: list,
          databases: shardDatabases(context.cloudflare.env).length,
          storage,
          retentionDays: BACKUP_RETENTION_DAYS,
          restores: restores.map((r) => ({ ...r.restore, email: r.email })),
          jobs: { drill: jobs["restore-drill"] ?? null, backup: jobs.backup ?? null, restore: jobs["agent-restore"] ?? null },
        };
        return { ...none, status: statusFromAlerts(open), backup };
      }
      const stored = monitoringAggregates(db, now);
      const [monitoring, incidents, aggregates] = await Promise.all([
        loadMonitoring(db, accountDatabases(context.cloudflare.env), now, { aggregates: stored.then((s) => s.figures) }),
        recentIncidents(db, now),
        stored,
      ]);
      return { ...none, status: monitoring.status, monitoring, incidents, aggregatesAt: aggregates.live ? null : aggregates.computedAt };
    })(),
    remembered,
  ]);
  return { tab, prefs, readAt: now, ...tabData };
}

type Outcome = { ok: true; message: string } | { ok: false; error: string };

/** "Check thresholds now": the cron's check, run at once; says what it left open. */
export async function checkThresholdsNow(context: RequestContext, request: Request, now: number): Promise<string> {
  const result = await checkSystemThresholds(
    { ...context, accounts: accountDatabases(context.cloudflare.env), origin: appOrigin(context, request), kv: context.cloudflare.env.KV },
    now,
  );
  return result.alerts.length === 0
    ? "All systems within normal parameters"
    : `${result.alerts.length} alert${result.alerts.length === 1 ? "" : "s"} open, ${result.alerts_triggered} new`;
}

/** One threshold edit from the Thresholds tab (a toggle or one number); refused whole with the reason. */
export async function editThreshold(context: RequestContext, form: FormData, now: number): Promise<Outcome> {
  const parsed = ThresholdEditSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That value cannot be saved." };
  const problem = await updateThreshold(context.db, parsed.data, now);
  if (problem) return { ok: false, error: problem };
  const [saved] = (await listThresholds(context.db)).filter((t) => t.id === parsed.data.id);
  const label = THRESHOLD_INFO[saved?.metricName as ThresholdMetric]?.label ?? saved?.metricName ?? "Threshold";
  const message =
    parsed.data.field === "enabled"
      ? `${label} is ${parsed.data.value === "true" ? "checked" : "no longer checked"}.`
      : `${label}: ${parsed.data.field} at ${parsed.data.value}.`;
  return { ok: true, message };
}

/** An incident an admin posts for the public status page. */
export async function postIncidentFromForm(context: RequestContext, form: FormData, userId: string, now: number): Promise<Outcome> {
  const parsed = IncidentSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "That incident cannot be posted." };
  await postIncident(context.db, parsed.data, userId, now);
  return { ok: true, message: "It shows on the status page now." };
}

/** Resolves an open incident; one that is not open (or no id) is refused. */
export async function resolveIncidentFromForm(context: RequestContext, form: FormData, now: number): Promise<Outcome> {
  const id = Number(form.get("id"));
  if (!Number.isInteger(id) || !(await resolveIncident(context.db, id, now))) return { ok: false, error: "That incident is not open." };
  return { ok: true, message: "Incident resolved" };
}

/**
 * "Send again" on a dead e-mail of the form's database (queued once however often it is pressed); an id that is no dead
 * letter there, or a database that is not bound, is refused.
 */
export async function sendEmailAgainFromForm(context: RequestContext, form: FormData): Promise<Outcome> {
  const id = form.get("id");
  const shard = Number(form.get("shard") ?? HOME_SHARD);
  const database = Number.isInteger(shard) ? accountDatabases(context.cloudflare.env)[shard] : undefined;
  if (typeof id !== "string" || id.length === 0 || id.length > 64 || !database)
    return { ok: false, error: "That e-mail is not among the dead letters." };
  return sendDeadEmailAgain(database, context.config, id, shard);
}
