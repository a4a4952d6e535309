import { Form, useNavigation } from "@remix-run/react";
import { Download as DownloadIcon } from "lucide-react";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { formatDate, formatTime, type DisplayPreferences } from "~/lib/format";

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

export interface BackupRow {
  id: string;
  type: "automatic" | "manual";
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
}

export interface BackupView {
  backups: BackupRow[];
  storage: { bytes: number; objects: number };
  retentionDays: number;
}

const STATUS_LABELS: Record<BackupRow["status"], string> = { in_progress: "In progress", completed: "Completed", failed: "Failed" };
const TYPE_LABELS: Record<BackupRow["type"], string> = { automatic: "Automatic", manual: "Manual" };

/** 1,536 → "1.5 KB"; binary units, one decimal. */
export function formatBytes(bytes: number): string {
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
export function BackupPanel({ view, prefs }: { view: BackupView; prefs: DisplayPreferences }) {
  const navigation = useNavigation();
  const busy = (intent: string) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const latest = view.backups.find((b) => b.status === "completed");
  const drilled = [...view.backups].filter((b) => b.drillAt !== null).sort((a, b) => b.drillAt! - a.drillAt!)[0];
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="backup-storage-heading" className={card}>
        <h2 id="backup-storage-heading" className="text-lg font-semibold">
          Backups
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Every table, as compressed NDJSON with a row count and a SHA-256 per table, in the R2 bucket. Taken daily by the cron and kept {view.retentionDays} days. For a restore of the whole database to a moment, use D1 Time Travel (README: Restoring).
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
            <dd className="text-lg font-semibold">{latest ? `${formatDate(latest.startedAt, prefs)} ${formatTime(latest.startedAt, prefs)}` : "None yet"}</dd>
          </div>
        </dl>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="backup" />
          <Button type="submit" busy={busy("backup")} busyLabel="Backing up…">
            Create backup
          </Button>
        </Form>
      </section>

      <section aria-labelledby="drill-heading" className={card}>
        <h2 id="drill-heading" className="text-lg font-semibold">
          Restore drill
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Loads a whole backup into the scratch database, checks every table&apos;s rows and SHA-256 against its manifest, then reads every table back and checks it again. The cron drills the newest backup once a week.
        </p>
        <p className="mt-3 font-medium" role="status">
          {drilled
            ? `Last drill: ${drilled.drillStatus === "passed" ? "passed" : "failed"}, ${formatDate(drilled.drillAt!, prefs)} ${formatTime(drilled.drillAt!, prefs)}, in ${((drilled.drillMs ?? 0) / 1000).toFixed(1)} s${drilled.drillError ? `: ${drilled.drillError}` : ""}`
            : "No drill yet."}
        </p>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="drill" />
          <Button type="submit" variant="secondary" disabled={!latest} busy={busy("drill")} busyLabel="Drilling…">
            Drill the newest backup
          </Button>
        </Form>
      </section>

      <section aria-labelledby="backup-list-heading" className={card}>
        <h2 id="backup-list-heading" className="text-lg font-semibold">
          Last {view.retentionDays} days
        </h2>
        {view.backups.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No backups yet. The cron takes one a day; Create backup takes one now.</p>
        ) : (
          <div role="group" aria-label="Backups, newest first" tabIndex={0} className="relative mt-3 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Backups, newest first</caption>
              <thead className="text-stone-600 dark:text-stone-400">
                <tr>
                  <th scope="col" className="py-2 pr-3 font-medium">Started</th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium sm:table-cell">Type</th>
                  <th scope="col" className="py-2 pr-3 font-medium">Status</th>
                  <th scope="col" className="py-2 pr-3 text-right font-medium">Size</th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">Tables</th>
                  <th scope="col" className="hidden py-2 pr-3 text-right font-medium sm:table-cell">Rows</th>
                  <th scope="col" className="hidden py-2 pr-3 font-medium md:table-cell">Restore drill</th>
                  <th scope="col" className="py-2 font-medium">
                    <span className="sr-only">Download or error</span>
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
                {view.backups.map((b) => (
                  <tr key={b.id}>
                    <td className="py-2 pr-3">
                      <span className="whitespace-nowrap">{formatDate(b.startedAt, prefs)}</span> <span className="whitespace-nowrap">{formatTime(b.startedAt, prefs)}</span>
                    </td>
                    <td className="hidden py-2 pr-3 sm:table-cell">{TYPE_LABELS[b.type]}</td>
                    <td className="py-2 pr-3">
                      {STATUS_LABELS[b.status]}
                      <span className="block text-xs text-stone-600 sm:hidden dark:text-stone-400">{TYPE_LABELS[b.type]}</span>
                      {b.drillStatus ? <span className="block text-xs text-stone-600 md:hidden dark:text-stone-400">Drill {b.drillStatus}</span> : null}
                    </td>
                    <td className="whitespace-nowrap py-2 pr-3 text-right tabular-nums">{b.status === "completed" ? formatBytes(b.sizeBytes) : "—"}</td>
                    <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{b.status === "completed" ? b.tableCount : "—"}</td>
                    <td className="hidden py-2 pr-3 text-right tabular-nums sm:table-cell">{b.status === "completed" ? b.rowCount.toLocaleString("en-US") : "—"}</td>
                    <td className="hidden py-2 pr-3 md:table-cell">{b.drillStatus === "passed" ? "Passed" : b.drillStatus === "failed" ? <span className="text-red-700 dark:text-red-400">Failed: {b.drillError}</span> : "—"}</td>
                    <td className="py-2">
                      {b.status === "completed" ? (
                        <a
                          href={`/operations/backups/${b.id}/download`}
                          download
                          onClick={() => toast({ title: "Download Started", description: "One .ndjson.gz file: the manifest, then every row with its table.", variant: "success" })}
                          className="inline-flex min-h-11 min-w-11 items-center justify-center gap-1 font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
                        >
                          <DownloadIcon aria-hidden className="size-5 sm:hidden" />
                          <span className="sr-only sm:not-sr-only">Download</span>
                          <span className="sr-only"> the backup of {formatDate(b.startedAt, prefs)} {formatTime(b.startedAt, prefs)}</span>
                        </a>
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
    </div>
  );
}
