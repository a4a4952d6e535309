import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { getContactsByIds, listContacts } from "~/modules/contacts/contacts.server";
import { EXPORT_COLUMNS, exportRow, toCsv } from "~/modules/contacts/csv";
import { readListParams } from "~/modules/contacts/list-params";

/** /contacts/export.csv?<list filters> or ?id=…: the user's contacts (filtered, or the selected ones) as CSV. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const { filters, sort } = readListParams(params);
  const ids = params.getAll("id").slice(0, 5_000);
  const rows: string[][] = [];
  if (ids.length > 0) {
    // The selected contacts (bulk Export).
    for (const contact of await getContactsByIds(context, user.id, ids)) rows.push(exportRow(contact));
  } else {
    // Everything the list shows, page by page in its order.
    let cursor: string | undefined;
    do {
      const page = await listContacts(context, user.id, { filters, sort, cursor, limit: 200 });
      for (const contact of page.contacts) rows.push(exportRow(contact));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }
  const date = new Date().toISOString().slice(0, 10);
  return new Response(`\uFEFF${toCsv(EXPORT_COLUMNS, rows)}`, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-contacts-${date}.csv"`,
      "Cache-Control": "private, no-store",
    },
  });
}
