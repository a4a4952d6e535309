import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { toCsvRows } from "~/modules/contacts/csv";
import { reportTables } from "~/modules/reports/build.server";
import { loadReports } from "~/modules/reports/reports.server";
import { csvRows } from "~/modules/reports/table";

/**
 * /reports/<table>.csv?<period>: one table of /reports as CSV, built by the same code as the page's table, so
 * the file has exactly its rows and columns (money as plain numbers in the account's currency).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const reports = await loadReports(context, user.id, new URL(request.url).searchParams);
  const table = reportTables(reports).find((t) => t.id === params.table);
  if (!table) throw new Response("There is no report by that name.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const { from, to } = reports.period;
  return new Response(`\uFEFF${toCsvRows(csvRows(table))}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-${table.id}-${from}-to-${to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
