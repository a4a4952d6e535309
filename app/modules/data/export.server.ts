import type { RequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";
import { isoDateIn } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { finishDataRequest, openDataRequest } from "./requests.server";
import { EXPORT_CATEGORIES, type ExportCategory, type ExportCategoryKey, type ExportTable } from "./tables";

type D1 = Env["DB"];
type Row = Record<string, unknown>;

/** Rows read per query while streaming: a page of contacts is well under a megabyte. */
export const EXPORT_PAGE = 500;
const EXPORT_FORMAT = { name: "porchlight-export", version: 1 } as const;

export interface CategorySummary {
  key: ExportCategoryKey;
  label: string;
  description: string;
  count: number;
  /** ISO instant of the newest change in the category; null when it is empty. */
  lastUpdated: string | null;
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Times are stored as epoch milliseconds in columns named *_at (and last_activity); the export writes ISO 8601. */
function isTimeColumn(column: string): boolean {
  return column.endsWith("_at") || column === "last_activity";
}

const isoOrNull = (value: unknown): string | null => (typeof value === "number" && Number.isFinite(value) ? new Date(value).toISOString() : null);

/** A stored row as the export writes it: secrets and internal keys out, JSON parsed, times in ISO 8601. */
export function exportRecord(spec: ExportTable, row: Row): Row {
  const omit = new Set<string>(spec.omit ?? []);
  const json = new Set<string>(spec.json ?? []);
  const out: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === "__rowid" || omit.has(column)) continue;
    if (json.has(column) && typeof value === "string") {
      try {
        out[column] = JSON.parse(value);
      } catch {
        out[column] = value;
      }
    } else if (isTimeColumn(column) && typeof value === "number") {
      out[column] = isoOrNull(value);
    } else {
      out[column] = value;
    }
  }
  return out;
}

/** What Settings → Data lists: each category with its record count and newest change, in one D1 batch. */
export async function summarizeExport(db: D1, userId: string): Promise<CategorySummary[]> {
  const tables = EXPORT_CATEGORIES.flatMap((c) => c.tables as readonly ExportTable[]);
  const results = await db.batch<{ n: number; updated: number | null }>(
    tables.map((t) =>
      db.prepare(`select count(*) as n, max(${quote(t.updated)}) as updated from ${quote(t.table)} where ${quote(t.owner)} = ?`).bind(userId),
    ),
  );
  let index = 0;
  return EXPORT_CATEGORIES.map((category) => {
    let count = 0;
    let updated: number | null = null;
    for (const _ of category.tables) {
      const row = results[index++]?.results[0];
      count += row?.n ?? 0;
      if (typeof row?.updated === "number" && (updated === null || row.updated > updated)) updated = row.updated;
    }
    return { key: category.key, label: category.label, description: category.description, count, lastUpdated: isoOrNull(updated) };
  });
}

/** One table's rows of the owner, a page at a time in storage order (rowid), so memory stays flat. */
async function* tableRows(db: D1, spec: ExportTable, userId: string): AsyncGenerator<Row[]> {
  let after = 0; // rowids start at 1
  for (;;) {
    const { results } = await db
      .prepare(`select rowid as __rowid, * from ${quote(spec.table)} where ${quote(spec.owner)} = ? and rowid > ? order by rowid limit ?`)
      .bind(userId, after, EXPORT_PAGE)
      .all<Row>();
    if (results.length > 0) yield results;
    if (results.length < EXPORT_PAGE) return;
    after = Number(results[results.length - 1]!.__rowid);
  }
}

interface ExportOptions {
  db: D1;
  user: { id: string; email: string };
  categories: readonly ExportCategoryKey[];
  now: Date;
}

/**
 * The agent's export as JSON text, piece by piece: the metadata, then each chosen category with its rows
 * keyed by the table they come from, and the category's record count and newest change written after its
 * rows (so the count is exactly what the file holds, even if the agent was working while it streamed).
 */
async function* exportChunks({ db, user, categories, now }: ExportOptions): AsyncGenerator<string> {
  const chosen: ExportCategory[] = EXPORT_CATEGORIES.filter((c) => categories.includes(c.key));
  const metadata = {
    format: EXPORT_FORMAT.name,
    version: EXPORT_FORMAT.version,
    exported_at: now.toISOString(),
    account: { id: user.id, email: user.email },
    categories: chosen.map((c) => c.key),
    notes: [
      "Times are ISO 8601 in UTC. Calendar days (due dates, close dates) are YYYY-MM-DD in your own timezone.",
      "Money is in whole cents (columns ending in _cents); percentages are percent (2.5 means 2.5 %).",
      "Yes/no fields are 1 or 0. Each category lists its rows by the table they are stored in.",
    ],
  };
  yield `{"export":${JSON.stringify(metadata)},"categories":{`;
  for (const [c, category] of chosen.entries()) {
    yield `${c > 0 ? "," : ""}${JSON.stringify(category.key)}:{"label":${JSON.stringify(category.label)},"description":${JSON.stringify(category.description)},"records":{`;
    let count = 0;
    let updated: number | null = null;
    for (const [t, spec] of category.tables.entries()) {
      yield `${t > 0 ? "," : ""}${JSON.stringify(spec.table)}:[`;
      let first = true;
      for await (const page of tableRows(db, spec, user.id)) {
        count += page.length;
        for (const row of page) {
          const value = row[spec.updated];
          if (typeof value === "number" && (updated === null || value > updated)) updated = value;
        }
        yield `${first ? "" : ","}${page.map((row) => JSON.stringify(exportRecord(spec, row))).join(",")}`;
        first = false;
      }
      yield "]";
    }
    yield `},"record_count":${count},"last_updated":${JSON.stringify(isoOrNull(updated))}}`;
  }
  yield "}}\n";
}

/** Reads chosen category keys from a form: unknown keys are ignored, duplicates dropped, order is the map's. */
export function chosenCategories(values: readonly FormDataEntryValue[]): ExportCategoryKey[] {
  const asked = new Set(values.filter((v): v is string => typeof v === "string"));
  return EXPORT_CATEGORIES.map((c) => c.key).filter((key) => asked.has(key));
}

/**
 * The export as a streamed download, recorded as a data request from the moment it starts until its last
 * byte (completed), an error (failed) or the reader going away (cancelled). Used by the agent's own export
 * (Settings → Data, a portability request) and by an admin's export for a request made by e-mail (access).
 */
export async function exportResponse(
  context: RequestContext,
  subject: { id: string; email: string },
  categories: readonly ExportCategoryKey[],
  request: { type: "access" | "portability"; description: string },
): Promise<Response> {
  const now = new Date();
  const prefs = await getDisplayPreferences(context, subject.id as UserId);
  const requestId = await openDataRequest(context.db, subject.id, request.type, request.description, now);
  const chunks = exportChunks({ db: context.cloudflare.env.DB, user: subject, categories, now });
  const encoder = new TextEncoder();
  const finish = (status: "completed" | "failed" | "cancelled") => finishDataRequest(context.db, subject.id, requestId, status, new Date());
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          await finish("completed");
          controller.close();
        } else {
          controller.enqueue(encoder.encode(next.value));
        }
      } catch (error) {
        console.error(JSON.stringify({ event: "data_export_failed", detail: error instanceof Error ? error.message : String(error) }));
        await finish("failed").catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await chunks.return(undefined);
      await finish("cancelled").catch(() => undefined);
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="porchlight-export-${isoDateIn(now, prefs.timezone)}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}

/** Labels of the chosen categories, for a request's description. */
export function categoryLabels(categories: readonly ExportCategoryKey[]): string {
  return EXPORT_CATEGORIES.filter((c) => (categories as readonly string[]).includes(c.key))
    .map((c) => c.label)
    .join(", ");
}

/** A refusal the export's caller reads as text (fetch + toast). */
export function refuse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" } });
}
