// The largest contact import the app accepts: as many rows as it takes (IMPORT_ROW_LIMIT) and as many bytes
// (IMPORT_MAX_BYTES), every row valid. Shared by `npm run bench` and tests/workers/contacts-import.test.ts,
// which also checks that these two numbers match app/modules/contacts/import.ts.

export const IMPORT_MAX_BYTES = 10_000_000;
export const IMPORT_ROW_LIMIT = 20_000;

const utf8 = new TextEncoder();

/**
 * The import request (the JSON the import screen sends) with `rows` valid rows whose JSON is exactly `bytes`
 * UTF-8 bytes long: the rows' notes are padded with ASCII to fill it. `tag` keeps the e-mails unique per run.
 */
export function largestImportRequest({ bytes = IMPORT_MAX_BYTES, rows = IMPORT_ROW_LIMIT, tag = "worst" } = {}) {
  const mapping = ["name", "email", "phone", "notes"];
  const row = (i, notes) => [`Worst Case ${i}`, `${tag}-${i}@example.com`, `555 ${String(i).padStart(5, "0")}`, notes];
  const bare = { rows: Array.from({ length: rows }, (_, i) => row(i, "")), mapping, mode: "skip" };
  const spare = bytes - utf8.encode(JSON.stringify(bare)).length;
  if (spare < 0) throw new Error(`${rows} rows do not fit in ${bytes} bytes`);
  const each = Math.floor(spare / rows);
  const extra = spare % rows;
  if (each + 1 > 10_000) throw new Error("the notes would pass their 10,000-character limit: use more rows");
  const request = { ...bare, rows: bare.rows.map((cells, i) => row(i, "n".repeat(each + (i < extra ? 1 : 0)))) };
  const body = JSON.stringify(request);
  const size = utf8.encode(body).length;
  if (size !== bytes) throw new Error(`built ${size} bytes, not ${bytes}`);
  return { body, rows, bytes };
}
