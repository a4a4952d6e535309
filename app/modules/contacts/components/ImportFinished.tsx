import { Link } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { toCsv } from "../csv";
import type { ImportSummary } from "../import";

function downloadRejected(headers: string[], summary: ImportSummary) {
  const csv = toCsv(
    [...headers, "line", "reasons"],
    summary.rejected.map((r) => [...r.cells, String(r.line), r.reasons.join("; ")]),
  );
  const url = URL.createObjectURL(new Blob([`\uFEFF${csv}`], { type: "text/csv" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: "rejected-rows.csv" });
  link.click();
  URL.revokeObjectURL(url);
}

/** What an import did: its counts, where new leads are timed, and the rejected rows to download (with the file's headers). */
export function ImportFinished({ summary: s, headers }: { summary: ImportSummary; headers: string[] | null }) {
  return (
    <>
      <PageHeader title="Import finished" />
      <section
        role="status"
        className="rounded-2xl border border-emerald-300 bg-emerald-50 p-5 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50"
      >
        <ul className="grid gap-1 sm:grid-cols-2">
          <li>
            Created: <strong>{s.created}</strong>
          </li>
          <li>
            Updated: <strong>{s.updated}</strong>
          </li>
          <li>
            Skipped as duplicates: <strong>{s.skipped}</strong>
          </li>
          <li>
            Rejected: <strong>{s.rejected.length}</strong>
          </li>
        </ul>
        {s.newLeads > 0 ? (
          <p className="mt-3">
            {s.newLeads === 1 ? "1 row marked New is a new lead" : `${s.newLeads} rows marked New are new leads`}: timed on the{" "}
            <Link to="/dashboard" className="font-medium underline underline-offset-2">
              Dashboard
            </Link>{" "}
            until you reach out.
          </p>
        ) : null}
      </section>
      <div className="mt-6 flex flex-wrap gap-3">
        <Link to="/contacts" className={buttonClass("primary")}>
          Go to contacts
        </Link>
        {s.rejected.length > 0 && headers ? (
          <Button type="button" variant="secondary" onClick={() => downloadRejected(headers, s)}>
            Download rejected rows
          </Button>
        ) : null}
      </div>
    </>
  );
}
