import { useState, type FormEvent } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { toast } from "~/components/ui/Toaster";
import { saveDownload } from "~/lib/download";
import type { DisplayPreferences } from "~/lib/format";
import type { ComplianceView } from "../compliance.server";
import { DataRequestsTable, REQUEST_STATUS_LABELS, REQUEST_TYPE_LABELS } from "./DataRequestsTable";

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

/** Operations Center → Compliance: agents' data requests, counts over 30 days, and an export on an agent's behalf. */
export function CompliancePanel({ view, prefs }: { view: ComplianceView; prefs: DisplayPreferences }) {
  const [running, setRunning] = useState(false);

  async function exportFor(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (running) return;
    setRunning(true);
    try {
      const response = await fetch("/operations/export.json", {
        method: "POST",
        body: new FormData(event.currentTarget),
        credentials: "same-origin",
      });
      const name = await saveDownload(response, "porchlight-export.json");
      toast({
        title: "Data Export Complete",
        description: `Saved ${name}. The export is listed on the account as an access request.`,
        variant: "success",
      });
    } catch (error) {
      toast({ title: "Export Failed", description: error instanceof Error ? error.message : "Please try again.", variant: "destructive" });
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="gdpr-counts-heading" className={card}>
        <h2 id="gdpr-counts-heading" className="text-lg font-semibold">
          Data requests, last 30 days
        </h2>
        {view.total30d === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No exports or deletions were asked for in the last 30 days.</p>
        ) : (
          <dl className="mt-3 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {view.counts.map((c) => (
              <div key={`${c.type}-${c.status}`} className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
                <dt className="text-sm text-stone-600 dark:text-stone-300">
                  {REQUEST_TYPE_LABELS[c.type]}, {REQUEST_STATUS_LABELS[c.status].toLowerCase()}
                </dt>
                <dd className="text-2xl font-semibold tabular-nums">{c.n}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>

      <section aria-labelledby="gdpr-export-heading" className={card}>
        <h2 id="gdpr-export-heading" className="text-lg font-semibold">
          Export an agent&apos;s data
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          For an access request that came by e-mail: everything the account holds, as the agent&apos;s own export would give it. Send it only to the
          account&apos;s address. The export is recorded on the account with your name.
        </p>
        <form onSubmit={exportFor} className="mt-4 flex max-w-md flex-col gap-3">
          <Field label="Account e-mail" name="email" type="email" autoComplete="off" required />
          <Button type="submit" busy={running} busyLabel="Exporting…">
            Export everything
          </Button>
        </form>
      </section>

      <section aria-labelledby="gdpr-recent-heading" className={card}>
        <h2 id="gdpr-recent-heading" className="text-lg font-semibold">
          Recent requests
        </h2>
        {view.recent.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No data requests yet. Agents&apos; exports and deletions are listed here.</p>
        ) : (
          <DataRequestsTable requests={view.recent} prefs={prefs} caption="The 50 newest data requests of every account" withAccount />
        )}
      </section>
    </div>
  );
}
