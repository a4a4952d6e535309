import type { Dispatch, SetStateAction } from "react";
import { IMPORT_FIELDS, type ColumnMapping, type ImportField } from "../csv";
import { DUPLICATE_MODES, type DuplicateMode, type validateRows } from "../import";

/** A CSV file as the import page holds it: its name, header row, rows and each row's line in the file. */
export type ParsedCsvFile = { name: string; headers: string[]; rows: string[][]; lines: number[] };
export type ImportProgressState = { phase: "idle" } | { phase: "sending"; fraction: number } | { phase: "saving" };

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

/** Each column of the file beside the Porchlight field it fills (or "Ignore this column"). */
export function ColumnMapTable({
  file,
  mapping,
  setMapping,
}: {
  file: ParsedCsvFile;
  mapping: ColumnMapping;
  setMapping: Dispatch<SetStateAction<ColumnMapping>>;
}) {
  return (
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
                <td className="hidden max-w-48 truncate px-3 py-2 text-stone-600 sm:table-cell dark:text-stone-400">{file.rows[0]?.[index] ?? ""}</td>
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
  );
}

/** What happens to a row whose e-mail is already in the agent's contacts. */
export function DuplicateModePicker({ mode, setMode }: { mode: DuplicateMode; setMode: (mode: DuplicateMode) => void }) {
  return (
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
  );
}

/** How many rows are ready and the first ten with problems. */
export function ImportPreview({ check }: { check: ReturnType<typeof validateRows> }) {
  return (
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
  );
}

/** Sending is measured (upload progress); saving is one database batch, so it has no steps to count. */
export function ImportProgress({ progress, count }: { progress: ImportProgressState; count: number }) {
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
