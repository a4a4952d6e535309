import { and, desc, eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { durableJobs, type DurableJob } from "~/db/schema";
import { JobFailure } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { homeDatabase, shardDatabases } from "~/lib/shards.server";
import { loadOrder } from "~/modules/backups/drill.server";
import { liveColumns } from "~/modules/backups/restore.server";
import { accountRowsEnd, deleteRowsOf } from "~/modules/data/account.server";
import { ACCOUNT_TABLES, TRIGGER_KEPT_TABLES } from "~/modules/data/tables";
import { failJob, finishJob, jobProgress, startDurableJob, type JobParams } from "~/modules/jobs/durable-jobs.server";

// A team joined across databases (ADR 0060): the team's database is its owner's, and a member lives in it. When the
// invitee's account is in another database, accepting starts this move as a durable job (ADR 0058,
// workers/workflows/account-move.workflow.ts): the agent's rows are copied to the team's database table by table
// (parents first), a chunk a statement, each chunk committed with the move's cursor in one batch there; then one step
// points the directory at the new database and adds the membership; then the old rows are deleted in chunks. Until
// the directory moves the account keeps reading its old database, read-only (workers/worker.ts refuses its writes).

/** Rows read per chunk, and the most JSON a chunk's one bound parameter may hold (D1: 100 KB a statement). */
const MOVE_ROWS_PER_CHUNK = 500;
const MOVE_JSON_BYTES = 90_000;
/** Chunks a copy step writes (about 3 queries each), and chunks a delete step deletes: far inside 1,000 queries. */
const MOVE_CHUNKS_PER_STEP = 40;
/** Parts a phase may take before the job gives up: a loop that stopped making progress, inside 10,000 steps a job. */
export const MOVE_MAX_PARTS = 2_000;

/** The move's parameters, as the workflow is started with them. */
export interface AccountMoveParams extends JobParams {
  userId: string;
  from: number;
  to: number;
  /** Smaller chunks and steps, for tests that cross many of them. */
  rowsPerChunk?: number;
  chunksPerStep?: number;
}

/**
 * One pass over a table of the old database: `copy` inserts the agent's rows; `settle` writes back, last, the contacts'
 * columns that the deals' and activities' insert triggers changed as they were copied (a lead score marked stale, the
 * last activity, the first response), so every figure reads as it did.
 */
interface MovePass {
  table: string;
  owner: string;
  kind: "copy" | "settle";
  columns: string[];
}

export interface MovePlan {
  passes: MovePass[];
  /** The agent's rows to copy, for the progress bar. */
  total: number;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
const path = (column: string) => `'$.${JSON.stringify(column).replace(/'/g, "''")}'`;

/** The columns the contacts' settle pass writes back, in this order (the last activity first: it marks a score stale). */
const SETTLED_CONTACT_COLUMNS = [["last_activity"], ["first_response_at", "answered_by"], ["lead_scored_at"]] as const;

/**
 * The agent's tables, as the copy goes: every table that holds an agent's rows (ACCOUNT_TABLES, which the export and
 * purge tests hold to the live schema), their data requests and the users row, without the tables the triggers write
 * from the others (TRIGGER_KEPT_TABLES) and the moves' own record.
 */
const MOVED_TABLES: readonly { table: string; owner: string }[] = [
  { table: "users", owner: "id" },
  ...ACCOUNT_TABLES,
  { table: "gdpr_requests", owner: "user_id" },
].filter(({ table }) => !TRIGGER_KEPT_TABLES.includes(table) && table !== "account_moves");

/**
 * What deleting an account's rows from a database goes through, children first, the rows the triggers wrote as they
 * went last; accountRowsEnd then takes the users row.
 */
const DELETED_TABLES: readonly { table: string; owner: string }[] = [
  ...ACCOUNT_TABLES.filter(({ table }) => table !== "account_moves" && !TRIGGER_KEPT_TABLES.includes(table)),
  { table: "gdpr_requests", owner: "user_id" },
  ...TRIGGER_KEPT_TABLES.map((table) => ({ table, owner: "user_id" })),
];

/**
 * Deletes up to MOVE_CHUNKS_PER_STEP chunks of the agent's rows from `d1`: "done" when none are left. Each try asks
 * every table once more (one statement each, none when empty), so its budget is that many statements over the chunks.
 */
const deleteAgentPart = (d1: D1Database, userId: string) => deleteRowsOf(d1, userId, DELETED_TABLES, DELETED_TABLES.length + MOVE_CHUNKS_PER_STEP);

/** The move's passes, parents first (by the live schema's REFERENCES), and how many of the agent's rows it copies. */
export async function planMove(env: Env, params: Pick<AccountMoveParams, "userId" | "from" | "to">): Promise<MovePlan> {
  const databases = shardDatabases(env);
  const from = databases[params.from]!;
  const to = databases[params.to]!;
  const { results } = await to
    .prepare('select name as "table", sql as "create" from sqlite_master where type = \'table\'')
    .all<{ table: string; create: string }>();
  const owners = new Map(MOVED_TABLES.map((t) => [t.table, t.owner]));
  const order = loadOrder(results.filter((t) => owners.has(t.table)));
  const passes: MovePass[] = [];
  let total = 0;
  for (const table of order) {
    const owner = owners.get(table)!;
    const row = await from
      .prepare(`select count(*) as n from ${quote(table)} where ${quote(owner)} = ?`)
      .bind(params.userId)
      .first<{ n: number }>();
    total += row?.n ?? 0;
    passes.push({ table, owner, kind: "copy", columns: await liveColumns(to, table) });
  }
  passes.push({ table: "contacts", owner: "user_id", kind: "settle", columns: ["id", ...SETTLED_CONTACT_COLUMNS.flat()] });
  return { passes, total };
}

interface MoveRow {
  state: "copying" | "moved" | "done" | "failed";
  pass: number;
  after_rowid: number;
  invitation_id: string;
  team_id: string;
  role: string;
}

async function moveRow(to: D1Database, id: string): Promise<MoveRow> {
  const row = await to
    .prepare("select state, pass, after_rowid, invitation_id, team_id, role from account_moves where id = ?")
    .bind(id)
    .first<MoveRow>();
  if (!row) throw new JobFailure("The move's record is missing.");
  return row;
}

/** The statements that write one chunk (its rows as one JSON array, `?1`) into the new database. */
function chunkStatements(to: D1Database, pass: MovePass, json: string, userId: string): D1PreparedStatement[] {
  const value = (c: string) => `json_extract(value, ${path(c)})`;
  if (pass.kind === "settle") {
    return SETTLED_CONTACT_COLUMNS.map((columns) =>
      to
        .prepare(
          `update contacts set ${columns.map((c) => `${quote(c)} = ${value(c)}`).join(", ")} from json_each(?1)
           where contacts.id = ${value("id")} and contacts.user_id = ?2`,
        )
        .bind(json, userId),
    );
  }
  const names = pass.columns.map(quote).join(", ");
  const statements = [
    to.prepare(`insert into ${quote(pass.table)} (${names}) select ${pass.columns.map(value).join(", ")} from json_each(?1)`).bind(json),
  ];
  // A deal's insert trigger opens its stage history; the old database's history, copied next, is the truth.
  if (pass.table === "deals")
    statements.push(to.prepare(`delete from deal_stage_history where deal_id in (select ${value("id")} from json_each(?1))`).bind(json));
  return statements;
}

/**
 * One copy step: up to `chunksPerStep` chunks from the cursor on, each chunk's rows and the cursor after them written
 * in one batch in the new database, so a retried step starts exactly after the last chunk that committed. Returns
 * whether every pass is done and how many rows of copy passes it wrote.
 */
export async function copyMovePart(
  env: Env,
  params: AccountMoveParams,
  plan: MovePlan,
): Promise<{ done: boolean; copied: number; table: string | null }> {
  const databases = shardDatabases(env);
  const from = databases[params.from]!;
  const to = databases[params.to]!;
  const rowsPerChunk = params.rowsPerChunk ?? MOVE_ROWS_PER_CHUNK;
  const move = await moveRow(to, params.jobId);
  if (move.state !== "copying") return { done: true, copied: 0, table: null };
  let { pass: index, after_rowid: after } = move;
  let copied = 0;
  for (let chunk = 0; chunk < (params.chunksPerStep ?? MOVE_CHUNKS_PER_STEP) && index < plan.passes.length; chunk++) {
    const pass = plan.passes[index]!;
    const { results } = await from
      .prepare(
        `select rowid as __rowid, ${pass.columns.map(quote).join(", ")} from ${quote(pass.table)} where ${quote(pass.owner)} = ? and rowid > ? order by rowid limit ${rowsPerChunk}`,
      )
      .bind(params.userId, after)
      .all<Record<string, unknown> & { __rowid: number }>();
    const rows: Record<string, unknown>[] = [];
    let bytes = 2;
    let last = after;
    for (const { __rowid, ...row } of results) {
      const size = new TextEncoder().encode(JSON.stringify(row)).length + 1;
      if (rows.length > 0 && bytes + size > MOVE_JSON_BYTES) break;
      rows.push(row);
      bytes += size;
      last = __rowid;
    }
    const next = rows.length === 0 ? { pass: index + 1, after: 0 } : { pass: index, after: last };
    await to.batch([
      ...(rows.length > 0 ? chunkStatements(to, pass, JSON.stringify(rows), params.userId) : []),
      to
        .prepare("update account_moves set pass = ?, after_rowid = ?, updated_at = ? where id = ? and state = 'copying'")
        .bind(next.pass, next.after, Date.now(), params.jobId),
    ]);
    if (pass.kind === "copy") copied += rows.length;
    index = next.pass;
    after = next.after;
  }
  return { done: index >= plan.passes.length, copied, table: plan.passes[index]?.table ?? null };
}

/**
 * The switch, once every row is copied: the membership is added and the invitation marked accepted by the agent (in
 * the team's database, one batch, only while the move holds the invitation and the team still exists), then the
 * directory points at the new database. From the next request the agent reads and writes there. Run again, it
 * changes nothing more.
 */
export async function switchMove(env: Env, params: AccountMoveParams): Promise<void> {
  const to = shardDatabases(env)[params.to]!;
  const move = await moveRow(to, params.jobId);
  if (move.state === "copying") {
    const now = Date.now();
    const [, joined] = await to.batch([
      to
        .prepare("update team_invitations set accepted_by = ?, updated_at = ? where id = ? and accepted_at is not null and accepted_by is null")
        .bind(params.userId, now, move.invitation_id),
      to
        .prepare(
          `insert into team_members (team_id, user_id, role, joined_at)
           select ?1, ?2, ?3, ?4 where exists (select 1 from teams where id = ?1)
             and exists (select 1 from team_invitations where id = ?5 and team_id = ?1 and accepted_by = ?2)
           on conflict do nothing`,
        )
        .bind(move.team_id, params.userId, move.role, now, move.invitation_id),
      to.prepare("update account_moves set state = 'moved', updated_at = ? where id = ? and state = 'copying'").bind(now, params.jobId),
    ]);
    if ((joined?.meta.changes ?? 0) === 0) throw new JobFailure("The team or its invitation is gone: the account stays where it was.");
  }
  await homeDatabase(env)
    .prepare("update account_directory set shard = ?, moving_to = null, updated_at = ? where user_id = ? and moving_to = ?")
    .bind(params.to, Date.now(), params.userId, params.to)
    .run();
}

/** One delete step over the old database (after the switch): true when the agent has no rows left there. */
export async function deleteMovedPart(env: Env, params: AccountMoveParams): Promise<boolean> {
  const from = shardDatabases(env)[params.from]!;
  if ((await deleteAgentPart(from, params.userId)) === "more") return false;
  await from.batch(accountRowsEnd(from, params.userId));
  return true;
}

/** The move's last step: its record done, and the job's line. */
export async function finishMove(env: Env, params: AccountMoveParams, rows: number): Promise<void> {
  const to = shardDatabases(env)[params.to]!;
  await to.prepare("update account_moves set state = 'done', updated_at = ? where id = ?").bind(Date.now(), params.jobId).run();
  await finishJob(createDb(homeDatabase(env)), params.jobId, `${rows.toLocaleString("en-US")} ${rows === 1 ? "row" : "rows"} moved.`);
}

/**
 * After a failure: a move not yet switched is undone a step at a time (what was copied is deleted from the new
 * database; false while rows remain), then the invitation is handed back and the directory's mark cleared, so the
 * agent keeps their account where it was and may accept again. A move already switched stays switched.
 */
export async function undoMovePart(env: Env, params: AccountMoveParams): Promise<boolean> {
  const to = shardDatabases(env)[params.to]!;
  const move = await moveRow(to, params.jobId);
  if (move.state !== "copying" && move.state !== "failed") return true;
  if ((await deleteAgentPart(to, params.userId)) === "more") return false;
  const now = Date.now();
  await to.batch([
    to
      .prepare("update team_invitations set accepted_at = null, updated_at = ? where id = ? and accepted_by is null and accepted_at is not null")
      .bind(now, move.invitation_id),
    to.prepare("update account_moves set state = 'failed', updated_at = ? where id = ?").bind(now, params.jobId),
    ...accountRowsEnd(to, params.userId),
  ]);
  await homeDatabase(env)
    .prepare("update account_directory set moving_to = null, updated_at = ? where user_id = ? and moving_to = ?")
    .bind(now, params.userId, params.to)
    .run();
  return true;
}

export async function failMove(env: Env, params: AccountMoveParams, message: string): Promise<void> {
  await failJob(createDb(homeDatabase(env)), params.jobId, message);
}

export const moveProgress = (env: Env, jobId: string, step: string, progress?: { done?: number; total?: number }) =>
  jobProgress(createDb(homeDatabase(env)), jobId, step, progress);

export type MoveStart = { ok: true; job: DurableJob } | { ok: false; reason: "used" | "moving" };

/**
 * Starts the move of `userId` from database `from` to the team's database `to`, as the invitation is accepted: the
 * directory marks the account moving (one move at a time), the invitation is taken (used up, as by a same-database
 * accept) with the move's record written beside it in the team's database, and the job is started. Anything that
 * fails before the job runs is given back.
 */
export async function startAccountMove(
  env: Env,
  move: { userId: string; email: string; from: number; to: number; invitation: { id: string; secretHash: string; teamId: string; role: string } },
  options: Pick<AccountMoveParams, "rowsPerChunk" | "chunksPerStep"> = {},
): Promise<MoveStart> {
  const home = homeDatabase(env);
  const to = shardDatabases(env)[move.to]!;
  const id = crypto.randomUUID();
  const now = Date.now();
  // Accounts made before the directory have no row: they live at home, and get one now.
  const marked = await home
    .prepare(
      `insert into account_directory (user_id, email, shard, moving_to) values (?1, ?2, ?3, ?4)
       on conflict (user_id) do update set moving_to = ?4, updated_at = ?5
       where account_directory.shard = ?3 and account_directory.moving_to is null`,
    )
    .bind(move.userId, move.email.trim().toLowerCase(), move.from, move.to, now)
    .run();
  if ((marked.meta.changes ?? 0) === 0) return { ok: false, reason: "moving" };
  const unmark = () =>
    home.prepare("update account_directory set moving_to = null where user_id = ? and moving_to = ?").bind(move.userId, move.to).run();
  const { invitation } = move;
  const [taken] = await to.batch([
    to
      .prepare(
        `update team_invitations set accepted_at = ?1, updated_at = ?1
         where id = ?2 and secret_hash = ?3 and accepted_at is null and revoked_at is null and expires_at > ?1`,
      )
      .bind(now, invitation.id, invitation.secretHash),
    to
      .prepare(
        `insert into account_moves (id, user_id, from_shard, to_shard, invitation_id, team_id, role, created_at, updated_at)
         select ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8 where changes() > 0`,
      )
      .bind(id, move.userId, move.from, move.to, invitation.id, invitation.teamId, invitation.role, now),
  ]);
  if ((taken?.meta.changes ?? 0) === 0) {
    await unmark();
    return { ok: false, reason: "used" };
  }
  try {
    const job = await startDurableJob<AccountMoveParams>(
      createDb(home),
      env.ACCOUNT_MOVE_WORKFLOW,
      { id, kind: "account-move", startedBy: null, subject: move.userId, step: "Waiting to start", perSubject: true },
      { userId: move.userId, from: move.from, to: move.to, ...options },
      now,
    );
    if (!job) throw new Error("a move of this account is already running");
    return { ok: true, job };
  } catch (error) {
    await to.batch([
      to.prepare("update team_invitations set accepted_at = null where id = ? and accepted_by is null").bind(invitation.id),
      to.prepare("delete from account_moves where id = ?").bind(id),
    ]);
    await unmark();
    throw error;
  }
}

/** The agent's newest move (its durable job, in the home database), for the join page. */
export async function latestMove(env: Env, userId: string): Promise<DurableJob | null> {
  const row = await createDb(homeDatabase(env))
    .select()
    .from(durableJobs)
    .where(and(eq(durableJobs.kind, "account-move"), eq(durableJobs.subject, userId)))
    .orderBy(desc(durableJobs.createdAt))
    .limit(1)
    .get();
  return row ?? null;
}
