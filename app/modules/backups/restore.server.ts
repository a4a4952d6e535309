import { and, desc, eq, gt, inArray, lt, notInArray } from "drizzle-orm";
import { createDb, type Db } from "~/db/client.server";
import { backupRestores, backups, durableJobs, restoreRows, users, type BackupRestore, type DurableJob } from "~/db/schema";
import { JobFailure, messageOf } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { HOME_SHARD, homeDatabase, shardDatabases } from "~/lib/shards.server";
import { RESTORE_TABLES } from "~/modules/data/tables";
import { startDurableJob, type JobParams } from "~/modules/jobs/durable-jobs.server";
import { newestAcross } from "~/modules/shards/databases.server";
import { BACKUP_ROWS_PER_PART, type BackupPlan } from "./backup-job.server";
import { backupId, backupSchema, completeBackup, failBackup, quoteName, readManifest, schemaVersion, type TableManifest } from "./backup.server";
import { loadOrder } from "./drill.server";
import { jsonArrays } from "./json-arrays";
import { fileSlices, readTableSlice, type FileSlice } from "./table-file.server";

// Restoring one agent's account from a backup (ADR 0029): "I wiped my contacts". The agent's rows of every
// restorable table (RESTORE_TABLES) are read from the backup's files, each whole file checked against the
// manifest as it streams, and staged as JSON in restore_rows. A safety copy of the agent's current rows is then
// taken (a backup of type "safety", restorable the same way: the undo). Last, one D1 batch — one transaction —
// deletes the agent's rows and inserts the staged ones, children deleted first and parents inserted first. Until
// that batch commits the agent sees the old rows; after it, the restored ones; never a mix. A file that fails its
// checksum stops the restore before anything of the agent's changes.
// It runs as a durable job (ADR 0058): a step checks the backup, one step stages each part of a table
// (RESTORE_ROWS_PER_STEP lines at most, never across two of the backup's files), the safety copy is written a part at a time like a backup, and a last step swaps.

type Bindings = Pick<Env, "DB" | "BACKUPS">;

/** The spec's confirmation (section 9). */
export const RESTORE_CONFIRM = "Are you sure you want to restore this backup? This will overwrite current data.";
/** Rows of a table read per staging step by default (a backup job's part, so one step per part): a few statements, far inside 1,000 queries. */
export const RESTORE_ROWS_PER_STEP = BACKUP_ROWS_PER_PART;

interface Column {
  name: string;
  type: string;
  pk: number;
}

/** The live table's columns, without a rowid alias (an INTEGER PRIMARY KEY: SQLite gives restored rows new ones). */
export async function liveColumns(d1: D1Database, table: string): Promise<string[]> {
  const { results } = await d1.prepare("select name, type, pk from pragma_table_info(?)").bind(table).all<Column>();
  const keys = results.filter((c) => c.pk > 0);
  return results.filter((c) => !(keys.length === 1 && c.pk === 1 && c.type.toUpperCase() === "INTEGER")).map((c) => c.name);
}

/** What the swap needs of one staged table: its owner column, how many rows were staged, the columns its file has. */
export interface Staged {
  table: string;
  owner: string;
  rows: number;
  columns: string[];
}

/** One part of a table to stage: a slice of one of its files (fileSlices). */
export interface StagePart extends FileSlice {
  table: string;
  owner: string;
}

/**
 * Stages the agent's rows of one part of a table in restore_rows, in one D1 batch that first deletes what a cut-off try
 * of the same part left, so a retried part never stages twice. The part's whole file is read and checked against its
 * manifest (rows, bytes, SHA-256) every time: a changed file stages nothing. Each row's seq is its line in the table,
 * so the swap inserts the rows in the backup's order. Returns the rows staged and the columns the part's rows have
 * (none for a table without rows).
 */
export async function stageRestorePart(
  env: Bindings,
  restore: { id: string; backupId: string; userId: string },
  part: StagePart,
): Promise<{ rows: number; columns: string[] }> {
  const manifest = await readManifest(env.BACKUPS, restore.backupId);
  const entry = manifest?.tables.find((t) => t.table === part.table);
  if (!entry) throw new JobFailure(`${part.table}: the table is not in the backup's manifest.`);
  const rows: string[] = [];
  let columns: string[] = [];
  try {
    await readTableSlice(env.BACKUPS, entry, part, (row, index) => {
      if (columns.length === 0) columns = Object.keys(row);
      if (row[part.owner] === restore.userId) rows.push(JSON.stringify([part.line + index - part.from + 1, JSON.stringify(row)]));
    });
  } catch (error) {
    throw new JobFailure(messageOf(error));
  }
  const statements = [
    env.DB.prepare("delete from restore_rows where restore_id = ? and tbl = ? and seq > ? and seq <= ?").bind(
      restore.id,
      part.table,
      part.line,
      part.line + part.count,
    ),
  ];
  const insert =
    "insert into restore_rows (restore_id, tbl, seq, data) select ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?)";
  for (const array of jsonArrays(rows)) statements.push(env.DB.prepare(insert).bind(restore.id, part.table, array));
  await env.DB.batch(statements);
  return { rows: rows.length, columns };
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
async function swapStatements(d1: D1Database, restoreId: string, userId: string, staged: Map<string, Staged>, order: readonly string[]) {
  const statements: D1PreparedStatement[] = [d1.prepare("pragma defer_foreign_keys = on")];
  for (const table of [...order].reverse())
    statements.push(d1.prepare(`delete from ${quoteName(table)} where ${quoteName(staged.get(table)!.owner)} = ?`).bind(userId));
  const path = (c: string) => `'$.${JSON.stringify(c).replace(/'/g, "''")}'`;
  for (const table of order) {
    const { rows } = staged.get(table)!;
    const columns = new Set(staged.get(table)!.columns);
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
  /** The account database the agent's rows live in (ADR 0060); the home database when absent. */
  shard?: number;
}

/** The agent's restore as a durable job (the workflow in workers/workflows/agent-restore.workflow.ts runs it). */
export interface AgentRestoreParams extends JobParams {
  restoreId: string;
  backupId: string;
  userId: string;
  /** The agent's account database (ADR 0060): the restore's row, its staging, its safety copy and its swap live there. */
  shard?: number;
  /** Rows of a file per staging step; RESTORE_ROWS_PER_STEP unless a test asks for smaller steps. */
  rowsPerStep?: number;
  /** Rows per part of the safety copy; BACKUP_ROWS_PER_PART unless a test asks for smaller steps. */
  rowsPerPart?: number;
}

/**
 * Records an agent's restore (in progress) and starts it as a durable job; answers at once. Null when an agent's
 * restore is already running (nothing is recorded then).
 */
export async function startAgentRestore(
  env: Pick<Env, "AGENT_RESTORE_WORKFLOW">,
  db: Db,
  request: RestoreRequest,
  options: { rowsPerStep?: number; rowsPerPart?: number } = {},
  now = Date.now(),
  /** The agent's account database (request.shard's); the home database `db` when absent. */
  account: Db = db,
): Promise<{ restore: BackupRestore; job: DurableJob } | null> {
  const restoreId = crypto.randomUUID();
  const agent = await account.select({ id: users.id }).from(users).where(eq(users.id, request.userId)).get();
  const shard = request.shard ?? HOME_SHARD;
  const job = await startDurableJob<AgentRestoreParams>(
    db,
    env.AGENT_RESTORE_WORKFLOW,
    { kind: "agent-restore", startedBy: request.requestedBy, subject: restoreId, step: "Waiting to start" },
    { restoreId, backupId: request.backupId, userId: request.userId, ...(shard === HOME_SHARD ? {} : { shard }), ...options },
    now,
    // The restore's row goes in (in the agent's database) before the instance can run: its steps update it.
    async () => {
      await account.insert(backupRestores).values({
        id: restoreId,
        backupId: request.backupId,
        userId: agent?.id ?? null,
        // The admin lives at home: in another database the row cannot name them (its job's row at home does).
        requestedBy: shard === HOME_SHARD ? request.requestedBy : null,
        startedAt: now,
      });
    },
  );
  if (!job) return null;
  return { restore: (await account.select().from(backupRestores).where(eq(backupRestores.id, restoreId)).get())!, job };
}

/**
 * What a restore of an agent in account database `shard` works on (ADR 0060): that database as DB (the restore's row,
 * its staging, the safety copy's row and the swap) with the bucket, and a Db over it.
 */
export function restoreAccount(env: Env, shard = HOME_SHARD): { env: Bindings; db: Db } {
  const d1 = shardDatabases(env)[shard];
  if (!d1) throw new JobFailure(`Database ${shard} is not bound to this Worker.`);
  return { env: { DB: d1, BACKUPS: env.BACKUPS }, db: shard === HOME_SHARD ? createDb(homeDatabase(env)) : createDb(d1) };
}

/** What a restore stages and swaps, table by table in load order (parents first), with each table's rows and steps. */
export interface RestorePlan {
  tables: { table: string; owner: string; rows: number; slices: FileSlice[] }[];
  total: number;
}

/**
 * The first step: the agent, the backup and its manifest checked; a JobFailure (no retry mends it) otherwise. `db` is the
 * agent's database (its users, its safety copies), `home` the home database (every whole backup's row).
 */
export async function checkRestore(
  env: Bindings,
  db: Db,
  params: Pick<AgentRestoreParams, "backupId" | "userId">,
  rowsPerStep = RESTORE_ROWS_PER_STEP,
  home: Db = db,
): Promise<RestorePlan> {
  const agent = await db.select({ id: users.id }).from(users).where(eq(users.id, params.userId)).get();
  if (!agent) throw new JobFailure("That agent's account no longer exists.");
  const backup =
    (await home.select().from(backups).where(eq(backups.id, params.backupId)).get()) ??
    (home === db ? undefined : await db.select().from(backups).where(eq(backups.id, params.backupId)).get());
  if (!backup || backup.status !== "completed") throw new JobFailure("That backup does not exist or did not complete.");
  if (backup.userId !== null && backup.userId !== params.userId) throw new JobFailure("That safety copy holds another agent's rows.");
  const manifest = await readManifest(env.BACKUPS, params.backupId);
  if (!manifest) throw new JobFailure("The backup's manifest is missing or unreadable.");
  // Tables in both the backup and the restorable set; a table the backup predates is left as it is.
  const owners = new Map(RESTORE_TABLES.map((t) => [t.table, t.owner]));
  const entries = manifest.tables.filter((t) => owners.has(t.table));
  if (entries.length === 0) throw new JobFailure("The backup holds none of the tables an agent's restore replaces.");
  const byName = new Map(entries.map((t) => [t.table, t]));
  const tables = loadOrder(entries).map((table) => ({
    table,
    owner: owners.get(table)!,
    rows: byName.get(table)!.rows,
    slices: fileSlices(byName.get(table)!, rowsPerStep),
  }));
  return { tables, total: tables.reduce((sum, t) => sum + t.rows, 0) };
}

/** The safety copy's first step: its backup row (type "safety", the agent's) and the definitions of the tables it copies. */
export async function planSafetyCopy(
  env: Bindings,
  db: Db,
  userId: string,
  plan: RestorePlan,
  now = Date.now(),
  shard = HOME_SHARD,
): Promise<SafetyPlan> {
  const id = backupId(now);
  await db.insert(backups).values({ id, type: "safety", status: "in_progress", startedAt: now, userId, shard });
  const restored = new Set(plan.tables.map((t) => t.table));
  const tables = (await backupSchema(env.DB)).filter((t) => restored.has(t.name));
  return { backupId: id, shard, startedAt: now, schemaVersion: await schemaVersion(env.DB), tables };
}

export interface SafetyPlan {
  backupId: string;
  shard?: number;
  startedAt: number;
  schemaVersion: string | null;
  tables: Omit<BackupPlan["tables"][number], "rows">[];
}

/** The safety copy's last step: its manifest and backup row (completed), and the restore pointed at it. */
export async function finishSafetyCopy(env: Bindings, db: Db, restoreId: string, userId: string, safety: SafetyPlan, tables: TableManifest[]) {
  const done = await completeBackup(
    env,
    db,
    { id: safety.backupId, type: "safety", startedAt: safety.startedAt, userId, schemaVersion: safety.schemaVersion, shard: safety.shard },
    tables,
  );
  await db.update(backupRestores).set({ safetyBackupId: done.id }).where(eq(backupRestores.id, restoreId));
  return done.id;
}

/**
 * The last step: one D1 batch, so one transaction, deletes the agent's rows and inserts the staged ones (children
 * deleted first, parents inserted first), drops the staging and marks the restore completed. Until it commits the
 * agent sees the old rows; after it, the restored ones. A retry after it committed finds the restore completed and
 * changes nothing; a restore no longer in progress (the cron gave it up) is not swapped in.
 */
export async function swapRestore(
  env: Bindings,
  db: Db,
  params: Pick<AgentRestoreParams, "restoreId" | "userId">,
  staged: Staged[],
): Promise<BackupRestore> {
  const restore = (await db.select().from(backupRestores).where(eq(backupRestores.id, params.restoreId)).get())!;
  if (restore.status === "completed") return restore;
  if (restore.status !== "in_progress") throw new JobFailure("The restore was stopped before its rows were swapped in.");
  const rows = staged.reduce((sum, t) => sum + t.rows, 0);
  const statements = await swapStatements(
    env.DB,
    params.restoreId,
    params.userId,
    new Map(staged.map((t) => [t.table, t])),
    staged.map((t) => t.table),
  );
  statements.push(
    env.DB.prepare("update backup_restores set status = 'completed', row_count = ?, finished_at = ? where id = ? and status = 'in_progress'").bind(
      rows,
      Date.now(),
      params.restoreId,
    ),
  );
  const swapping = Date.now();
  await env.DB.batch(statements);
  console.log(JSON.stringify({ event: "agent_restore", id: params.restoreId, rows, statements: statements.length, swapMs: Date.now() - swapping }));
  return (await db.select().from(backupRestores).where(eq(backupRestores.id, params.restoreId)).get())!;
}

/** After any failure: the staging dropped, a safety copy cut off part-way removed, the restore marked failed. */
export async function failRestore(env: Bindings, db: Db, restoreId: string, safetyBackupId: string | null, message: string): Promise<void> {
  console.error(JSON.stringify({ event: "agent_restore_failed", id: restoreId, message }));
  await db.delete(restoreRows).where(eq(restoreRows.restoreId, restoreId));
  const safety = safetyBackupId ? await db.select().from(backups).where(eq(backups.id, safetyBackupId)).get() : undefined;
  if (safety?.status === "in_progress") await failBackup(env, db, safety.id, message);
  await db
    .update(backupRestores)
    .set({ status: "failed", errorMessage: message, finishedAt: Date.now() })
    .where(and(eq(backupRestores.id, restoreId), eq(backupRestores.status, "in_progress")));
}

/** A restore's one-line result, for the job. */
export const restoreSummary = (rows: number) => `${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"} restored.`;

/**
 * Newest first over every account database (each restore lives in its agent's, ADR 0060), for the Backup tab, with the
 * agent's e-mail (null once the account is purged).
 */
export function listRestores(databases: readonly Db[], limit = 20) {
  return newestAcross(
    databases,
    (db) =>
      db
        .select({ restore: backupRestores, email: users.email })
        .from(backupRestores)
        .leftJoin(users, eq(users.id, backupRestores.userId))
        .orderBy(desc(backupRestores.startedAt))
        .limit(limit),
    (r) => r.restore.startedAt,
    limit,
  );
}

/** A durable job's row still queued or running after a day was lost (as the job layer counts it). */
const JOB_LOST_MS = 24 * 3_600_000;

/** A restore still "in progress" after this long was cut off (a Worker stopped mid-way): its staging is dropped. */
const STALE_MS = 3_600_000;

/**
 * Marks restores cut off part-way as failed and drops their staged rows (the cron), in every account database: a
 * restore lives in its agent's, its durable job at home (`home`). The agent's rows were never touched: only the last,
 * single batch changes them.
 */
export async function abandonStaleRestores(home: Db, databases: readonly Db[], now = Date.now()): Promise<number> {
  // A restore whose durable job still runs is not cut off: its steps may take longer than an hour. A job's row left
  // running for a day was lost (the job layer's own rule): its restore is given up.
  const running = (
    await home
      .select({ subject: durableJobs.subject })
      .from(durableJobs)
      .where(
        and(eq(durableJobs.kind, "agent-restore"), inArray(durableJobs.status, ["queued", "running"]), gt(durableJobs.createdAt, now - JOB_LOST_MS)),
      )
  ).flatMap((j) => (j.subject ? [j.subject] : []));
  let abandoned = 0;
  for (const db of databases) {
    const stale = await db
      .update(backupRestores)
      .set({
        status: "failed",
        errorMessage: "Stopped before it finished; nothing of the agent's was changed.",
        finishedAt: now,
      })
      .where(
        and(
          eq(backupRestores.status, "in_progress"),
          lt(backupRestores.startedAt, now - STALE_MS),
          ...(running.length > 0 ? [notInArray(backupRestores.id, running)] : []),
        ),
      )
      .returning({ id: backupRestores.id });
    for (const { id } of stale) await db.delete(restoreRows).where(eq(restoreRows.restoreId, id));
    abandoned += stale.length;
  }
  return abandoned;
}
