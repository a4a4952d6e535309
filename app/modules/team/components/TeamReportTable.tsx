import { Download } from "lucide-react";
import { Fragment } from "react";
import { ReportTableView } from "~/modules/reports/components/ReportParts";
import { footerRows, type ReportTable } from "~/modules/reports/table";

/**
 * A team report's table: on a phone one card per row (a wide table does not fit), from md up and on paper the table
 * itself; under it the CSV download of the same table.
 */
export function TeamReportTable({ table, csvHref }: { table: ReportTable; csvHref: string }) {
  const rows = [...table.rows, ...footerRows(table)];
  return (
    <div className="flex flex-col gap-3">
      <ul aria-label={table.caption} className="flex flex-col gap-3 md:hidden print:hidden">
        {rows.map((row) => (
          <li key={row.key} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
            <p className="font-medium">{row.cells[0]?.text}</p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm [&>dd]:text-right [&>dd]:tabular-nums [&>dt]:text-stone-600 dark:[&>dt]:text-stone-400">
              {row.cells.slice(1).map((c, i) => (
                <Fragment key={table.columns[i + 1]?.label}>
                  <dt>{table.columns[i + 1]?.label}</dt>
                  <dd>{c.text}</dd>
                </Fragment>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden md:block print:block">
        <ReportTableView table={table} />
      </div>
      <a
        href={csvHref}
        download
        className="inline-flex min-h-10 items-center gap-1 self-start text-sm font-medium text-brand-700 underline underline-offset-4 print:hidden dark:text-brand-400"
      >
        <Download aria-hidden="true" className="h-4 w-4" />
        {`Download CSV: ${table.caption}`}
      </a>
    </div>
  );
}
