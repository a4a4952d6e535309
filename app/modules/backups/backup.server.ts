import { DAY_MS } from "~/lib/dates";
import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { backups, users, type Backup } from "~/db/schema";
import type { BACKUP_TYPES } from "~/db/enums";
import type { Env } from "~/lib/env.server";
import { newestAcross } from "~/modules/shards/databases.server";

// Backups of the whole database in R2 (ADR 0027). Each table is read 500 rows at a time in rowid order
// and written as gzip NDJSON, one line per row ({"table": …, "row": {…}}), through CompressionStream into an R2
// multipart upload: memory holds one page of rows and at most one part (5 MiB) of compressed bytes, whatever the
// size of the database. A SHA-256 of each table's uncompressed lines (DigestStream, as they stream) and its row
// count go into the manifest, which is written last: a backup without a manifest never completed.

export type BackupType = (typeof BACKUP_TYPES)[number];
type Bindings = Pick<Env, "DB" | "BACKUPS">;

/** Kept this long (spec: retention_days 30); the cron deletes older ones. */
export const BACKUP_RETENTION_DAYS = 30;
/** The daily automatic backup: taken when the newest automatic one is older than this. */
const BACKUP_EVERY_MS = 24 * 3_600_000;
const PAGE = 500;
/** R2 multipart parts must be at least 5 MiB, except the last. */
const PART_BYTES = 5 * 1024 * 1024;
const BACKUP_PREFIX = "backups/";
const MANIFEST_FORMAT = "porchlight-backup";
export const backupId = (now: number) => `${new Date(now).toISOString().slice(0, 10)}-${crypto.randomUUID().slice(0, 8)}`;

/** One stored file of a table: gzip NDJSON in R2, with its row count, uncompressed bytes and their SHA-256 (hex). */
export interface TableFile {
  rows: number;
  bytes: number;
  sha256: string;
  /** Compressed bytes in R2. */
  stored: number;
  key: string;
}

export interface TableManifest extends TableFile {
  table: string;
  /** The table's CREATE TABLE and CREATE INDEX statements as the database held them, so the rows can be loaded
   * into an empty database (a composite foreign key needs its parent's unique index). */
  create: string;
  indexes: string[];
  /**
   * A backup taken as a durable job stores a table as the parts its steps wrote, in order, so that a drill or restore
   * step reads one part, never the whole table. Then rows, bytes and stored are the parts' sums, sha256 is that of the
   * parts' SHA-256s (one per line), and key is the parts' prefix. Without parts the table is the one file at key.
   */
  parts?: TableFile[];
}

/** The files a table of a backup is stored in, in order: its parts (a backup taken as a durable job) or its one file. */
export const tableFiles = (entry: TableManifest): TableFile[] => entry.parts ?? [entry];

export interface BackupManifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  id: string;
  type: BackupType;
  /** A safety copy's agent: the tables hold only that agent's rows. Absent for a backup of the whole database. */
  user_id?: string;
  /** The account database backed up (ADR 0060): 0 is the home database. Absent in backups taken before there were several. */
  shard?: number;
  schema_version: string | null;
  started_at: string;
  finished_at: string;
  tables: TableManifest[];
}

export const backupKey = (id: string, file: string) => `${BACKUP_PREFIX}${id}/${file}`;

/**
 * The tables a backup holds: every table of the schema, without SQLite's and D1's own, and without the full-text
 * index (a virtual table and its shadow tables, rebuilt by triggers from contacts).
 */
export async function backupTables(d1: Env["DB"]): Promise<string[]> {
  return (await backupSchema(d1)).map((t) => t.name);
}

/** backupTables with each table's CREATE TABLE statement and its indexes (SQLite's automatic ones aside). */
export async function backupSchema(d1: Env["DB"]): Promise<{ name: string; sql: string; indexes: string[] }[]> {
  const { results } = await d1
    .prepare("select type, name, tbl_name as tableName, sql from sqlite_master where type in ('table', 'index') order by type desc, name")
    .all<{ type: "table" | "index"; name: string; tableName: string; sql: string | null }>();
  const virtual = results.filter((t) => t.type === "table" && /^create virtual table/i.test(t.sql ?? "")).map((t) => t.name);
  return results
    .filter(({ type, name }) => type === "table" && !/^(sqlite_|_cf_|d1_)/.test(name) && !virtual.some((v) => name === v || name.startsWith(`${v}_`)))
    .map(({ name, sql }) => ({
      name,
      sql: sql ?? "",
      indexes: results.filter((i) => i.type === "index" && i.tableName === name && i.sql).map((i) => i.sql!),
    }));
}

export async function schemaVersion(d1: Env["DB"]): Promise<string | null> {
  try {
    const row = await d1.prepare("select name from d1_migrations order by id desc limit 1").first<{ name: string }>();
    return row?.name ?? null;
  } catch {
    return null;
  }
}

/** A table or column name as an SQL identifier. */
export const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

export const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

/** NDJSON text of a table's rows, `rows` lines at a time. */
interface Chunk {
  bytes: Uint8Array<ArrayBuffer>;
  rows: number;
}

/**
 * A table's rows (one agent's with `owner`) read `page` (at most 500) at a time in rowid order after `after`, each page
 * as NDJSON lines ({"table": …, "row": {…}}) with the rowid it ends on.
 */
export async function* tablePages(d1: Env["DB"], table: string, after = 0, owner?: { column: string; userId: string }, page = PAGE) {
  const limit = Math.max(1, Math.min(PAGE, Math.floor(page)));
  const encoder = new TextEncoder();
  for (;;) {
    const { results } = await (owner
      ? d1
          .prepare(`select rowid as __rowid, * from "${table}" where rowid > ? and ${quoteName(owner.column)} = ? order by rowid limit ${limit}`)
          .bind(after, owner.userId)
      : d1.prepare(`select rowid as __rowid, * from "${table}" where rowid > ? order by rowid limit ${limit}`).bind(after)
    ).all<Record<string, unknown>>();
    if (results.length === 0) return;
    let text = "";
    for (const { __rowid, ...row } of results) {
      text += `${JSON.stringify({ table, row })}\n`;
      after = __rowid as number;
    }
    yield { bytes: encoder.encode(text), rows: results.length, last: after, full: results.length === limit };
    if (results.length < limit) return;
  }
}

/** One table, streamed: NDJSON chunks → (SHA-256, gzip → R2 multipart parts). */
async function writeTable(
  env: Bindings,
  id: string,
  table: string,
  create: string,
  indexes: string[],
  source: AsyncIterable<Chunk>,
): Promise<TableManifest> {
  const key = backupKey(id, `${table}.ndjson.gz`);
  const upload = await env.BACKUPS.createMultipartUpload(key, { httpMetadata: { contentType: "application/gzip" } });
  const gzip = new CompressionStream("gzip");
  // workerd has it as crypto.DigestStream (a streaming SHA-256); the types declare it as a global class.
  const digest = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  let rows = 0;
  let bytes = 0;
  const produce = (async () => {
    const writer = gzip.writable.getWriter();
    const hasher = digest.getWriter();
    try {
      for await (const chunk of source) {
        rows += chunk.rows;
        bytes += chunk.bytes.byteLength;
        await hasher.write(chunk.bytes);
        await writer.write(chunk.bytes);
      }
      await hasher.close();
      await writer.close();
    } catch (error) {
      await writer.abort(error).catch(() => undefined);
      throw error;
    }
  })();
  try {
    const parts: R2UploadedPart[] = [];
    const reader = gzip.readable.getReader();
    let pending: Uint8Array[] = [];
    let pendingSize = 0;
    let stored = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pending.push(value);
      pendingSize += value.byteLength;
      if (pendingSize >= PART_BYTES) {
        parts.push(await upload.uploadPart(parts.length + 1, concat(pending, pendingSize)));
        stored += pendingSize;
        pending = [];
        pendingSize = 0;
      }
    }
    await produce;
    if (pendingSize > 0 || parts.length === 0) {
      parts.push(await upload.uploadPart(parts.length + 1, concat(pending, pendingSize)));
      stored += pendingSize;
    }
    await upload.complete(parts);
    return { table, create, indexes, rows, bytes, sha256: hex(await digest.digest), stored, key };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    await produce.catch(() => undefined);
    throw error;
  }
}

/**
 * Takes a backup of every table into R2 and records it. Returns the finished row (completed, or failed with the
 * error; a failed backup's objects are removed).
 */
/** A safety copy's scope: one agent's rows (by each table's owner column) of these tables only. */
export interface BackupScope {
  userId: string;
  tables: readonly { table: string; owner: string }[];
}

/**
 * Takes a backup in one go: one agent's rows with `scope` (the safety copy an agent's restore takes first, inside that
 * restore), or the whole database (the tests). A backup of the whole database in production runs as a durable job
 * (backup-job.server.ts), whose steps each fit one invocation.
 */
export async function createBackup(env: Bindings, db: Db, type: BackupType, now = Date.now(), scope?: BackupScope): Promise<Backup> {
  const id = backupId(now);
  await db.insert(backups).values({ id, type, status: "in_progress", startedAt: now, userId: scope?.userId ?? null });
  try {
    const version = await schemaVersion(env.DB);
    const tables: TableManifest[] = [];
    const owners = scope ? new Map(scope.tables.map((t) => [t.table, t.owner])) : null;
    for (const { name, sql, indexes } of await backupSchema(env.DB)) {
      if (owners && !owners.has(name)) continue;
      const owner = owners && scope ? { column: owners.get(name)!, userId: scope.userId } : undefined;
      tables.push(await writeTable(env, id, name, sql, indexes, tablePages(env.DB, name, 0, owner)));
    }
    return await completeBackup(env, db, { id, type, startedAt: now, userId: scope?.userId ?? null, schemaVersion: version }, tables);
  } catch (error) {
    return failBackup(env, db, id, error instanceof Error ? error.message : String(error));
  }
}

/** Writes the manifest (last: a backup without one never completed) and marks the backup completed. */
export async function completeBackup(
  env: Bindings,
  db: Db,
  backup: { id: string; type: BackupType; startedAt: number; userId: string | null; schemaVersion: string | null; shard?: number },
  tables: TableManifest[],
): Promise<Backup> {
  const { id } = backup;
  const manifest: BackupManifest = {
    format: MANIFEST_FORMAT,
    version: 1,
    id,
    type: backup.type,
    ...(backup.userId ? { user_id: backup.userId } : {}),
    shard: backup.shard ?? 0,
    schema_version: backup.schemaVersion,
    started_at: new Date(backup.startedAt).toISOString(),
    finished_at: new Date().toISOString(),
    tables,
  };
  const text = JSON.stringify(manifest, null, 2);
  await env.BACKUPS.put(backupKey(id, "manifest.json"), text, { httpMetadata: { contentType: "application/json" } });
  const sizeBytes = tables.reduce((sum, t) => sum + t.stored, 0) + new TextEncoder().encode(text).byteLength;
  const [done] = await db
    .update(backups)
    .set({
      status: "completed",
      finishedAt: Date.now(),
      sizeBytes,
      tableCount: tables.length,
      rowCount: tables.reduce((sum, t) => sum + t.rows, 0),
      schemaVersion: backup.schemaVersion,
    })
    .where(eq(backups.id, id))
    .returning();
  return done!;
}

/** Marks a backup failed with the reason and removes what it had written. */
export async function failBackup(env: Bindings, db: Db, id: string, message: string): Promise<Backup> {
  console.error(JSON.stringify({ event: "backup_failed", id, message }));
  await deleteObjects(env.BACKUPS, `${BACKUP_PREFIX}${id}/`).catch(() => undefined);
  const [failed] = await db
    .update(backups)
    .set({ status: "failed", finishedAt: Date.now(), errorMessage: message.slice(0, 500) })
    .where(eq(backups.id, id))
    .returning();
  return failed!;
}

async function deleteObjects(bucket: R2Bucket, prefix: string): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, cursor });
    if (page.objects.length > 0) await bucket.delete(page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
}

/**
 * Newest first over every account database (whole backups' rows are at home, an agent's safety copies in the agent's
 * database: ADR 0060), for the Backup tab, each with its agent's e-mail when it is a safety copy.
 */
export async function listBackups(databases: readonly Db[], limit = 60): Promise<(Backup & { agentEmail: string | null })[]> {
  const rows = await newestAcross(
    databases,
    (db) =>
      db
        .select({ backup: backups, email: users.email })
        .from(backups)
        .leftJoin(users, eq(users.id, backups.userId))
        .orderBy(desc(backups.startedAt))
        .limit(limit),
    (r) => r.backup.startedAt,
    limit,
  );
  return rows.map((r) => ({ ...r.backup, agentEmail: r.email ?? null }));
}

/** A backup's row, looked for in every account database (a safety copy's is in its agent's). */
export async function getBackup(databases: readonly Db[], id: string): Promise<Backup | undefined> {
  for (const db of databases) {
    const row = await db.select().from(backups).where(eq(backups.id, id)).get();
    if (row) return row;
  }
  return undefined;
}

/** What the bucket holds under backups/, from R2's own listing (every object, counted once). */
export async function backupStorage(bucket: R2Bucket): Promise<{ bytes: number; objects: number }> {
  let bytes = 0;
  let objects = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: BACKUP_PREFIX, cursor });
    for (const object of page.objects) {
      bytes += object.size;
      objects += 1;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return { bytes, objects };
}

/** Deletes backups started more than 30 days before `now` whose rows are in `db`: their objects, then their rows. */
export async function pruneBackups(env: Bindings, db: Db, now = Date.now()): Promise<number> {
  const old = await db
    .select({ id: backups.id })
    .from(backups)
    .where(lt(backups.startedAt, now - BACKUP_RETENTION_DAYS * DAY_MS));
  for (const { id } of old) {
    await deleteObjects(env.BACKUPS, `${BACKUP_PREFIX}${id}/`);
    await db.delete(backups).where(eq(backups.id, id));
  }
  return old.length;
}

/**
 * Whether the daily automatic backup of account database `shard` is due: none of it in the last day (a failed one is
 * retried on the next run).
 */
export async function automaticBackupDue(db: Db, now = Date.now(), shard = 0): Promise<boolean> {
  const latest = await db
    .select({ startedAt: backups.startedAt })
    .from(backups)
    .where(and(eq(backups.type, "automatic"), eq(backups.shard, shard)))
    .orderBy(desc(backups.startedAt))
    .limit(1)
    .get();
  // A latest backup "in the future" (a clock that went back) must not hold the daily backup off until then.
  return !latest || now - latest.startedAt >= BACKUP_EVERY_MS || now < latest.startedAt;
}

/**
 * A backup as one download: one gzip stream whose text is a first line with the manifest, then every row tagged
 * with its table, table by table as stored. Streamed from R2 object by object (each unzipped and zipped again
 * into the one stream: concatenated gzip members would be smaller work, but the web's DecompressionStream
 * refuses them, and the file must open anywhere).
 */
export function backupDownload(bucket: R2Bucket, manifest: BackupManifest): ReadableStream<Uint8Array> {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const pump = async () => {
    const writer = writable.getWriter();
    try {
      await writer.write(new TextEncoder().encode(`${JSON.stringify({ manifest })}\n`));
      for (const file of manifest.tables.flatMap(tableFiles)) {
        const object = await bucket.get(file.key);
        if (!object) throw new Error(`missing ${file.key}`);
        const reader = object.body.pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) await writer.write(chunk.value);
      }
      await writer.close();
    } catch (error) {
      console.error(JSON.stringify({ event: "backup_download_failed", id: manifest.id, message: String(error) }));
      await writer.abort(error).catch(() => undefined);
    }
  };
  void pump();
  return readable.pipeThrough(new CompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>);
}

/** The manifest of a completed backup, or null (missing, unreadable). */
export async function readManifest(bucket: R2Bucket, id: string): Promise<BackupManifest | null> {
  const object = await bucket.get(backupKey(id, "manifest.json"));
  if (!object) return null;
  try {
    const manifest = (await object.json()) as BackupManifest;
    return manifest.format === MANIFEST_FORMAT ? manifest : null;
  } catch {
    return null;
  }
}
