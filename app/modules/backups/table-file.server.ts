import { hex, tableFiles, type TableFile, type TableManifest } from "./backup.server";

// Reading a table of a backup: its files (its parts, or its one file; TableManifest.parts) cut into steps that never
// cross a file, each file checked against the manifest as it streams, and a parted table's parts against its entry.

/** A parted table's own SHA-256: of its parts' SHA-256s, one per line, so the manifest binds which parts and in what order. */
export async function partsDigest(parts: readonly Pick<TableFile, "sha256">[]): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(parts.map((p) => `${p.sha256}\n`).join(""))));
}

/** One step's share of a table: rows `from` to `from + count` of file `file` (0-based), the first of them line `line` of the table. */
export interface FileSlice {
  file: number;
  from: number;
  count: number;
  line: number;
}

/**
 * A table cut into steps of at most `rowsPerStep` rows that never cross a file: each step reads one file, so reading a
 * table costs the same whatever its size (a backup taken as a durable job is stored in parts of its step's size). A table
 * with no rows still gets its one step: its file is checked all the same.
 */
export function fileSlices(entry: TableManifest, rowsPerStep: number): FileSlice[] {
  const slices: FileSlice[] = [];
  let line = 0;
  tableFiles(entry).forEach((file, index) => {
    for (let from = 0; from === 0 || from < file.rows; from += rowsPerStep)
      slices.push({ file: index, from, count: Math.min(rowsPerStep, file.rows - from), line: line + from });
    line += file.rows;
  });
  return slices;
}

/**
 * Streams one file of a table from R2 and hands each row to `take`, in the order written. The whole file is read
 * whatever `take` keeps: its row count, byte count and SHA-256 are checked against the manifest at the end, and a file
 * that differs (changed, cut short, not gzip, a line of another table) throws naming the table. Callers make what
 * `take` wrote count only after this returns (the drill checks again; a restore swaps in one batch), so a bad file
 * restores nothing.
 */
async function readFile(
  bucket: R2Bucket,
  table: string,
  file: TableFile,
  take: (row: Record<string, unknown>) => Promise<void> | void,
): Promise<void> {
  const object = await bucket.get(file.key);
  if (!object) throw new Error(`${table}: the file is missing from storage`);
  // workerd has it as crypto.DigestStream (a streaming SHA-256); the types declare it as a global class.
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const hasher = digest.getWriter();
  const reader = object.body.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let rest = "";
  let rows = 0;
  let bytes = 0;
  const line = async (text: string) => {
    if (text === "") return;
    const parsed = JSON.parse(text) as {
      table?: unknown;
      row?: Record<string, unknown>;
    };
    if (parsed.table !== table || !parsed.row || typeof parsed.row !== "object") throw new Error("a line belongs to another table or has no row");
    rows += 1;
    await take(parsed.row);
  };
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      bytes += chunk.value.byteLength;
      await hasher.write(chunk.value);
      const text = rest + decoder.decode(chunk.value, { stream: true });
      const parts = text.split("\n");
      rest = parts.pop()!;
      for (const part of parts) await line(part);
    }
    await line(rest + decoder.decode());
  } catch (error) {
    // A truncated or corrupted gzip stream, a line that is not JSON: the file is not what was written.
    await reader.cancel().catch(() => undefined);
    throw new Error(`${table}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await hasher.close().catch(() => undefined);
  }
  const sha256 = hex(await digest.digest);
  if (rows !== file.rows || bytes !== file.bytes || sha256 !== file.sha256) {
    throw new Error(
      `${table}: the file does not match its manifest (${rows} of ${file.rows} rows, checksum ${sha256 === file.sha256 ? "equal" : "different"})`,
    );
  }
}

/** A parted table's entry must add up: its rows, bytes and checksum are its parts'. */
async function checkParts(entry: TableManifest): Promise<void> {
  if (!entry.parts) return;
  const sum = (pick: (f: TableFile) => number) => entry.parts!.reduce((n, f) => n + pick(f), 0);
  if (
    entry.parts.length === 0 ||
    sum((f) => f.rows) !== entry.rows ||
    sum((f) => f.bytes) !== entry.bytes ||
    (await partsDigest(entry.parts)) !== entry.sha256
  )
    throw new Error(`${entry.table}: its parts do not match its manifest`);
}

/** The rows of one slice of a table (fileSlices), its file read and checked whole; the parts checked against the entry. */
export async function readTableSlice(
  bucket: R2Bucket,
  entry: TableManifest,
  slice: Pick<FileSlice, "file" | "from" | "count">,
  take: (row: Record<string, unknown>, index: number) => Promise<void> | void,
): Promise<void> {
  await checkParts(entry);
  const file = tableFiles(entry)[slice.file];
  if (!file) throw new Error(`${entry.table}: file ${slice.file + 1} is not in the backup's manifest`);
  let index = 0;
  await readFile(bucket, entry.table, file, async (row) => {
    if (index >= slice.from && index < slice.from + slice.count) await take(row, index);
    index += 1;
  });
}
