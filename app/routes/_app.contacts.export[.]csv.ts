import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { listContacts } from "~/modules/contacts/contacts.server";
import { EXPORT_COLUMNS, exportRow, toCsv } from "~/modules/contacts/csv";
import { readListParams } from "~/modules/contacts/list-params";

/** /contacts/export.csv?<list filters>: the user's contacts (all, or those the filters match) as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const { filters, sort } = readListParams(params);
  const ids = new Set(params.getAll("id"));
  const rows: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await listContacts(context, user.id, { filters, sort, cursor, limit: 200 });
    for (const contact of page.contacts) if (ids.size === 0 || ids.has(contact.id)) rows.push(exportRow(contact));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  const date = new Date().toISOString().slice(0, 10);
  return new Response(`\uFEFF${toCsv(EXPORT_COLUMNS, rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-contacts-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
