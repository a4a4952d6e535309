import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { inD1Step } from "~/lib/d1-limits";
import { backupRestores, backups, restoreRows, users, type BackupRestore } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { RESTORE_TABLES } from "~/modules/data/tables";
import { createBackup, quoteName, readManifest, type TableManifest } from "./backup.server";
import { loadOrder } from "./drill.server";
import { readTableFile } from "./table-file.server";

// Restoring one agent's account from a backup (ADR 0029): "I wiped my contacts". The agent's rows of every
// restorable table (RESTORE_TABLES) are read from the backup's files, each whole file checked against the
// manifest as it streams, and staged as JSON in restore_rows. A safety copy of the agent's current rows is then
// taken (a backup of type "safety", restorable the same way: the undo). Last, one D1 batch — one transaction —
// deletes the agent's rows and inserts the staged ones, children deleted first and parents inserted first. Until
// that batch commits the agent sees the old rows; after it, the restored ones; never a mix. A file that fails its
// checksum stops the restore before anything of the agent's changes.

type Bindings = Pick<Env, "DB" | "BACKUPS">;

/** The spec's confirmation (section 9). */
export const RESTORE_CONFIRM = "Are you sure you want to restore this backup? This will overwrite current data.";
/** Staged rows per statement (4 values each; D1 binds at most 100) and statements per batch. */
const ROWS_PER_INSERT = 25;
const INSERTS_PER_BATCH = 20;

class RestoreError extends Error {}

interface Column {
  name: string;
  type: string;
  pk: number;
}

/** The live table's columns, without a rowid alias (an INTEGER PRIMARY KEY: SQLite gives restored rows new ones). */
async function liveColumns(d1: D1Database, table: string): Promise<string[]> {
  const { results } = await d1.prepare("select name, type, pk from pragma_table_info(?)").bind(table).all<Column>();
  const keys = results.filter((c) => c.pk > 0);
  return results.filter((c) => !(keys.length === 1 && c.pk === 1 && c.type.toUpperCase() === "INTEGER")).map((c) => c.name);
}

interface Staged {
  owner: string;
  rows: number;
  columns: Set<string>;
}

/** Streams the agent's rows of one table's file into staging; returns how many and the columns the file has. */
async function stageTable(env: Bindings, restoreId: string, entry: TableManifest, owner: string, userId: string): Promise<Staged> {
  const columns = new Set<string>();
  let seq = 0;
  let pending: string[] = [];
  let statements: D1PreparedStatement[] = [];
  const insertPending = () => {
    if (pending.length === 0) return;
    const values = pending.flatMap((data, i) => [restoreId, entry.table, seq - pending.length + i + 1, data]);
    statements.push(
      env.DB.prepare(`insert into restore_rows (restore_id, tbl, seq, data) values ${pending.map(() => "(?, ?, ?, ?)").join(", ")}`).bind(...values),
    );
    pending = [];
  };
  const flush = async () => {
    insertPending();
    if (statements.length > 0) await env.DB.batch(statements);
    statements = [];
  };
  await readTableFile(env.BACKUPS, entry, async (row) => {
    if (columns.size === 0) for (const key of Object.keys(row)) columns.add(key);
    if (row[owner] !== userId) return;
    seq += 1;
    pending.push(JSON.stringify(row));
    if (pending.length >= ROWS_PER_INSERT) insertPending();
    if (statements.length >= INSERTS_PER_BATCH) await flush();
  });
  await flush();
  return { owner, rows: seq, columns };
}

/**
 * Keys from a restored row to a row of another restored table. One is kept only when that row is the agent's (theirs
 * restored just before it: parents go in first); a key to a row that is a teammate's now (their work handed over since
 * the backup) comes back null, and a row that cannot be without its key (a stage stay of a deal handed over) stays out.
 */
const KEYS: Readonly<Record<string, readonly { column: string; parent: string; required?: true }[]>> = {
  deals: [{ column: "contact_id", parent: "contacts" }],
  crm_tasks: [
    { column: "contact_id", parent: "contacts" },
    { column: "deal_id", parent: "deals" },
  ],
  crm_activities: [
    { column: "contact_id", parent: "contacts" },
    { column: "deal_id", parent: "deals" },
    { column: "task_id", parent: "crm_tasks" },
  ],
  deal_stage_history: [{ column: "deal_id", parent: "deals", required: true }],
  trash_rows: [{ column: "trash_id", parent: "trash_items", required: true }],
};
/** Tables whose ids are unique across accounts: a backed-up row whose id is another agent's now stays theirs. */
const SHARED_IDS = new Set(["contacts", "deals", "crm_tasks", "crm_activities", "trash_items"]);

/** The statements that swap the staged rows in: one batch, so one transaction. */
async function swapStatements(d1: D1Database, restoreId: string, userId: string, staged: Map<string, Staged>, order: string[]) {
  const statements: D1PreparedStatement[] = [d1.prepare("pragma defer_foreign_keys = on")];
  for (const table of [...order].reverse())
    statements.push(d1.prepare(`delete from ${quoteName(table)} where ${quoteName(staged.get(table)!.owner)} = ?`).bind(userId));
  const path = (c: string) => `'$.${JSON.stringify(c).replace(/'/g, "''")}'`;
  for (const table of order) {
    const { columns, rows } = staged.get(table)!;
    if (rows === 0) continue;
    // Columns both the backup and the live table have: one added since takes its default.
    const names = (await liveColumns(d1, table)).filter((c) => columns.has(c));
    const keys = new Map((KEYS[table] ?? []).filter((k) => columns.has(k.column)).map((k) => [k.column, k]));
    const theirs = (parent: string, column: string) =>
      `(select p.id from ${quoteName(parent)} p where p.id = json_extract(data, ${path(column)}) and p.user_id = ?3)`;
    const select = names.map((c) => (keys.has(c) ? theirs(keys.get(c)!.parent, c) : `json_extract(data, ${path(c)})`)).join(", ");
    const where = [
      "restore_id = ?1 and tbl = ?2",
      ...[...keys.values()].filter((k) => k.required).map((k) => `${theirs(k.parent, k.column)} is not null`),
      ...(SHARED_IDS.has(table) ? [`not exists (select 1 from ${quoteName(table)} x where x.id = json_extract(data, '$.id'))`] : []),
    ].join(" and ");
    // Rows a trigger made while the tables before went in (a deal's insert opens its stage history) go first:
    // the backup's own rows are the truth.
    statements.push(d1.prepare(`delete from ${quoteName(table)} where ${quoteName(staged.get(table)!.owner)} = ?`).bind(userId));
    const insert = `insert into ${quoteName(table)} (${names.map(quoteName).join(", ")}) select ${select} from restore_rows where ${where} order by seq`;
    statements.push(d1.prepare(insert).bind(restoreId, table, ...(insert.includes("?3") ? [userId] : [])));
  }
  // The deals' and activities' insert triggers marked the contacts' lead scores stale; the backup's scores are the
  // scores of exactly these rows, so their times come back as they were (ADR 0029: every column back as it was).
  if (staged.get("contacts")?.rows) {
    statements.push(
      d1
        .prepare(
          `update contacts set lead_scored_at = r.scored from (select json_extract(data, '$.id') as id, json_extract(data, '$.lead_scored_at') as scored
           from restore_rows where restore_id = ?1 and tbl = 'contacts') r where contacts.id = r.id and contacts.user_id = ?2`,
        )
        .bind(restoreId, userId),
    );
  }
  statements.push(d1.prepare("delete from restore_rows where restore_id = ?").bind(restoreId));
  return statements;
}

export interface RestoreRequest {
  backupId: string;
  userId: string;
  requestedBy: string | null;
}

/**
 * Replaces one agent's rows with a backup's, after a safety copy of their current rows. Returns the log row,
 * completed or failed with the reason; a failed restore has changed nothing of the agent's.
 */
export function restoreAgent(env: Bindings, db: Db, request: RestoreRequest, now = Date.now()): Promise<BackupRestore> {
  // Stages, copies and swaps every row of the agent in one invocation, past D1's 1,000 queries for a large account: a
  // named step the limits harness lets through until the restore is a durable job (ADR 0055).
  return inD1Step(env.DB, "agent-restore", () => restore(env, db, request, now));
}

async function restore(env: Bindings, db: Db, request: RestoreRequest, now: number): Promise<BackupRestore> {
  const id = crypto.randomUUID();
  const agent = await db.select({ id: users.id }).from(users).where(eq(users.id, request.userId)).get();
  await db
    .insert(backupRestores)
    .values({ id, backupId: request.backupId, userId: agent?.id ?? null, requestedBy: request.requestedBy, startedAt: now });
  let safetyBackupId: string | null = null;
  try {
    if (!agent) throw new RestoreError("That agent's account no longer exists.");
    const backup = await db.select().from(backups).where(eq(backups.id, request.backupId)).get();
    if (!backup || backup.status !== "completed") throw new RestoreError("That backup does not exist or did not complete.");
    if (backup.userId !== null && backup.userId !== request.userId) throw new RestoreError("That safety copy holds another agent's rows.");
    const manifest = await readManifest(env.BACKUPS, request.backupId);
    if (!manifest) throw new RestoreError("The backup's manifest is missing or unreadable.");

    // Tables in both the backup and the restorable set; a table the backup predates is left as it is.
    const owners = new Map(RESTORE_TABLES.map((t) => [t.table, t.owner]));
    const entries = manifest.tables.filter((t) => owners.has(t.table));
    if (entries.length === 0) throw new RestoreError("The backup holds none of the tables an agent's restore replaces.");
    const order = loadOrder(entries);
    const byName = new Map(entries.map((t) => [t.table, t]));
    const staged = new Map<string, Staged>();
    const started = Date.now();
    let rows = 0;
    for (const table of order) {
      const result = await stageTable(env, id, byName.get(table)!, owners.get(table)!, request.userId);
      staged.set(table, result);
      rows += result.rows;
    }

    const safety = await createBackup(env, db, "safety", Date.now(), {
      userId: request.userId,
      tables: order.map((table) => ({ table, owner: owners.get(table)! })),
    });
    if (safety.status !== "completed")
      throw new RestoreError(`The safety copy of the agent's current rows failed (${safety.errorMessage ?? "unknown"}), so nothing was restored.`);
    safetyBackupId = safety.id;

    const swapping = Date.now();
    await env.DB.batch(await swapStatements(env.DB, id, request.userId, staged, order));
    const ms = { stage: safety.startedAt - started, safety: swapping - safety.startedAt, swap: Date.now() - swapping };
    console.log(JSON.stringify({ event: "agent_restore", id, backupId: request.backupId, rows, ms }));
    const [done] = await db
      .update(backupRestores)
      .set({ status: "completed", rowCount: rows, safetyBackupId, finishedAt: Date.now() })
      .where(eq(backupRestores.id, id))
      .returning();
    return done!;
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    if (!(error instanceof RestoreError)) console.error(JSON.stringify({ event: "agent_restore_failed", id, backupId: request.backupId, message }));
    await db.delete(restoreRows).where(eq(restoreRows.restoreId, id));
    const [failed] = await db
      .update(backupRestores)
      .set({ status: "failed", safetyBackupId, errorMessage: message, finishedAt: Date.now() })
      .where(eq(backupRestores.id, id))
      .returning();
    return failed!;
  }
}

/** Newest first, for the Backup tab, with the agent's e-mail (null once the account is purged). */
export function listRestores(db: Db, limit = 20) {
  return db
    .select({ restore: backupRestores, email: users.email })
    .from(backupRestores)
    .leftJoin(users, eq(users.id, backupRestores.userId))
    .orderBy(desc(backupRestores.startedAt))
    .limit(limit);
}

/** A restore still "in progress" after this long was cut off (a Worker stopped mid-way): its staging is dropped. */
const STALE_MS = 3_600_000;

/**
 * Marks restores cut off part-way as failed and drops their staged rows (the cron). The agent's rows were never
 * touched: only the last, single batch changes them.
 */
export async function abandonStaleRestores(db: Db, now = Date.now()): Promise<number> {
  const stale = await db
    .update(backupRestores)
    .set({
      status: "failed",
      errorMessage: "Stopped before it finished; nothing of the agent's was changed.",
      finishedAt: now,
    })
    .where(and(eq(backupRestores.status, "in_progress"), lt(backupRestores.startedAt, now - STALE_MS)))
    .returning({ id: backupRestores.id });
  for (const { id } of stale) await db.delete(restoreRows).where(eq(restoreRows.restoreId, id));
  return stale.length;
}
