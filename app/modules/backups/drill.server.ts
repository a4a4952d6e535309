import { and, desc, eq, gte, isNull, lte } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { inD1Step } from "~/lib/d1-limits";
import { backups } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { hex, quoteName, readManifest, type BackupManifest, type TableManifest } from "./backup.server";
import { readTableFile } from "./table-file.server";

// The restore drill (ADR 0027): a backup is loaded, in full, into a second and otherwise unused D1
// database (DB_RESTORE_DRILL), each table's file checked against its manifest entry as it streams in (row count
// and SHA-256), and then every table read back from the scratch database and checked again. A backup that
// passes has been shown to restore, not assumed to. The weekly cron drills the newest backup.

type Bindings = Pick<Env, "BACKUPS" | "DB_RESTORE_DRILL">;
const PAGE = 500;
/** Statements per D1 batch while loading: one row each (D1 binds at most 100 values per statement). */
const BATCH = 50;
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

async function emptyDatabase(target: D1Database): Promise<void> {
  const { results } = await target
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '_cf_%' and name not like 'd1_%'")
    .all<{ name: string }>();
  if (results.length === 0) return;
  await target.batch([target.prepare("pragma defer_foreign_keys = on"), ...results.map((t) => target.prepare(`drop table if exists "${t.name}"`))]);
}

const line = (table: string, row: Record<string, unknown>) => `${JSON.stringify({ table, row })}\n`;

/** Streams one table's file into the scratch database; throws when its rows or checksum differ from the manifest. */
async function loadTable(env: Bindings, entry: TableManifest): Promise<void> {
  const target = env.DB_RESTORE_DRILL;
  let statements: D1PreparedStatement[] = [];
  const flush = async () => {
    if (statements.length === 0) return;
    await target.batch([target.prepare("pragma defer_foreign_keys = on"), ...statements]);
    statements = [];
  };
  await readTableFile(env.BACKUPS, entry, async (row) => {
    const columns = Object.keys(row);
    statements.push(
      target
        .prepare(`insert into "${entry.table}" (${columns.map(quoteName).join(", ")}) values (${columns.map(() => "?").join(", ")})`)
        .bind(...columns.map((c) => row[c] ?? null)),
    );
    if (statements.length >= BATCH) await flush();
  });
  await flush();
}

/** Reads a table back from the scratch database exactly as a backup writes it, and checks it against the manifest. */
async function verifyTable(target: D1Database, entry: TableManifest): Promise<void> {
  const hash = new (crypto as unknown as { DigestStream: typeof DigestStream }).DigestStream("SHA-256");
  const writer = hash.getWriter();
  const encoder = new TextEncoder();
  let rows = 0;
  let after = 0;
  for (;;) {
    const { results } = await target
      .prepare(`select rowid as __rowid, * from "${entry.table}" where rowid > ? order by rowid limit ${PAGE}`)
      .bind(after)
      .all<Record<string, unknown>>();
    if (results.length === 0) break;
    let text = "";
    for (const { __rowid, ...row } of results) {
      text += line(entry.table, row);
      after = __rowid as number;
    }
    rows += results.length;
    await writer.write(encoder.encode(text));
    if (results.length < PAGE) break;
  }
  await writer.close();
  const sha256 = hex(await hash.digest);
  if (rows !== entry.rows || sha256 !== entry.sha256)
    throw new Error(`${entry.table}: restored ${rows} of ${entry.rows} rows${sha256 === entry.sha256 ? "" : ", and they differ from the backup"}`);
}

async function drill(env: Bindings, manifest: BackupManifest): Promise<number> {
  const target = env.DB_RESTORE_DRILL;
  await emptyDatabase(target);
  await target.batch(manifest.tables.flatMap((t) => [t.create, ...t.indexes].map((sql) => target.prepare(sql))));
  const byName = new Map(manifest.tables.map((t) => [t.table, t]));
  for (const table of loadOrder(manifest.tables)) await loadTable(env, byName.get(table)!);
  for (const entry of manifest.tables) await verifyTable(target, entry);
  return manifest.tables.reduce((sum, t) => sum + t.rows, 0);
}

/**
 * Drills one completed backup and records the outcome on it (passed or failed, when, how long, why). The
 * scratch database is emptied first and left holding the restored copy until the next drill.
 */
export function runRestoreDrill(env: Bindings, db: Db, backupId: string): Promise<DrillResult> {
  // Loads the whole backup in one invocation, past D1's 1,000 queries on a large database: a named step the limits
  // harness lets through until the drill is a durable job (ADR 0055).
  return inD1Step(env.DB_RESTORE_DRILL, "restore-drill", () => drillAndRecord(env, db, backupId));
}

async function drillAndRecord(env: Bindings, db: Db, backupId: string): Promise<DrillResult> {
  const started = Date.now();
  let result: DrillResult;
  try {
    const manifest = await readManifest(env.BACKUPS, backupId);
    if (!manifest) throw new Error("The backup's manifest is missing or unreadable.");
    if (manifest.tables.some((t) => typeof t.create !== "string" || t.create === "" || !Array.isArray(t.indexes)))
      throw new Error("The backup predates table definitions in its manifest.");
    const rows = await drill(env, manifest);
    result = { backupId, ok: true, ms: Date.now() - started, error: null, rows };
  } catch (error) {
    result = {
      backupId,
      ok: false,
      ms: Date.now() - started,
      error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      rows: 0,
    };
    console.error(JSON.stringify({ event: "restore_drill_failed", backupId, error: result.error }));
  }
  await db
    .update(backups)
    .set({ drillStatus: result.ok ? "passed" : "failed", drillAt: Date.now(), drillMs: result.ms, drillError: result.error })
    .where(eq(backups.id, backupId));
  return result;
}

/** The backup the weekly drill takes: the newest completed one of the whole database (not a safety copy), when no backup was drilled in the last week. */
export async function drillDue(db: Db, now = Date.now()): Promise<string | null> {
  // A drill "in the future" (a clock that went back) does not count: it must not hold the next one off.
  const recent = await db
    .select({ id: backups.id })
    .from(backups)
    .where(and(gte(backups.drillAt, now - DRILL_EVERY_MS), lte(backups.drillAt, now)))
    .limit(1)
    .get();
  if (recent) return null;
  const newest = await db
    .select({ id: backups.id })
    .from(backups)
    .where(and(eq(backups.status, "completed"), isNull(backups.userId)))
    .orderBy(desc(backups.startedAt))
    .limit(1)
    .get();
  return newest?.id ?? null;
}
