import type { MetaFunction } from "@remix-run/cloudflare";
import { Link, useNavigate } from "@remix-run/react";
import { useMemo, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import { postJsonWithProgress } from "~/lib/upload";
import { settleSubmission, SUBMISSION_KEY_HEADER, submissionKey } from "~/modules/sync/submission-key";
import { subscriberOnlyLoader } from "~/modules/auth/guards.server";
import { autoMap, parseCsv, type ColumnMapping } from "~/modules/contacts/csv";
import {
  fileLine,
  IMPORT_MAX_BYTES,
  IMPORT_ROW_LIMIT,
  IMPORT_TOO_LARGE,
  importRequestBytes,
  validateRows,
  type DuplicateMode,
  type ImportResponse,
} from "~/modules/contacts/import";
import { CsvFilePicker } from "~/modules/contacts/components/CsvFilePicker";
import { ImportFinished } from "~/modules/contacts/components/ImportFinished";
import {
  ColumnMapTable,
  DuplicateModePicker,
  ImportPreview,
  ImportProgress,
  type ImportProgressState,
  type ParsedCsvFile,
} from "~/modules/contacts/components/ImportParts";

// The import itself is POST /api/contacts/import (workers/api/contacts.api.ts), sent with XMLHttpRequest so
// the progress bar can show the upload; the server then writes every row in one D1 batch (all or nothing).
const IMPORT_ENDPOINT = "/api/contacts/import";
const IMPORT_SUBMISSION = "contact-import";

export const meta: MetaFunction = () => [{ title: "Import contacts — Porchlight" }];
export const loader = subscriberOnlyLoader;

export default function ImportContacts() {
  const navigate = useNavigate();
  const [progress, setProgress] = useState<ImportProgressState>({ phase: "idle" });
  const [result, setResult] = useState<ImportResponse | null>(null);
  const [file, setFile] = useState<ParsedCsvFile | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [mapping, setMapping] = useState<ColumnMapping>([]);
  const [mode, setMode] = useState<DuplicateMode>("skip");
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
    return <ImportFinished summary={result.summary} headers={file?.headers ?? null} />;
  }

  return (
    <>
      <PageHeader title="Import contacts" description="Bring contacts from a spreadsheet or another CRM with a CSV file." />
      <CsvFilePicker file={file} fileError={fileError} onChoose={(chosen) => void choose(chosen)} />

      {file && check ? (
        <>
          <ColumnMapTable file={file} mapping={mapping} setMapping={setMapping} />

          <DuplicateModePicker mode={mode} setMode={setMode} />

          <ImportPreview check={check} />

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
