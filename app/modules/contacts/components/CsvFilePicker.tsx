import { Link } from "@remix-run/react";
import { FileUp } from "lucide-react";
import { useState } from "react";
import { buttonClass } from "~/components/ui/Button";
import type { ParsedCsvFile } from "./ImportParts";

/** The CSV file input, its drop zone, what was chosen and why a file was refused. */
export function CsvFilePicker({
  file,
  fileError,
  onChoose,
}: {
  file: ParsedCsvFile | null;
  fileError: string | null;
  onChoose: (chosen: File | undefined) => void;
}) {
  const [dragging, setDragging] = useState(false);
  return (
    <section className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      {/* The real file input stays in the tab order (visually hidden); its label is the button and drop zone. */}
      <input
        id="csv-file"
        type="file"
        accept=".csv,text/csv"
        aria-describedby="csv-file-status"
        onChange={(event) => onChoose(event.currentTarget.files?.[0])}
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
          onChoose(event.dataTransfer.files[0]);
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
  );
}
