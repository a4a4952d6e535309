import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { Button, buttonClass } from "~/components/ui/Button";
import { Modal } from "~/components/ui/Modal";
import { PasswordField } from "~/components/ui/PasswordField";
import { toast } from "~/components/ui/Toaster";
import { saveDownload } from "~/lib/download";
import { DataRequestsTable, type DataRequestRow } from "./DataRequestsTable";
import { formatDate, type DisplayPreferences } from "~/lib/format";
import type { CategorySummary } from "../export.server";

const CSV_LINKS = [
  ["Contacts", "/contacts/export.csv"],
  ["Deals", "/settings/export/deals.csv"],
  ["Tasks", "/settings/export/tasks.csv"],
  ["Activities", "/settings/export/activities.csv"],
] as const;

/**
 * Settings → Data: "Export all my data" (spec section 9: one dated JSON file with export metadata, categories
 * each with description, record count and last update, chosen by checkbox) and the agent's data requests.
 */
export function DataPanel({
  categories,
  deletion,
  requests,
  prefs,
  className,
  deleteError,
  deleting,
}: {
  categories: CategorySummary[];
  /** What "Delete my data" would remove now, counted from the tables it empties (the trash apart). */
  deletion: { records: number; trashItems: number };
  requests: DataRequestRow[];
  prefs: DisplayPreferences;
  className: string;
  deleteError?: string;
  deleting: boolean;
}) {
  const deleteDialog = useRef<HTMLDialogElement>(null);
  const { records, trashItems } = deletion;
  const recordsText = `${records.toLocaleString("en-US")} ${records === 1 ? "record" : "records"}`;
  const trashText = `${trashItems.toLocaleString("en-US")} ${trashItems === 1 ? "item" : "items"}`;
  const nothing = records === 0 && trashItems === 0;
  // The deletion went through (the counts changed): the confirmation has done its job.
  useEffect(() => deleteDialog.current?.close(), [records, trashItems]);
  const [chosen, setChosen] = useState<Set<string>>(() => new Set(categories.map((c) => c.key)));
  const [running, setRunning] = useState(false);
  const toggle = (key: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });

  async function exportData(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (running || chosen.size === 0) return;
    setRunning(true);
    try {
      const response = await fetch("/settings/export.json", { method: "POST", body: new FormData(event.currentTarget), credentials: "same-origin" });
      const name = await saveDownload(response, "porchlight-export.json");
      toast({ title: "Data Export Complete", description: `Saved ${name}.`, variant: "success" });
    } catch (error) {
      toast({ title: "Export Failed", description: error instanceof Error ? error.message : "Please try again.", variant: "destructive" });
    } finally {
      setRunning(false);
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="export-heading" className={className}>
        <h2 id="export-heading" className="text-lg font-semibold">
          Export all my data
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          One JSON file, named with today&apos;s date, with everything you choose below: every row Porchlight keeps for you, not a summary.
        </p>
        <form onSubmit={exportData} className="mt-4">
          <fieldset>
            <legend className="text-sm font-semibold">What to include</legend>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                type="button"
                variant="ghost"
                className="min-h-10 px-3 text-sm"
                onClick={() => setChosen(new Set(categories.map((c) => c.key)))}
              >
                Select all
              </Button>
              <Button type="button" variant="ghost" className="min-h-10 px-3 text-sm" onClick={() => setChosen(new Set())}>
                Select none
              </Button>
            </div>
            <ul className="mt-2 divide-y divide-stone-200 dark:divide-stone-800">
              {categories.map((category) => {
                const id = `export-${category.key}`;
                return (
                  <li key={category.key} className="flex gap-3 py-3">
                    <input
                      id={id}
                      type="checkbox"
                      name="category"
                      value={category.key}
                      checked={chosen.has(category.key)}
                      onChange={(event) => toggle(category.key, event.currentTarget.checked)}
                      aria-describedby={`${id}-about`}
                      className="mt-1 size-5 shrink-0 accent-brand-700"
                    />
                    <div className="min-w-0">
                      <label htmlFor={id} className="font-medium">
                        {category.label}
                      </label>
                      <p id={`${id}-about`} className="text-sm text-stone-600 dark:text-stone-400">
                        <span className="font-medium text-stone-800 dark:text-stone-200">
                          {category.count.toLocaleString("en-US")} {category.count === 1 ? "record" : "records"}
                          {category.lastUpdated ? `, last updated ${formatDate(category.lastUpdated, prefs)}` : ""}.
                        </span>{" "}
                        {category.description}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ul>
          </fieldset>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button type="submit" disabled={chosen.size === 0} busy={running} busyLabel="Exporting…">
              Export my data
            </Button>
            {chosen.size === 0 ? <p className="text-sm text-stone-600 dark:text-stone-400">Choose at least one category.</p> : null}
          </div>
        </form>
      </section>

      <section aria-labelledby="csv-heading" className={className}>
        <h2 id="csv-heading" className="text-lg font-semibold">
          Spreadsheets (CSV)
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Every row of one kind, for Excel, Numbers or Google Sheets. Times are in your timezone and money in {prefs.currency} with cents. The
          contacts file has the import&apos;s columns, so it can be imported back; to export part of your list, filter it on{" "}
          <Link to="/contacts" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
            Contacts
          </Link>{" "}
          first.
        </p>
        <ul className="mt-3 flex flex-wrap gap-2">
          {CSV_LINKS.map(([label, href]) => (
            <li key={href}>
              <a href={href} download className={buttonClass("secondary", "min-h-11 text-sm")}>
                {label} CSV
              </a>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="delete-data-heading" className={className}>
        <h2 id="delete-data-heading" className="text-lg font-semibold">
          Delete my data
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          {nothing
            ? "You have no contacts, deals, tasks or activities, and the trash is empty: there is nothing to delete. "
            : `Removes every contact, deal, task and activity, with the deals' stage history and your lead source costs (${recordsText} now)${trashItems === 0 ? "" : `, and everything in the trash (${trashText} now)`}. `}
          Your account, profile, settings and subscription stay, so you can start afresh. Export first if you may want any of it back: this cannot be
          undone.
        </p>
        <Button type="button" variant="danger" className="mt-4" disabled={nothing} onClick={() => deleteDialog.current?.showModal()}>
          Delete my data
        </Button>
        <Modal ref={deleteDialog} id="delete-data-dialog" title="Delete my data">
          <Form method="post" action="/settings?tab=data" className="flex flex-col gap-4">
            <input type="hidden" name="intent" value="delete-data" />
            <p className="font-medium">Are you sure you want to delete your data? This action cannot be undone.</p>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {[records > 0 ? recordsText : null, trashItems > 0 ? `${trashText} in the trash` : null].filter(Boolean).join(" and ")} will be deleted.
              Enter your password to confirm.
            </p>
            <PasswordField label="Password" name="password" autoComplete="current-password" required error={deleteError} />
            <div className="flex justify-end gap-2">
              <Button type="button" variant="secondary" onClick={() => deleteDialog.current?.close()}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" busy={deleting} busyLabel="Deleting…">
                Delete my data
              </Button>
            </div>
          </Form>
        </Modal>
      </section>

      <section aria-labelledby="delete-account-heading" className={className}>
        <h2 id="delete-account-heading" className="text-lg font-semibold">
          Delete my account
        </h2>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Cancels your subscription at once, signs you out on every device and, 30 days later, deletes everything in the account for good. Until then
          a link we e-mail you brings it back.
        </p>
        <Link to="/account/delete" className={buttonClass("danger", "mt-4")}>
          Delete my account…
        </Link>
      </section>

      <section aria-labelledby="requests-heading" className={className}>
        <h2 id="requests-heading" className="text-lg font-semibold">
          Your data requests
        </h2>
        {requests.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No requests yet. Each export you make is listed here.</p>
        ) : (
          <DataRequestsTable requests={requests} prefs={prefs} caption="Your data requests, newest first" />
        )}
      </section>
    </div>
  );
}
