import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { Definition } from "~/modules/dashboard/components/MetricDefinition";
import type { BarRow } from "../build.server";
import { REPORT_DEFINITIONS, type ReportDefinitionKey } from "../definitions";
import { footerRows, type ReportTable } from "../table";

/** One report: heading, "How is this counted?", content, and its CSV downloads. Sections are jump targets. */
export function ReportSection({
  id,
  definition,
  children,
  downloads = [],
  query,
}: {
  id: string;
  definition: ReportDefinitionKey;
  children: ReactNode;
  downloads?: ReportTable[];
  query: string;
}) {
  const headingId = `${id}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="report-section relative scroll-mt-20 rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id={headingId} className="mr-9 text-lg font-semibold">
        {REPORT_DEFINITIONS[definition].label}
      </h2>
      <Definition {...REPORT_DEFINITIONS[definition]} />
      <div className="mt-3 flex flex-col gap-4">{children}</div>
      {downloads.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 print:hidden">
          {downloads.map((table) => (
            <li key={table.id}>
              <a
                href={`/reports/${table.id}.csv?${query}`}
                download
                className="inline-flex min-h-10 items-center gap-1 text-sm font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
              >
                <Download aria-hidden="true" className="h-4 w-4" />
                {`CSV: ${table.caption}`}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/** A report's numbers as an accessible table in its own scroll box (the page never scrolls sideways). */
export function ReportTableView({ table, caption = "visible" }: { table: ReportTable; caption?: "visible" | "hidden" }) {
  // Numeric columns align right; padding and wrapping are the table's (child variants), not repeated on every cell.
  const align = (i: number) => (table.columns[i]?.numeric ? "text-right tabular-nums" : "text-left");
  const footer = footerRows(table);
  return (
    <div>
      {/* The title outside the scroll box, so it wraps on a phone; screen readers get it as the caption. */}
      {caption === "visible" ? (
        <p aria-hidden="true" className="mb-1 text-sm font-medium text-stone-700 dark:text-stone-300">
          {table.caption}
        </p>
      ) : null}
      {/* Focusable, so a keyboard can scroll a table wider than the screen (its box scrolls, never the page). */}
      <div
        role="group"
        aria-label={table.caption}
        tabIndex={0}
        className="relative overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
      >
        <table className="w-full text-sm [&_td]:whitespace-nowrap [&_td]:px-3 [&_td]:py-2 [&_th]:px-3 [&_th]:py-2">
          <caption className="sr-only">{table.caption}</caption>
          <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
            <tr>
              {table.columns.map((c, i) => (
                <th key={c.label} scope="col" className={`whitespace-nowrap font-semibold ${align(i)}`}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
            {table.rows.map((row) => (
              <tr key={row.key}>
                {row.cells.map((c, i) =>
                  i === 0 ? (
                    <th key={i} scope="row" className="text-left font-medium">
                      {row.href ? (
                        <a href={row.href} className="inline-flex min-h-6 items-center underline underline-offset-4">
                          {c.text}
                        </a>
                      ) : (
                        c.text
                      )}
                    </th>
                  ) : (
                    <td key={i} className={align(i)}>
                      {c.text}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
          {footer.length > 0 ? (
            <tfoot className="border-t-2 border-stone-300 dark:border-stone-700">
              {footer.map((row) => (
                <tr key={row.key} className={row.key === "total" ? "font-semibold" : "text-stone-700 dark:text-stone-300"}>
                  {row.cells.map((c, i) =>
                    i === 0 ? (
                      <th key={i} scope="row" className="text-left">
                        {c.text}
                      </th>
                    ) : (
                      <td key={i} className={align(i)}>
                        {c.text}
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tfoot>
          ) : null}
        </table>
      </div>
    </div>
  );
}

/** Horizontal bars (lengths from the loader); the figures are the text, the bars only draw them. */
export function Bars({ rows, label, tone = "sky" }: { rows: BarRow[]; label: string; tone?: "sky" | "brand" | "emerald" }) {
  const fill = { sky: "bg-sky-600 dark:bg-sky-400", brand: "bg-brand-600 dark:bg-brand-400", emerald: "bg-emerald-600 dark:bg-emerald-400" }[tone];
  return (
    <ul aria-label={label} className="flex flex-col gap-3">
      {rows.map((r) => (
        <li key={r.key}>
          <div className="flex items-baseline justify-between gap-3">
            <span className="font-medium">{r.label}</span> <span className="text-sm font-semibold tabular-nums">{r.value}</span>
          </div>
          <div aria-hidden="true" className="mt-1 h-2 rounded-full bg-stone-100 dark:bg-stone-800">
            <div className={`h-2 rounded-full ${fill}`} style={{ width: `${r.barPct}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** What a report says when the period has nothing for it, and what to do. */
export function ReportEmpty({ children }: { children: ReactNode }) {
  return <p className="rounded-xl bg-stone-100 p-3 text-sm text-stone-700 dark:bg-stone-800 dark:text-stone-300">{children}</p>;
}
