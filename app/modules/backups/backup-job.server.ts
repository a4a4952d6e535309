import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { backups, type Backup } from "~/db/schema";
import { JobFailure } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { HOME_SHARD, shardDatabases } from "~/lib/shards.server";
import { startDurableJob, type JobParams } from "~/modules/jobs/durable-jobs.server";
import {
  backupId,
  backupKey,
  backupSchema,
  completeBackup,
  failBackup,
  quoteName,
  schemaVersion,
  tablePages,
  type BackupType,
  hex,
  type TableFile,
  type TableManifest,
} from "./backup.server";
import { partsDigest } from "./table-file.server";

// A backup of the whole database as a durable job (ADR 0058; the workflow is workers/workflows/backup.workflow.ts).
// Its steps: plan (the tables, their definitions and row counts), then each table read in parts of BACKUP_ROWS_PER_PART
// rows (pages of 500, so 40 queries a part), each part written to R2 as a gzip NDJSON object of its own, with its row
// count and SHA-256; last the manifest, which lists each table's parts in order (TableManifest.parts), and the backup row.
// The parts are the backup: a drill or restore step reads one part, so no step's work grows with the table.

type Bindings = Pick<Env, "DB" | "BACKUPS">;

/** Rows read per step: 40 pages of 500, 40 queries. */
export const BACKUP_ROWS_PER_PART = 20_000;

export interface BackupParams extends JobParams {
  backupId: string;
  /** Rows per part; BACKUP_ROWS_PER_PART unless a test asks for smaller steps. */
  rowsPerPart?: number;
  /** The account database backed up (ADR 0060); the home database when absent. */
  shard?: number;
}

/** The bindings a backup of account database `shard` reads and writes: that database as DB, and the bucket. */
export function backupSource(env: Env, shard: number): Bindings {
  const d1 = shardDatabases(env)[shard];
  if (!d1) throw new JobFailure(`Database ${shard} is not bound to this Worker.`);
  return { DB: d1, BACKUPS: env.BACKUPS };
}

export interface BackupPlan {
  schemaVersion: string | null;
  tables: { name: string; sql: string; indexes: string[]; rows: number }[];
  total: number;
}

const partKey = (id: string, table: string, part: number) => backupKey(id, `parts/${table}/${String(part).padStart(6, "0")}.ndjson.gz`);

/**
 * Records a backup of account database `shard` (in progress) and starts it as a durable job; answers at once. Null
 * when a backup job is already running (nothing is recorded then): one backup at a time, whichever its database.
 */
export async function startBackup(
  env: Pick<Env, "BACKUP_WORKFLOW">,
  db: Db,
  type: Exclude<BackupType, "safety">,
  startedBy: string | null,
  options: { rowsPerPart?: number; shard?: number } = {},
  now = Date.now(),
): Promise<{ backup: Backup; jobId: string } | null> {
  const id = backupId(now);
  const shard = options.shard ?? HOME_SHARD;
  const job = await startDurableJob<BackupParams>(
    db,
    env.BACKUP_WORKFLOW,
    { kind: "backup", startedBy, subject: id, step: "Waiting to start" },
    { backupId: id, ...options, shard },
    now,
    // The backup's row goes in before the instance can run: its steps update it.
    async () => {
      await db.insert(backups).values({ id, type, status: "in_progress", startedAt: now, shard });
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
 * retried part overwrites its object. Returns the rows written, the last rowid, whether rows may follow, and the part's
 * file as the manifest lists it (rows, bytes and SHA-256 of its lines, stored size), or null for an empty part after
 * the first (nothing is written).
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
): Promise<{ rows: number; last: number; more: boolean; file: TableFile | null }> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let rows = 0;
  let last = after;
  let more = false;
  // Pages of 500, the last one cut so that the part holds rowsPerPart rows exactly (a drill's or restore's step).
  while (rows < rowsPerPart) {
    const { value: page } = await tablePages(env.DB, table, last, owner, Math.min(500, rowsPerPart - rows)).next();
    if (!page) {
      more = false;
      break;
    }
    chunks.push(page.bytes);
    rows += page.rows;
    last = page.last;
    more = page.full;
    if (!page.full) break;
  }
  // A table whose rows fill its last part exactly ends with a part that finds none: only a table's first part is ever
  // empty (a table without rows), so that one is not written.
  if (rows === 0 && part > 1) return { rows, last, more: false, file: null };
  const text = new Blob(chunks);
  const sha256 = hex(await crypto.subtle.digest("SHA-256", await text.arrayBuffer()));
  const gzipped = await new Response(text.stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer();
  const key = partKey(id, table, part);
  await env.BACKUPS.put(key, gzipped, { httpMetadata: { contentType: "application/gzip" } });
  return { rows, last, more, file: { key, rows, bytes: text.size, sha256, stored: gzipped.byteLength } };
}

/** A table's entry in the manifest from the parts its steps wrote, in order (TableManifest.parts). */
export async function partedTable(id: string, table: Omit<BackupPlan["tables"][number], "rows">, parts: TableFile[]): Promise<TableManifest> {
  const sum = (pick: (f: TableFile) => number) => parts.reduce((n, f) => n + pick(f), 0);
  return {
    table: table.name,
    create: table.sql,
    indexes: table.indexes,
    rows: sum((f) => f.rows),
    bytes: sum((f) => f.bytes),
    sha256: await partsDigest(parts),
    stored: sum((f) => f.stored),
    key: backupKey(id, `parts/${table.name}/`),
    parts,
  };
}

/** The last step: the manifest and the backup row. */
export async function finishBackup(env: Bindings, db: Db, id: string, plan: BackupPlan, tables: TableManifest[]): Promise<Backup> {
  const row = (await db.select().from(backups).where(eq(backups.id, id)).get())!;
  const done = await completeBackup(
    env,
    db,
    { id, type: row.type, startedAt: row.startedAt, userId: null, schemaVersion: plan.schemaVersion, shard: row.shard },
    tables,
  );
  return done;
}

export { failBackup };
