import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { toCsvRows } from "~/modules/contacts/csv";
import { reportTables } from "~/modules/reports/build.server";
import { loadReportsInView } from "~/modules/reports/scope.server";
import { csvRows } from "~/modules/reports/table";

/** A name's ASCII letters and digits, for a file name (a header value must be plain ASCII). */
const slug = (name: string) =>
  name
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40) || "agent";

/**
 * /reports/<table>.csv?<period>[&agent=<id>]: one table of /reports as CSV, built by the same code as the page's table, so
 * the file has exactly its rows and columns (money as plain numbers in the account's currency).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const reports = await loadReportsInView(request, context);
  const table = reportTables(reports).find((t) => t.id === params.table);
  if (!table) throw new Response("There is no report by that name.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  const { from, to } = reports.period;
  return new Response(`\uFEFF${toCsvRows(csvRows(table))}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-${table.id}${reports.agent ? `-${slug(reports.agent.name)}` : ""}-${from}-to-${to}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
