import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "~/lib/csv-response";
import { toCsvRows } from "~/modules/contacts/csv";
import { csvRows } from "~/modules/reports/table";
import { teamReportsFor, teamReportTable } from "~/modules/team/team-reports.server";

/** /team/reports/<agents|sources>.csv?<period>: one table of Team reports, the same rows as the page (owners and admins; 404 to others). */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const reports = await teamReportsFor(request, context);
  const table = teamReportTable(reports, params.table);
  if (!table) throw new Response("There is no report by that name.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const { from, to } = reports.period;
  return csvResponse(`\uFEFF${toCsvRows(csvRows(table))}`, `porchlight-team-${table.id}-${from}-to-${to}.csv`);
}
