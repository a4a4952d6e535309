import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { FileUp } from "lucide-react";
import { useMemo, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { postJsonWithProgress } from "~/lib/upload";
import { settleSubmission, SUBMISSION_KEY_HEADER, submissionKey } from "~/modules/sync/submission-key";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";
import { autoMap, IMPORT_FIELDS, parseCsv, toCsv, type ColumnMapping, type ImportField } from "~/modules/contacts/csv";
import {
  DUPLICATE_MODES,
  fileLine,
  IMPORT_MAX_BYTES,
  IMPORT_ROW_LIMIT,
  IMPORT_TOO_LARGE,
  importRequestBytes,
  validateRows,
  type DuplicateMode,
  type ImportResponse,
  type ImportSummary,
} from "~/modules/contacts/import";

// The import itself is POST /api/contacts/import (workers/api/contacts.api.ts), sent with XMLHttpRequest so
// the progress bar can show the upload; the server then writes every row in one D1 batch (all or nothing).
const IMPORT_ENDPOINT = "/api/contacts/import";
const IMPORT_SUBMISSION = "contact-import";

export const meta: MetaFunction = () => [{ title: "Import contacts — Porchlight" }];
export const loader = subscriberOnlyLoader;

const FIELD_LABELS: Record<ImportField, string> = {
  first_name: "First name",
  last_name: "Last name",
  name: "Full name",
  email: "Email",
  phone: "Phone",
  company: "Company",
  address: "Address",
  tags: "Tags",
  notes: "Notes",
  source: "Source",
  property_type: "Property type",
  budget_range: "Budget range",
  budget_min: "Budget min",
  budget_max: "Budget max",
  bedrooms: "Bedrooms",
  bathrooms: "Bathrooms",
  timeline: "Timeline",
  location: "Location (area of interest)",
  status: "Status",
};

const MODE_TEXT: Record<DuplicateMode, { label: string; hint: string }> = {
  skip: { label: "Skip duplicates", hint: "Contacts whose e-mail you already have are left as they are." },
  update: { label: "Update existing", hint: "Matching contacts take the file's values; blank cells never erase, tags are added." },
  create: { label: "Create duplicates", hint: "Every row becomes a new contact, even when the e-mail matches." },
};

type Parsed = { name: string; headers: string[]; rows: string[][]; lines: number[] };

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

type Progress = { phase: "idle" } | { phase: "sending"; fraction: number } | { phase: "saving" };

export default function ImportContacts() {
  const navigate = useNavigate();
  const [progress, setProgress] = useState<Progress>({ phase: "idle" });
  const [result, setResult] = useState<ImportResponse | null>(null);
  const [file, setFile] = useState<Parsed | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>([]);
  const [mode, setMode] = useState<DuplicateMode>("skip");
  const [dragging, setDragging] = useState(false);
  const check = useMemo(() => (file ? validateRows(file.rows, mapping, file.lines) : null), [file, mapping]);
  const importing = progress.phase !== "idle";

  async function start(rows: string[][]) {
    setResult(null);
    // The server refuses more (ADR 0021); saying so before the upload saves the wait.
    if (importRequestBytes({ rows, mapping, mode }) > IMPORT_MAX_BYTES) return setResult({ ok: false, error: IMPORT_TOO_LARGE });
    setProgress({ phase: "sending", fraction: 0 });
    try {
      // The same import sent again (after a slow answer or a reload) carries the same key and is answered, not redone.
      const body = JSON.stringify({ rows, mapping, mode });
      const key = submissionKey(IMPORT_SUBMISSION, body);
      const { status, data } = await postJsonWithProgress<ImportResponse>(
        IMPORT_ENDPOINT,
        body,
        (fraction) => setProgress(fraction < 1 ? { phase: "sending", fraction } : { phase: "saving" }),
        {
          [SUBMISSION_KEY_HEADER]: key,
        },
      );
      settleSubmission(IMPORT_SUBMISSION);
      if (data && !data.ok && data.redirectTo) return navigate(data.redirectTo);
      // The server numbers rows by position; the file's own lines (blank rows, line breaks in quotes) are here.
      if (data?.ok && file) data.summary.rejected = data.summary.rejected.map((row) => ({ ...row, line: fileLine(row.line, file.lines) }));
      setResult(data ?? { ok: false, error: `The import failed (error ${status}) and nothing was saved. Please try again.` });
    } catch {
      setResult({ ok: false, error: "Porchlight could not be reached, so nothing was imported. Check your connection and try again." });
    } finally {
      setProgress({ phase: "idle" });
    }
  }

  async function choose(chosen: File | undefined) {
    setFileError(null);
    if (!chosen) return;
    const { headers, rows, lines, errors } = parseCsv(await chosen.text());
    if (headers.length === 0 || rows.length === 0)
      return setFileError("That file has no rows under a header row. Save it as CSV (UTF-8) with one header row.");
    if (rows.length > IMPORT_ROW_LIMIT)
      return setFileError(
        `That file has ${rows.length.toLocaleString("en-US")} rows; import at most ${IMPORT_ROW_LIMIT.toLocaleString("en-US")} at a time.`,
      );
    if (errors.length > 0 && rows.length === 0) return setFileError(errors[0]!);
    setFile({ name: chosen.name, headers, rows, lines });
    setMapping(autoMap(headers));
  }

  if (result?.ok) {
    const s = result.summary;
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
          {s.rejected.length > 0 && file ? (
            <Button type="button" variant="secondary" onClick={() => downloadRejected(file.headers, s)}>
              Download rejected rows
            </Button>
          ) : null}
        </div>
      </>
    );
  }

  return (
    <>
      <PageHeader title="Import contacts" description="Bring contacts from a spreadsheet or another CRM with a CSV file." />
      <section className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
        {/* The real file input stays in the tab order (visually hidden); its label is the button and drop zone. */}
        <input
          id="csv-file"
          type="file"
          accept=".csv,text/csv"
          aria-describedby="csv-file-status"
          onChange={(event) => void choose(event.currentTarget.files?.[0])}
          className="peer sr-only"
        />
        <label
          htmlFor="csv-file"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void choose(event.dataTransfer.files[0]);
          }}
          className={`flex cursor-pointer flex-col items-center gap-3 rounded-xl border-2 border-dashed px-4 py-6 text-center peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-600 ${
            dragging ? "border-brand-600 bg-brand-50 dark:bg-stone-800" : "border-stone-300 hover:border-brand-600 dark:border-stone-700"
          }`}
        >
          <FileUp aria-hidden="true" className="h-8 w-8 text-brand-700 dark:text-brand-400" />
          <span className={buttonClass("secondary")}>{file ? "Choose another CSV file" : "Choose a CSV file"}</span>
          <span className="text-sm text-stone-600 dark:text-stone-400">or drop it here · UTF-8, one header row</span>
        </label>
        <p id="csv-file-status" aria-live="polite" className="mt-2 text-sm">
          {file ? (
            <>
              Chosen: <span className="break-all font-medium">{file.name}</span> ({file.rows.length.toLocaleString("en-US")}{" "}
              {file.rows.length === 1 ? "row" : "rows"})
            </>
          ) : (
            <span className="text-stone-600 dark:text-stone-400">No file chosen yet.</span>
          )}
        </p>
        {fileError ? (
          <p role="alert" className="mt-2 font-medium text-red-700 dark:text-red-400">
            {fileError}
          </p>
        ) : null}
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          The{" "}
          <Link to="/guides/importing-contacts" className="underline">
            importing guide
          </Link>{" "}
          lists the columns Porchlight recognises.
        </p>
      </section>

      {file && check ? (
        <>
          <section aria-labelledby="map-heading" className="mt-6">
            <h2 id="map-heading" className="text-lg font-semibold">
              Match the columns of {file.name}
            </h2>
            <div className="relative mt-3 overflow-x-auto rounded-2xl border border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900">
              <table className="w-full text-left text-sm">
                <thead className="bg-stone-100 dark:bg-stone-800">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Column in your file
                    </th>
                    <th scope="col" className="hidden px-3 py-2 sm:table-cell">
                      First value
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Porchlight field
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
                  {file.headers.map((header, index) => (
                    <tr key={`${header}-${index}`}>
                      <th scope="row" className="px-3 py-2 font-medium">
                        {header || `(column ${index + 1})`}
                        <span className="block max-w-40 truncate text-xs font-normal text-stone-600 sm:hidden dark:text-stone-400">
                          {file.rows[0]?.[index] ?? ""}
                        </span>
                      </th>
                      <td className="hidden max-w-48 truncate px-3 py-2 text-stone-600 sm:table-cell dark:text-stone-400">
                        {file.rows[0]?.[index] ?? ""}
                      </td>
                      <td className="px-3 py-2">
                        <select
                          aria-label={`Field for column ${header || index + 1}`}
                          value={mapping[index] ?? "ignore"}
                          onChange={(event) => setMapping((m) => m.map((f, i) => (i === index ? (event.target.value as ImportField | "ignore") : f)))}
                          className="min-h-11 w-full min-w-36 rounded-lg border border-stone-300 bg-white px-2 dark:border-stone-700 dark:bg-stone-900"
                        >
                          <option value="ignore">Ignore this column</option>
                          {IMPORT_FIELDS.map((field) => (
                            <option key={field} value={field}>
                              {FIELD_LABELS[field]}
                            </option>
                          ))}
                        </select>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>

          <fieldset className="mt-6 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
            <legend className="px-1 text-lg font-semibold">When the e-mail is already in your contacts</legend>
            {DUPLICATE_MODES.map((value) => (
              <label key={value} className="flex min-h-12 items-start gap-3 py-1">
                <input
                  type="radio"
                  name="mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                  className="mt-1 h-5 w-5 accent-brand-700"
                />
                <span>
                  <span className="font-medium">{MODE_TEXT[value].label}</span>
                  <span className="block text-sm text-stone-600 dark:text-stone-400">{MODE_TEXT[value].hint}</span>
                </span>
              </label>
            ))}
          </fieldset>

          <section aria-labelledby="preview-heading" className="mt-6">
            <h2 id="preview-heading" className="text-lg font-semibold">
              Preview
            </h2>
            <p className="mt-1">
              <strong>{check.valid.length.toLocaleString("en-US")}</strong> {check.valid.length === 1 ? "row" : "rows"} ready
              {check.rejected.length > 0 ? (
                <>
                  , <strong>{check.rejected.length.toLocaleString("en-US")}</strong> with problems (they will be skipped and listed afterwards)
                </>
              ) : null}
              .
            </p>
            {check.rejected.length > 0 ? (
              <ul className="mt-2 list-disc pl-5 text-sm text-red-800 dark:text-red-300">
                {check.rejected.slice(0, 10).map((row) => (
                  <li key={row.line}>
                    Line {row.line}: {row.reasons.join("; ")}
                  </li>
                ))}
                {check.rejected.length > 10 ? <li>…and {check.rejected.length - 10} more.</li> : null}
              </ul>
            ) : null}
          </section>

          {result && !result.ok ? (
            <p role="alert" className="mt-4 font-medium text-red-700 dark:text-red-400">
              {result.error}
            </p>
          ) : null}
          {importing ? <ImportProgress progress={progress} count={check.valid.length} /> : null}
          <div className="mt-6 flex flex-wrap gap-3">
            <Button type="button" busy={importing} busyLabel="Importing…" disabled={check.valid.length === 0} onClick={() => void start(file.rows)}>
              Import {check.valid.length.toLocaleString("en-US")} {check.valid.length === 1 ? "contact" : "contacts"}
            </Button>
            <Link to="/contacts" className={buttonClass("secondary")}>
              Cancel
            </Link>
          </div>
        </>
      ) : null}
    </>
  );
}

/** Sending is measured (upload progress); saving is one database batch, so it has no steps to count. */
function ImportProgress({ progress, count }: { progress: Progress; count: number }) {
  const contactsText = `${count.toLocaleString("en-US")} ${count === 1 ? "contact" : "contacts"}`;
  const percent = progress.phase === "sending" ? Math.round(progress.fraction * 100) : null;
  return (
    <div className="mt-6 flex flex-col gap-2">
      <p role="status">
        {percent !== null
          ? `Sending ${contactsText}: ${percent}%`
          : `Saving ${contactsText}. They are written together, so nothing is ever half imported.`}
      </p>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={percent !== null ? 0 : undefined}
        aria-valuemax={percent !== null ? 100 : undefined}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent !== null ? `Sending, ${percent}%` : "Saving"}
        className="h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
      >
        <div
          className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? "w-full animate-pulse" : ""}`}
          style={percent !== null ? { width: `${percent}%` } : undefined}
        />
      </div>
    </div>
  );
}
