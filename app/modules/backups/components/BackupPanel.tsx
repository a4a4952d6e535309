import { Form, useNavigation } from "@remix-run/react";
import { Download as DownloadIcon, RotateCcw } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";
import { SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import { formatDate, formatTime, type DisplayPreferences } from "~/lib/format";
import { JobProgress, jobActive, type JobView } from "~/modules/jobs/components/JobProgress";

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export interface BackupRow {
  id: string;
  type: "automatic" | "manual" | "safety";
  userId: string | null;
  /** A safety copy's agent. */
  agentEmail: string | null;
  status: "in_progress" | "completed" | "failed";
  startedAt: number;
  finishedAt: number | null;
  sizeBytes: number;
  tableCount: number;
  rowCount: number;
  schemaVersion: string | null;
  errorMessage: string | null;
  drillStatus: "passed" | "failed" | null;
  drillAt: number | null;
  drillMs: number | null;
  drillError: string | null;
  /** The account database backed up (0: the home database). */
  shard: number;
}

export interface BackupView {
  backups: BackupRow[];
  /** Account databases bound (ADR 0060): each is backed up on its own; the tab names them when there are several. */
  databases: number;
  storage: { bytes: number; objects: number };
  retentionDays: number;
  restores: RestoreRow[];
  /** The newest durable job of each kind this tab starts (ADR 0058). */
  jobs: { drill: JobView | null; backup: JobView | null; restore: JobView | null };
}

interface RestoreRow {
  id: string;
  backupId: string;
  email: string | null;
  safetyBackupId: string | null;
  status: "in_progress" | "completed" | "failed";
  rowCount: number;
  startedAt: number;
  errorMessage: string | null;
}

/** The spec's confirmation (section 9); restore.server.ts has it too, for the tests. */
const RESTORE_CONFIRM = "Are you sure you want to restore this backup? This will overwrite current data.";
const rowLink =
  "inline-flex min-h-11 min-w-11 items-center justify-center gap-1 font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400";

/** An account database's name on this tab (ADR 0060). */
const databaseName = (n: number) => (n === 0 ? "Database 0 (home)" : `Database ${n}`);

const STATUS_LABELS: Record<BackupRow["status"], string> = { in_progress: "In progress", completed: "Completed", failed: "Failed" };
const TYPE_LABELS: Record<BackupRow["type"], string> = { automatic: "Automatic", manual: "Manual", safety: "Safety copy" };

/** 1,536 → "1.5 KB"; binary units, one decimal. */
function formatBytes(bytes: number): string {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes.toLocaleString("en-US")} ${bytes === 1 ? "byte" : "bytes"}` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Operations Center → Backup: what R2 holds, "Create backup", and every backup of the last 30 days. */
export function BackupPanel({ view, prefs, restoreError }: { view: BackupView; prefs: DisplayPreferences; restoreError: string | null }) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const latest = view.backups.find((b) => b.status === "completed" && b.userId === null);
  const when = (at: number) => `${formatDate(at, prefs)} ${formatTime(at, prefs)}`;
  const restoreDialog = useRef<HTMLDialogElement>(null);
  const [restoring, setRestoring] = useState<BackupRow | null>(null);
  const openRestore = (b: BackupRow) => {
    setRestoring(b);
    restoreDialog.current?.showModal();
  };
  // The dialog stays open (its button busy) while the restore runs; a refusal (an unknown e-mail) shows in it, a
  // restore that ran closes it and the toast says how it went.
  const submittingRestore = busy("restore");
  const wasRestoring = useRef(false);
  useEffect(() => {
    if (submittingRestore) wasRestoring.current = true;
    else if (wasRestoring.current && navigation.state === "idle") {
      wasRestoring.current = false;
      if (!restoreError) restoreDialog.current?.close();
    }
  }, [submittingRestore, navigation.state, restoreError]);
  const drilled = [...view.backups].filter((b) => b.drillAt !== null).sort((a, b) => b.drillAt! - a.drillAt!)[0];
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="backup-storage-heading" className={card}>
        <h2 id="backup-storage-heading" className="text-lg font-semibold">
          Backups
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Every table of {view.databases > 1 ? "each account database" : "the database"}, as compressed NDJSON with a row count and a SHA-256 per part
          and per table, in the R2 bucket. Taken daily by the cron and kept {view.retentionDays} days. For a restore of a whole database to a moment,
          use D1 Time Travel (README: Restoring).
        </p>
        <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-3">
          <div className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">Storage used</dt>
            <dd className="text-2xl font-semibold tabular-nums">{formatBytes(view.storage.bytes)}</dd>
            <dd className="text-sm text-stone-600 dark:text-stone-300">
              {view.storage.objects.toLocaleString("en-US")} {view.storage.objects === 1 ? "object" : "objects"} in R2
            </dd>
          </div>
          <div className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
            <dt className="text-sm text-stone-600 dark:text-stone-300">Latest completed</dt>
            <dd className="text-lg font-semibold">
              {latest ? `${formatDate(latest.startedAt, prefs)} ${formatTime(latest.startedAt, prefs)}` : "None yet"}
            </dd>
          </div>
        </dl>
        {jobActive(view.jobs.backup) ? <JobProgress job={view.jobs.backup} label="Backup" /> : null}
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="backup" />
          {view.databases > 1 ? (
            <div className="w-full sm:w-56">
              <SelectField
                label="Database"
                name="shard"
                defaultValue="0"
                options={Array.from({ length: view.databases }, (_, n) => [String(n), databaseName(n)] as const)}
              />
            </div>
          ) : null}
          <Button type="submit" disabled={jobActive(view.jobs.backup)} busy={busy("backup")} busyLabel="Starting…">
            Create backup
          </Button>
        </Form>
      </section>

      <section aria-labelledby="drill-heading" className={card}>
        <h2 id="drill-heading" className="text-lg font-semibold">
          Restore drill
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Loads a whole backup into the scratch database, checks every table&apos;s rows and SHA-256 against its manifest, then reads every row back
          and checks it again, in the background. The cron drills the newest backup once a week.
        </p>
        {jobActive(view.jobs.drill) ? <JobProgress job={view.jobs.drill} label="Drill" /> : null}
        <p className="mt-3 font-medium" role="status">
          {drilled
            ? `Last drill: ${drilled.drillStatus === "passed" ? "passed" : "failed"}, ${formatDate(drilled.drillAt!, prefs)} ${formatTime(drilled.drillAt!, prefs)}, in ${((drilled.drillMs ?? 0) / 1000).toFixed(1)} s${drilled.drillError ? `: ${drilled.drillError}` : ""}`
            : "No drill yet."}
        </p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="drill" />
          <Button type="submit" variant="secondary" disabled={!latest || jobActive(view.jobs.drill)} busy={busy("drill")} busyLabel="Starting…">
            Drill the newest backup
          </Button>
        </Form>
      </section>

      <section aria-labelledby="backup-list-heading" className={card}>
        <h2 id="backup-list-heading" className="text-lg font-semibold">
          Last {view.retentionDays} days
        </h2>
        {view.backups.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No backups yet. The cron takes one a day; Create backup starts one now.</p>
        ) : (
          <div role="group" aria-label="Backups, newest first" tabIndex={0} className="relative mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Backups, newest first</caption>
              <thead className="text-stone-600 dark:text-stone-400">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Started
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">
                    Type
                  </th>
                  <th scope="col" className="py-2 pr-3 font-medium">
                    Status
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">
                    Size
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">
                    Tables
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">
                    Rows
                  </th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium md:table-cell">
                    Restore drill
                  </th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Download, restore or error</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
                {view.backups.map((b) => (
                  <tr key={b.id}>
                    <td className="py-2 pr-3">
                      <span className="whitespace-nowrap">{formatDate(b.startedAt, prefs)}</span>{" "}
                      <span className="whitespace-nowrap">{formatTime(b.startedAt, prefs)}</span>
                    </td>
                    <td className="hidden py-2 pr-3 sm:table-cell">
                      {TYPE_LABELS[b.type]}
                      {b.agentEmail ? <span className="block text-xs text-stone-600 dark:text-stone-400">{b.agentEmail}</span> : null}
                      {view.databases > 1 && !b.userId ? (
                        <span className="block text-xs text-stone-600 dark:text-stone-400">{databaseName(b.shard)}</span>
                      ) : null}
                    </td>
                    <td className="py-2 pr-3">
                      {STATUS_LABELS[b.status]}
                      <span className="block text-xs text-stone-600 sm:hidden dark:text-stone-400">
                        {TYPE_LABELS[b.type]}
                        {b.agentEmail ? ` · ${b.agentEmail}` : ""}
                        {view.databases > 1 && !b.userId ? ` · ${databaseName(b.shard)}` : ""}
                        {b.status === "completed" ? ` · ${formatBytes(b.sizeBytes)}` : ""}
                      </span>
                      {b.drillStatus ? (
                        <span className="block text-xs text-stone-600 md:hidden dark:text-stone-400">Drill {b.drillStatus}</span>
                      ) : null}
                    </td>
                    <td className="hidden whitespace-nowrap py-2 pr-3 text-right tabular-nums sm:table-cell">
                      {b.status === "completed" ? formatBytes(b.sizeBytes) : "—"}
                    </td>
                    <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{b.status === "completed" ? b.tableCount : "—"}</td>
                    <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">
                      {b.status === "completed" ? b.rowCount.toLocaleString("en-US") : "—"}
                    </td>
                    <td className="hidden py-2 pr-3 md:table-cell">
                      {b.drillStatus === "passed" ? (
                        "Passed"
                      ) : b.drillStatus === "failed" ? (
                        <span className="text-red-700 dark:text-red-400">Failed: {b.drillError}</span>
                      ) : (
                        "—"
                      )}
                    </td>
                    <td className="py-2">
                      {b.status === "completed" ? (
                        <span className="flex flex-col items-center sm:flex-row sm:gap-1">
                          <a
                            href={`/operations/backups/${b.id}/download`}
                            download
                            onClick={() =>
                              toast({
                                title: "Download Started",
                                description: "One .ndjson.gz file: the manifest, then every row with its table.",
                                variant: "success",
                              })
                            }
                            className={rowLink}
                          >
                            <DownloadIcon aria-hidden className="size-5 sm:hidden" />
                            <span className="sr-only sm:not-sr-only">Download</span>
                            <span className="sr-only"> the backup of {when(b.startedAt)}</span>
                          </a>
                          <button type="button" onClick={() => openRestore(b)} className={rowLink}>
                            <RotateCcw aria-hidden className="size-5 sm:hidden" />
                            <span className="sr-only sm:not-sr-only">Restore</span>
                            <span className="sr-only"> an agent from the backup of {when(b.startedAt)}</span>
                          </button>
                        </span>
                      ) : b.errorMessage ? (
                        <span className="text-red-700 dark:text-red-400">{b.errorMessage}</span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="restores-heading" className={card}>
        <h2 id="restores-heading" className="text-lg font-semibold">
          Agent restores
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Restore on a backup replaces one agent&apos;s contacts, deals, tasks, activities, stage history and settings with the backup&apos;s, all at
          once, after a safety copy of what they have now; restoring that safety copy undoes it. Their sign-in, billing and e-mails stay as they are.
        </p>
        {jobActive(view.jobs.restore) ? <JobProgress job={view.jobs.restore} label="Restore" /> : null}
        {view.restores.length === 0 ? (
          <p className="mt-3 text-sm">No restores yet.</p>
        ) : (
          <ul className="mt-3 divide-y divide-stone-200 text-sm dark:divide-stone-800">
            {view.restores.map((r) => (
              <li key={r.id} className="py-2">
                <span className="font-medium">{r.email ?? "A deleted account"}</span> · {when(r.startedAt)} ·{" "}
                {r.status === "completed" ? (
                  `${r.rowCount.toLocaleString("en-US")} ${r.rowCount === 1 ? "row" : "rows"} restored from ${r.backupId}${r.safetyBackupId ? `; safety copy ${r.safetyBackupId}` : ""}`
                ) : r.status === "failed" ? (
                  <span className="text-red-700 dark:text-red-400">Failed: {r.errorMessage}</span>
                ) : (
                  "In progress"
                )}
              </li>
            ))}
          </ul>
        )}
      </section>

      <Modal ref={restoreDialog} id="restore-dialog" title="Restore an agent's account">
        <Form method="post" className="flex flex-col gap-4">
          <input type="hidden" name="intent" value="restore" />
          <input type="hidden" name="backupId" value={restoring?.id ?? ""} />
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {restoring?.type === "safety"
              ? `The safety copy of ${restoring.agentEmail ?? "a deleted account"} from ${when(restoring.startedAt)}: it puts back what the agent had before that restore.`
              : restoring
                ? `The backup of ${when(restoring.startedAt)}. Every contact, deal, task, activity and setting the agent has now is replaced by the backup's; a safety copy of them is taken first.`
                : null}
          </p>
          <Field
            key={restoring?.id ?? "none"}
            label="Agent's e-mail"
            name="email"
            type="email"
            autoComplete="off"
            required
            defaultValue={restoring?.agentEmail ?? ""}
            readOnly={restoring?.type === "safety"}
            error={restoreError ?? undefined}
          />
          <p className="font-medium">{RESTORE_CONFIRM}</p>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="secondary" onClick={() => restoreDialog.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" busy={submittingRestore} busyLabel="Restoring…">
              Restore
            </Button>
          </div>
        </Form>
      </Modal>
    </div>
  );
}
