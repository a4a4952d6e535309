import * as z from "zod";
import { ContactInputSchema, type ContactInput } from "./contact.schema";
import { utf8Bytes } from "~/lib/utf8";
import { IMPORT_FIELDS, mapRow, type ColumnMapping } from "./csv";

// The import's shared parts: the browser previews with the same validation the server imports with.

export const DUPLICATE_MODES = ["skip", "update", "create"] as const;
export type DuplicateMode = (typeof DUPLICATE_MODES)[number];

interface RejectedRow {
  /** The line in the file (the header is line 1). */
  line: number;
  reasons: string[];
  cells: string[];
}

export interface ImportSummary {
  created: number;
  updated: number;
  skipped: number;
  /** Created rows marked New: each raised a new-lead alert (ADR 0032). */
  newLeads: number;
  rejected: RejectedRow[];
}

export const IMPORT_ROW_LIMIT = 20_000;
/**
 * The largest import request (the JSON the import screen sends), in bytes. The Worker parses it whole and then
 * writes it to D1, so it must stay far from a Worker's 128 MB of memory (ADR 0021); 10 MB is some 20,000 rows
 * with a paragraph of notes each.
 */
export const IMPORT_MAX_BYTES = 10_000_000;

export const IMPORT_TOO_LARGE = `That file is too large to import at once: at most ${IMPORT_MAX_BYTES / 1_000_000} MB. Split it into smaller files and import each one.`;

/** The request's size as sent: UTF-8 bytes of its JSON. */
export function importRequestBytes(request: unknown): number {
  return utf8Bytes(JSON.stringify(request));
}

/** What the import screen sends to POST /api/contacts/import. */
export const ImportRequestSchema = z.object({
  rows: z
    .array(z.array(z.string().max(20_000)).max(200))
    .min(1, "The file has no rows.")
    .max(IMPORT_ROW_LIMIT, `Import at most ${IMPORT_ROW_LIMIT.toLocaleString("en-US")} rows at a time.`),
  mapping: z.array(z.enum([...IMPORT_FIELDS, "ignore"])).max(200),
  mode: z.enum(DUPLICATE_MODES),
});

export type ImportResponse = { ok: true; summary: ImportSummary } | { ok: false; error: string; redirectTo?: string };

/**
 * Validates every row: the contacts to write, and the rows refused with their reasons. `lines` are the
 * rows' lines in the file (parseCsv); without them (the server gets rows, not the file) a row's line is
 * its position after the header, which the browser turns back into the file's line (fileLine).
 */
export function validateRows(rows: string[][], mapping: ColumnMapping, lines?: number[]) {
  const valid: { line: number; contact: ContactInput; cells: string[]; newLead: boolean }[] = [];
  const rejected: RejectedRow[] = [];
  rows.forEach((cells, index) => {
    const line = lines?.[index] ?? index + 2;
    const { input, problems, newLead } = mapRow(cells, mapping);
    const parsed = ContactInputSchema.safeParse(input);
    const reasons = [...problems, ...(parsed.success ? [] : parsed.error.issues.map((issue) => issue.message))];
    if (reasons.length > 0 || !parsed.success) rejected.push({ line, reasons: [...new Set(reasons)], cells });
    else valid.push({ line, contact: parsed.data, cells, newLead });
  });
  return { valid, rejected };
}

/** The file's line of a row the server numbered by position (index + 2, as validateRows does without lines). */
export function fileLine(positionLine: number, lines: number[]): number {
  return lines[positionLine - 2] ?? positionLine;
}
