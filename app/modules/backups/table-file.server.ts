import { hex, type TableManifest } from "./backup.server";

/**
 * Streams one table's file of a backup from R2 and hands each row to `take`, in the order written. The whole file
 * is read whatever `take` keeps: its row count, byte count and SHA-256 are checked against the manifest at the
 * end, and a file that differs (changed, cut short, not gzip, a line of another table) throws naming the table.
 * Callers make what `take` wrote count only after this returns (the drill checks again; a restore swaps in one
 * batch), so a bad file restores nothing.
 */
export async function readTableFile(
  bucket: R2Bucket,
  entry: TableManifest,
  take: (row: Record<string, unknown>) => Promise<void> | void,
): Promise<void> {
  const object = await bucket.get(entry.key);
  if (!object) throw new Error(`${entry.table}: the file is missing from storage`);
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
    if (parsed.table !== entry.table || !parsed.row || typeof parsed.row !== "object")
      throw new Error("a line belongs to another table or has no row");
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
    throw new Error(`${entry.table}: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await hasher.close().catch(() => undefined);
  }
  const sha256 = hex(await digest.digest);
  if (rows !== entry.rows || bytes !== entry.bytes || sha256 !== entry.sha256) {
    throw new Error(
      `${entry.table}: the file does not match its manifest (${rows} of ${entry.rows} rows, checksum ${sha256 === entry.sha256 ? "equal" : "different"})`,
    );
  }
}
