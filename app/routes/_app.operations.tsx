import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { auditWhere } from "~/modules/audit/audit.server";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { TabNav } from "~/components/ui/TabNav";
import type { ActionResult } from "~/lib/action-result";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireAdmin } from "~/modules/auth/guards.server";
import { backupNow, drillNewestBackup, restoreAgentByEmail } from "~/modules/backups/backup-actions.server";
import { BackupPanel } from "~/modules/backups/components/BackupPanel";
import { CompliancePanel } from "~/modules/data/components/CompliancePanel";
import { OutgoingMessagesPanel } from "~/modules/outgoing/components/OutgoingMessagesPanel";
import { IncidentsPanel } from "~/modules/ops/components/IncidentsPanel";
import { MonitoringPanel } from "~/modules/ops/components/MonitoringPanel";
import { OperationsHeader } from "~/modules/ops/components/OperationsHeader";
import { ThresholdsPanel } from "~/modules/ops/components/ThresholdsPanel";
import { DatabasesPanel } from "~/modules/shards/components/DatabasesPanel";
import {
  checkThresholdsNow,
  editThreshold,
  loadOperationsPage,
  postIncidentFromForm,
  resolveIncidentFromForm,
  sendEmailAgainFromForm,
} from "~/modules/ops/operations-page.server";
import { OPERATIONS_TABS } from "~/modules/ops/operations-tabs";

export const meta: MetaFunction = () => [{ title: "Operations Center — Porchlight" }];

// Monitoring, thresholds, backups, the GDPR requests and the account databases. Admins only (everyone else gets 404).

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAdmin(request, context);
  return loadOperationsPage(context, request, user.id, Date.now());
}

/** A form the action cannot carry out: 400 with the reason, nothing changed. */
const refused = (intent: string, error: string) => data<ActionResult>({ ok: false, intent, error, fieldErrors: {} }, { status: 400 });

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireAdmin(request, context);
  const form = await readForm(request);
  const now = Date.now();
  return dispatchIntent(form, {
    check: async () => ({ ok: true, intent: "check", message: await checkThresholdsNow(context, request, now) }) satisfies ActionResult,
    threshold: async () => {
      const edit = await editThreshold(context, form, now);
      return edit.ok ? ({ ok: true, intent: "threshold", message: edit.message } satisfies ActionResult) : refused("threshold", edit.error);
    },
    backup: async () => redirectWithToast(context, "/operations?tab=backup", await backupNow(context, form, user.id)),
    drill: async () => redirectWithToast(context, "/operations?tab=backup", await drillNewestBackup(context, user.id)),
    restore: async () => {
      const restore = await restoreAgentByEmail(context, form, user.id, auditWhere(request));
      return restore.ok ? redirectWithToast(context, "/operations?tab=backup", restore.toast) : refused("restore", restore.error);
    },
    incident: async () => {
      const posted = await postIncidentFromForm(context, form, user.id, now);
      if (!posted.ok) return refused("incident", posted.error);
      return redirectWithToast(context, "/operations", { title: "Incident posted", description: posted.message, variant: "success" });
    },
    "resolve-incident": async () => {
      const resolved = await resolveIncidentFromForm(context, form, now);
      if (!resolved.ok) return refused("resolve-incident", resolved.error);
      return redirectWithToast(context, "/operations", { title: resolved.message, variant: "success" });
    },
    "resend-email": async () => {
      const again = await sendEmailAgainFromForm(context, form);
      if (!again.ok) return refused("resend-email", again.error);
      return redirectWithToast(context, "/operations", { title: "E-mail queued again", description: again.message, variant: "success" });
    },
  });
}

export default function OperationsPage() {
  const { tab, prefs, status, thresholds, monitoring, compliance, backup, databases, incidents, readAt, aggregatesAt } =
    useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const errorOf = (...intents: string[]) => (answer && !answer.ok && intents.includes(answer.intent) ? answer.error : null);
  return (
    <>
      <OperationsHeader status={status} readAt={readAt} prefs={prefs} refreshes={tab === "monitoring"} />
      <TabNav label="Operations Center sections" base="/operations" tabs={OPERATIONS_TABS} current={tab} />
      {thresholds ? (
        <ThresholdsPanel thresholds={thresholds} />
      ) : compliance ? (
        <CompliancePanel view={compliance} prefs={prefs} />
      ) : backup ? (
        <BackupPanel view={backup} prefs={prefs} restoreError={errorOf("restore")} />
      ) : databases ? (
        <DatabasesPanel view={databases} />
      ) : monitoring ? (
        <div className="flex flex-col gap-6">
          <MonitoringPanel data={monitoring} prefs={prefs} aggregatesAt={aggregatesAt} />
          <OutgoingMessagesPanel email={monitoring.email} push={monitoring.push} prefs={prefs} error={errorOf("resend-email")} />
          <IncidentsPanel incidents={incidents} prefs={prefs} error={errorOf("incident", "resolve-incident")} />
        </div>
      ) : null}
    </>
  );
}
