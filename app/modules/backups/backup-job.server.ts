import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { backups, type Backup } from "~/db/schema";
import { JobFailure } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { startDurableJob, type JobParams } from "~/modules/jobs/durable-jobs.server";
import {
  backupId,
  backupKey,
  backupSchema,
  completeBackup,
  deleteObjects,
  failBackup,
  quoteName,
  schemaVersion,
  tablePages,
  writeTable,
  type BackupType,
  type TableManifest,
} from "./backup.server";

// A backup of the whole database as a durable job (ADR 0058; the workflow is workers/workflows/backup.workflow.ts).
// Its steps: plan (the tables, their definitions and row counts), then each table read in parts of BACKUP_ROWS_PER_PART
// rows (pages of 500, so 40 queries a part), each part written to R2 as a gzip NDJSON object of its own; then each table's
// parts joined into the one file per table the manifest describes (with its row count and SHA-256, so download, drill
// and restore read it as before); last the manifest, the backup row, and the parts removed.

type Bindings = Pick<Env, "DB" | "BACKUPS">;

/** Rows read per step: 40 pages of 500, 40 queries. */
export const BACKUP_ROWS_PER_PART = 20_000;

export interface BackupParams extends JobParams {
  backupId: string;
  /** Rows per part; BACKUP_ROWS_PER_PART unless a test asks for smaller steps. */
  rowsPerPart?: number;
}

export interface BackupPlan {
  schemaVersion: string | null;
  tables: { name: string; sql: string; indexes: string[]; rows: number }[];
  total: number;
}

const partKey = (id: string, table: string, part: number) => backupKey(id, `parts/${table}/${String(part).padStart(6, "0")}.ndjson.gz`);

/**
 * Records a backup (in progress) and starts it as a durable job; answers at once. Null when a backup job is already
 * running (nothing is recorded then).
 */
export async function startBackup(
  env: Pick<Env, "BACKUP_WORKFLOW">,
  db: Db,
  type: Exclude<BackupType, "safety">,
  startedBy: string | null,
  options: { rowsPerPart?: number } = {},
  now = Date.now(),
): Promise<{ backup: Backup; jobId: string } | null> {
  const id = backupId(now);
  const job = await startDurableJob<BackupParams>(
    db,
    env.BACKUP_WORKFLOW,
    { kind: "backup", startedBy, subject: id, step: "Waiting to start" },
    { backupId: id, ...options },
    now,
    // The backup's row goes in before the instance can run: its steps update it.
    async () => {
      await db.insert(backups).values({ id, type, status: "in_progress", startedAt: now });
    },
  );
  if (!job) return null;
  return { backup: (await db.select().from(backups).where(eq(backups.id, id)).get())!, jobId: job.id };
}

/** The first step: the tables (definitions, indexes, row counts) and the schema version. */
export async function planBackup(env: Bindings): Promise<BackupPlan> {
  const version = await schemaVersion(env.DB);
  const tables = [];
  for (const table of await backupSchema(env.DB)) {
    const count = await env.DB.prepare(`select count(*) as n from ${quoteName(table.name)}`).first<{ n: number }>();
    tables.push({ ...table, rows: count?.n ?? 0 });
  }
  return { schemaVersion: version, tables, total: tables.reduce((sum, t) => sum + t.rows, 0) };
}

/**
 * Reads up to `rowsPerPart` rows of a table after rowid `after` and writes them as part `part` (one gzip object). A
 * retried part overwrites its object. Returns the rows written, the last rowid and whether rows may follow.
 */
export async function writeBackupPart(
  env: Bindings,
  id: string,
  table: string,
  part: number,
  after: number,
  rowsPerPart: number,
  /** Only this agent's rows (a safety copy's part), by the table's owner column. */
  owner?: { column: string; userId: string },
): Promise<{ rows: number; last: number; more: boolean }> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let rows = 0;
  let last = after;
  let more = false;
  for await (const page of tablePages(env.DB, table, after, owner)) {
    chunks.push(page.bytes);
    rows += page.rows;
    last = page.last;
    more = page.full;
    if (rows >= rowsPerPart) break;
  }
  const gzipped = await new Response(new Blob(chunks).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  await env.BACKUPS.put(partKey(id, table, part), gzipped, { httpMetadata: { contentType: "application/gzip" } });
  return { rows, last, more };
}

/** Joins a table's parts, in order, into its one file of the backup, with its row count and SHA-256. */
export async function joinBackupTable(
  env: Bindings,
  id: string,
  table: Omit<BackupPlan["tables"][number], "rows">,
  parts: number,
): Promise<TableManifest> {
  async function* source() {
    for (let part = 1; part <= parts; part += 1) {
      const object = await env.BACKUPS.get(partKey(id, table.name, part));
      if (!object) throw new JobFailure(`${table.name}: part ${part} of the backup is missing from storage`);
      const reader = object.body
        .pipeThrough(new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array<ArrayBuffer>>)
        .getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
        yield { bytes: chunk.value, rows: chunk.value.reduce((n, byte) => (byte === 10 ? n + 1 : n), 0) };
    }
  }
  return writeTable(env, id, table.name, table.sql, table.indexes, source());
}

/** The last step: the manifest and the backup row; the parts are removed. */
export async function finishBackup(env: Bindings, db: Db, id: string, plan: BackupPlan, tables: TableManifest[]): Promise<Backup> {
  const row = (await db.select().from(backups).where(eq(backups.id, id)).get())!;
  const done = await completeBackup(
    env,
    db,
    { id, type: row.type, startedAt: row.startedAt, userId: null, schemaVersion: plan.schemaVersion },
    tables,
  );
  await deleteObjects(env.BACKUPS, backupKey(id, "parts/"));
  return done;
}

export { failBackup };
