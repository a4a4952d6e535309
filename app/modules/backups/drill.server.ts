import { and, desc, eq, gte, isNull, lte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { JobFailure, messageOf } from "~/lib/durable-step";
import { backups } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { startDurableJob, type JobParams } from "~/modules/jobs/durable-jobs.server";
import { BACKUP_ROWS_PER_PART } from "./backup-job.server";
import { quoteName, readManifest, type BackupManifest, type TableManifest } from "./backup.server";
import { jsonArrays } from "./json-arrays";
import { fileSlices, readTableSlice, type FileSlice } from "./table-file.server";

// The restore drill (ADR 0027): a backup is loaded, in full, into a second and otherwise unused D1
// database (DB_RESTORE_DRILL), each table's file checked against its manifest entry as it streams in (row count
// and SHA-256), and every row read back from the scratch database and checked again. A backup that
// passes has been shown to restore, not assumed to. The weekly cron drills the newest backup.
// It runs as a durable job (ADR 0058): a first step prepares the scratch database, then one step per part of a table
// (DRILL_ROWS_PER_STEP rows at most, never across two of the backup's files, so a step reads one part of the backup),
// each within D1's limits for one invocation, then a last one records the outcome.

type Bindings = Pick<Env, "BACKUPS" | "DB_RESTORE_DRILL">;
const DRILL_EVERY_MS = 7 * 86_400_000;

export interface DrillResult {
  backupId: string;
  ok: boolean;
  ms: number;
  error: string | null;
  rows: number;
}

/** Tables in an order that loads parents before children (their REFERENCES), whatever the names. */
export function loadOrder(tables: readonly Pick<TableManifest, "table" | "create">[]): string[] {
  const names = new Set(tables.map((t) => t.table));
  const parents = new Map(
    tables.map((t) => [
      t.table,
      new Set([...t.create.matchAll(/references\s+[`"[]?(\w+)[`"\]]?/gi)].map((m) => m[1]!).filter((p) => p !== t.table && names.has(p))),
    ]),
  );
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < tables.length) {
    const ready = tables.map((t) => t.table).filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    // A cycle (none in this schema) is loaded as it comes; deferred keys let the batch end consistent.
    const next =
      ready.length > 0
        ? ready
        : tables
            .map((t) => t.table)
            .filter((t) => !placed.has(t))
            .slice(0, 1);
    for (const t of next) {
      placed.add(t);
      ordered.push(t);
    }
  }
  return ordered;
}

/**
 * Drops every table of the scratch database, children before their parents. Dropping a parent first makes SQLite check,
 * row by row, its children's references to it (an implicit DELETE): after a drill of the bench's database that was one
 * 166 s statement reading 1.8 billion rows, past D1's 30 s; children first, no drop has a reference to check.
 */
async function emptyDatabase(target: D1Database): Promise<void> {
  const { results } = await target
    .prepare(
      "select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%'",
    )
    .all<{ name: string; sql: string | null }>();
  if (results.length === 0) return;
  const children = loadOrder(results.map((t) => ({ table: t.name, create: t.sql ?? "" }))).reverse();
  await target.batch([
    target.prepare("pragma defer_foreign_keys = on"),
    ...children.map((name) => target.prepare(`drop table if exists ${quoteName(name)}`)),
  ]);
}

const line = (table: string, row: Record<string, unknown>) => JSON.stringify({ table, row });

/** The backup's manifest, when it can be drilled; a JobFailure (no retry mends it) otherwise. */
async function drillManifest(env: Pick<Bindings, "BACKUPS">, backupId: string): Promise<BackupManifest> {
  const manifest = await readManifest(env.BACKUPS, backupId);
  if (!manifest) throw new JobFailure("The backup's manifest is missing or unreadable.");
  if (manifest.tables.some((t) => typeof t.create !== "string" || t.create === "" || !Array.isArray(t.indexes)))
    throw new JobFailure("The backup predates table definitions in its manifest.");
  return manifest;
}

/** What a drill loads, table by table in load order (parents first): each table's rows by the manifest, in its steps. */
export interface DrillPlan {
  tables: { table: string; rows: number; slices: FileSlice[] }[];
  total: number;
}

/** The drill's first step: the manifest read and checked, the scratch database emptied and its tables created. */
export async function prepareDrill(env: Bindings, backupId: string, rowsPerStep = DRILL_ROWS_PER_STEP): Promise<DrillPlan> {
  const manifest = await drillManifest(env, backupId);
  const target = env.DB_RESTORE_DRILL;
  await emptyDatabase(target);
  await target.batch(manifest.tables.flatMap((t) => [t.create, ...t.indexes].map((sql) => target.prepare(sql))));
  const byName = new Map(manifest.tables.map((t) => [t.table, t]));
  const tables = loadOrder(manifest.tables).map((table) => ({
    table,
    rows: byName.get(table)!.rows,
    slices: fileSlices(byName.get(table)!, rowsPerStep),
  }));
  return { tables, total: tables.reduce((sum, t) => sum + t.rows, 0) };
}

/** Rows of a table loaded per step by default (a backup job's part, so one step per part): a few dozen statements, far inside 1,000 queries. */
export const DRILL_ROWS_PER_STEP = BACKUP_ROWS_PER_PART;

/** One part of a table (a slice of one of its files: fileSlices); `after` is the last rowid the parts before loaded. */
export interface DrillPart extends FileSlice {
  table: string;
  after: number;
}

/**
 * Loads one part of a table into the scratch database and reads it back. The part's whole file is read and checked
 * against its manifest (rows, bytes, SHA-256) every time, so no part of a changed file loads; the part's rows go in as
 * one D1 batch (one transaction) that first deletes anything past `after`, so a retried part never loads twice. Read
 * back in rowid order, each row must be the very line the backup wrote: together with the file's own checksum, the
 * scratch table then holds exactly what the manifest describes. Returns how many rows went in and the last rowid.
 */
export async function loadDrillPart(env: Bindings, backupId: string, part: DrillPart): Promise<{ rows: number; last: number }> {
  const manifest = await drillManifest(env, backupId);
  const entry = manifest.tables.find((t) => t.table === part.table);
  if (!entry) throw new JobFailure(`${part.table}: the table is not in the backup's manifest.`);
  const rows: Record<string, unknown>[] = [];
  try {
    await readTableSlice(env.BACKUPS, entry, part, (row) => {
      rows.push(row);
    });
  } catch (error) {
    throw new JobFailure(messageOf(error));
  }
  const target = env.DB_RESTORE_DRILL;
  const table = quoteName(part.table);
  const statements = [target.prepare("pragma defer_foreign_keys = on"), target.prepare(`delete from ${table} where rowid > ?`).bind(part.after)];
  const columns = Object.keys(rows[0] ?? {});
  const insert = `insert into ${table} (${columns.map(quoteName).join(", ")}) select ${columns.map((_, i) => `json_extract(value, '$[${i}]')`).join(", ")} from json_each(?) order by key`;
  for (const array of jsonArrays(rows.map((row) => JSON.stringify(columns.map((c) => row[c] ?? null))))) {
    statements.push(target.prepare(insert).bind(array));
  }
  await target.batch(statements);

  const { results } = await target
    .prepare(`select rowid as __rowid, * from ${table} where rowid > ? order by rowid limit ?`)
    .bind(part.after, part.count + 1)
    .all<Record<string, unknown>>();
  let last = part.after;
  const differs =
    results.length !== rows.length ||
    results.some(({ __rowid, ...row }, i) => ((last = __rowid as number), line(part.table, row) !== line(part.table, rows[i]!)));
  if (differs)
    throw new JobFailure(`${part.table}: rows ${part.line + 1} to ${part.line + rows.length} of ${entry.rows} differ from the backup once restored`);
  return { rows: rows.length, last };
}

/** Records a drill's outcome on its backup (passed or failed, when, how long, why). */
export async function recordDrill(db: Db, result: DrillResult): Promise<void> {
  if (!result.ok) console.error(JSON.stringify({ event: "restore_drill_failed", backupId: result.backupId, error: result.error }));
  else console.log(JSON.stringify({ event: "restore_drill", id: result.backupId, ok: true, ms: result.ms, rows: result.rows }));
  await db
    .update(backups)
    .set({ drillStatus: result.ok ? "passed" : "failed", drillAt: Date.now(), drillMs: result.ms, drillError: result.error })
    .where(eq(backups.id, result.backupId));
}

/** A drill's one-line result, for the job and the toast. */
export const drillSummary = (rows: number, ms: number) => `${rows.toLocaleString("en-US")} rows restored and checked in ${(ms / 1000).toFixed(1)} s.`;

/** The drill of one backup as a durable job (the workflow in workers/workflows/restore-drill.workflow.ts runs it). */
export interface DrillParams extends JobParams {
  backupId: string;
  /** Rows loaded per step; DRILL_ROWS_PER_STEP unless a test asks for smaller steps. */
  rowsPerStep?: number;
}

/**
 * Starts a drill of `backupId` as a durable job and returns at once: null when a drill is already running (one scratch
 * database, one drill at a time).
 */
export function startRestoreDrill(
  env: Pick<Env, "RESTORE_DRILL_WORKFLOW">,
  db: Db,
  backupId: string,
  startedBy: string | null,
  options: { rowsPerStep?: number } = {},
) {
  return startDurableJob<DrillParams>(
    db,
    env.RESTORE_DRILL_WORKFLOW,
    { kind: "restore-drill", startedBy, subject: backupId, step: "Waiting to start" },
    { backupId, ...options },
  );
}

/**
 * The backup the weekly drill takes: for the first of the `databases` account databases (ADR 0060) none of whose backups
 * was drilled in the last week, its newest completed backup (not a safety copy). Null when every database's drill is
 * recent, or a database without a drill has no backup yet.
 */
export async function drillDue(db: Db, now = Date.now(), databases = 1): Promise<string | null> {
  for (let shard = 0; shard < databases; shard++) {
    // A drill "in the future" (a clock that went back) does not count: it must not hold the next one off.
    const recent = await db
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.shard, shard), gte(backups.drillAt, now - DRILL_EVERY_MS), lte(backups.drillAt, now)))
      .limit(1)
      .get();
    if (recent) continue;
    const newest = await db
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.shard, shard), eq(backups.status, "completed"), isNull(backups.userId)))
      .orderBy(desc(backups.startedAt))
      .limit(1)
      .get();
    if (newest) return newest.id;
  }
  return null;
}
