import { and, desc, eq, gte, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import {
  contacts,
  crmActivities,
  properties,
  crmTasks,
  deals,
  durableJobs,
  leadAlerts,
  teamHandovers,
  teamLeads,
  teamMembers,
  type DurableJob,
} from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import { JobFailure } from "~/lib/durable-step";
import type { Env } from "~/lib/env.server";
import { failJob, finishJob, jobProgress, launchJob, queueJob, type JobParams } from "~/modules/jobs/durable-jobs.server";
import { userName } from "./names.server";
import { workPhrase } from "./removal";

// A removed member's handover as a durable job (ADR 0039, ADR 0058). The batch that ends the membership records the
// handover (team_handovers, with its durable_jobs row); its workflow then moves the member's rows to the teammate a part
// at a time, each part one D1 batch that first re-checks the job's authority: the handover's row, its job still
// running, and the teammate still a member of the team. Each row changes owner in place, as before: the triggers of
// migration 0030 keep the counters, stage history, field copies and insight caches right, row by row.

/** What the workflow is started with: the handover's job, its team, whose work moves and to whom. */
export interface HandoverParams extends JobParams {
  teamId: string;
  from: string;
  to: string;
  /** Rows per statement and statements per step; the defaults unless a test asks for smaller parts. */
  rowsPerStatement?: number;
  statementsPerStep?: number;
}

/** Rows one statement moves: each fires its table's owner triggers row by row, so a statement stays short. */
const HANDOVER_ROWS_PER_STATEMENT = 500;
/** Statements (each its own batch of 4) per step: about 41 queries and 5,000 rows a step. */
const HANDOVER_STATEMENTS_PER_STEP = 10;

interface MovedTable {
  table: SQLiteTable;
  owner: SQLiteColumn;
  /** The owner column's property, for the update's `set`. */
  field: string;
  /** The rows of the team's that move (team leads: this team's records only). */
  scope?: (teamId: string) => SQL;
}

/** The tables a handover moves, contacts first (the deals, tasks, activities and alerts point at them). */
const TABLES = {
  contacts: { table: contacts, owner: contacts.userId, field: "userId" },
  deals: { table: deals, owner: deals.userId, field: "userId" },
  tasks: { table: crmTasks, owner: crmTasks.userId, field: "userId" },
  activities: { table: crmActivities, owner: crmActivities.userId, field: "userId" },
  // The homes the contacts asked about (lead intake, ADR 0065) go with them.
  properties: { table: properties, owner: properties.userId, field: "userId" },
  leadAlerts: { table: leadAlerts, owner: leadAlerts.userId, field: "userId" },
  // The team's record keeps who got each lead (and whose speed to lead it was); only who holds it changes.
  teamLeads: { table: teamLeads, owner: teamLeads.heldBy, field: "heldBy", scope: (teamId) => eq(teamLeads.teamId, teamId) },
} satisfies Record<string, MovedTable>;

export type HandoverTable = keyof typeof TABLES;
export const HANDOVER_TABLES = Object.keys(TABLES) as HandoverTable[];

const LABELS: Record<HandoverTable, string> = {
  contacts: "contacts",
  deals: "deals",
  tasks: "tasks",
  activities: "activities",
  properties: "properties of interest",
  leadAlerts: "lead alerts",
  teamLeads: "team leads",
};

const memberOf = (teamId: string, userId: string) =>
  sql`exists (select 1 from ${teamMembers} where ${teamMembers.teamId} = ${teamId} and ${teamMembers.userId} = ${userId})`;

/**
 * The job's authority, checked first in each part's batch: this handover's row (its team, member and teammate), its job
 * a running handover, and the teammate still a member of the team. The former member is no longer one: the owner's
 * decision, recorded with the removal, is what moves their rows.
 */
function authority(h: HandoverParams): SQL {
  return sql`exists (select 1 from ${durableJobs} j join ${teamHandovers} h on h.id = j.id
      where j.id = ${h.jobId} and j.kind = 'handover' and j.status = 'running'
        and h.team_id = ${h.teamId} and h.from_user_id = ${h.from} and h.to_user_id = ${h.to})
    and ${memberOf(h.teamId, h.to)}`;
}

/**
 * The statements that record a handover, for the batch that ends the membership (after its relationship check): the job
 * queued, and the handover with each table's highest rowid at that instant, so only the rows the member had when they
 * were removed move (not what they make afterwards in their own account, nor a row they restore from their trash).
 */
export function recordHandover(db: Db, h: { jobId: string; teamId: string; from: string; to: string; startedBy: string }, now: number) {
  const bounds = sql.join(
    HANDOVER_TABLES.map((key) => sql`${key}, (select coalesce(max(rowid), 0) from ${TABLES[key].table})`),
    sql`, `,
  );
  return [
    queueJob(db, h.jobId, { kind: "handover", startedBy: h.startedBy, subject: null, step: "Waiting to start" }, now),
    db.insert(teamHandovers).values({
      id: h.jobId,
      teamId: h.teamId,
      fromUserId: h.from,
      toUserId: h.to,
      bounds: sql`json_object(${bounds})`,
      createdAt: now,
    }),
  ] as const;
}

/**
 * Starts the handover's workflow once the removal's batch has committed. If the platform refuses, the handover stops
 * at once (the job failed, the member's work stays theirs, their team leads detached as a removal without a handover).
 */
export async function launchHandover(env: Pick<Env, "HANDOVER_WORKFLOW">, db: Db, h: Omit<HandoverParams, "jobId"> & { jobId: string }) {
  const { jobId, ...params } = h;
  try {
    await launchJob<HandoverParams>(db, env.HANDOVER_WORKFLOW, jobId, params);
  } catch (error) {
    await stopHandover(db, h, `The handover could not be started (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** The handover's row, or a failure no retry mends. */
async function handoverOf(db: Db, h: HandoverParams) {
  const row = await db.select().from(teamHandovers).where(eq(teamHandovers.id, h.jobId)).get();
  if (!row || row.teamId !== h.teamId || row.fromUserId !== h.from || row.toUserId !== h.to) throw new JobFailure("The handover's record is gone.");
  return row;
}

/**
 * The first step: counts the rows that move, table by table (one statement), for the job's progress and the result.
 * A retry counts what is left and adds what has moved, so the totals stay those of the start.
 */
export async function countHandover(db: Db, h: HandoverParams): Promise<Record<HandoverTable, number>> {
  await jobProgress(db, h.jobId, "Counting the rows to move");
  const row = await handoverOf(db, h);
  const counts = sql.join(
    HANDOVER_TABLES.map((key) => {
      const { table, owner, scope } = TABLES[key] as MovedTable;
      return sql`(select count(*) from ${table} where ${owner} = ${h.from} and rowid <= ${row.bounds[key] ?? 0}${scope ? sql` and ${scope(h.teamId)}` : sql``}) as ${sql.identifier(key)}`;
    }),
    sql`, `,
  );
  const left = (await db.get<Record<HandoverTable, number>>(sql`select ${counts}`))!;
  const totals = Object.fromEntries(HANDOVER_TABLES.map((key) => [key, left[key] + (row.moved[key] ?? 0)])) as Record<HandoverTable, number>;
  const total = Object.values(totals).reduce((a, b) => a + b, 0);
  await db.update(teamHandovers).set({ totals }).where(eq(teamHandovers.id, h.jobId));
  await jobProgress(db, h.jobId, "Moving contacts", { total, done: Object.values(row.moved).reduce((a, b) => a + b, 0) });
  return totals;
}

/**
 * One step of the move: up to `statementsPerStep` batches, each the authority check, one statement moving at most
 * `rowsPerStatement` of the member's rows of `key` (those they had at the removal), and the counts (the handover's per
 * table, the job's done) raised by exactly the rows that statement changed. A statement takes the next rows still the
 * member's, so a batch that ran before a retry is not run twice in effect: a row moved is no longer theirs. Returns the
 * rows moved and whether the table is done. When the check fails, the job stops with the reason.
 */
export async function moveHandoverPart(db: Db, h: HandoverParams, key: HandoverTable): Promise<{ moved: number; finished: boolean }> {
  const rows = Math.max(1, h.rowsPerStatement ?? HANDOVER_ROWS_PER_STATEMENT);
  const statements = Math.max(1, h.statementsPerStep ?? HANDOVER_STATEMENTS_PER_STEP);
  const row = await handoverOf(db, h);
  const { table, owner, scope, field } = TABLES[key] as MovedTable;
  const mine = sql`${owner} = ${h.from} and rowid <= ${row.bounds[key] ?? 0}${scope ? sql` and ${scope(h.teamId)}` : sql``}`;
  const path = `$.${key}`;
  let moved = 0;
  let before = row.moved[key] ?? 0;
  for (let i = 0; i < statements; i++) {
    const done = await guardedBatch(() =>
      db.batch([
        requireInBatch(db, authority(h)),
        db
          .update(table)
          .set({ [field]: h.to })
          .where(sql`rowid in (select rowid from ${table} where ${mine} limit ${rows})`),
        // changes(): the rows the statement just before changed (its triggers' writes are not counted, unlike in the
        // batch's own meta), read back as the table's running count.
        db
          .update(teamHandovers)
          .set({ moved: sql`json_set(${teamHandovers.moved}, ${path}, coalesce(json_extract(${teamHandovers.moved}, ${path}), 0) + changes())` })
          .where(eq(teamHandovers.id, h.jobId))
          .returning({ moved: sql<number>`json_extract(${teamHandovers.moved}, ${path})` }),
        db
          .update(durableJobs)
          .set({
            done: sql`(select coalesce(sum(m.value), 0) from ${teamHandovers} h, json_each(h.moved) m where h.id = ${h.jobId})`,
            step: `Moving ${LABELS[key]}`,
          })
          .where(eq(durableJobs.id, h.jobId)),
      ]),
    );
    if (!done.ok) throw new JobFailure(await whyStopped(db, h));
    const after = done.results[2][0]?.moved ?? before;
    const changed = after - before;
    before = after;
    moved += changed;
    if (changed < rows) return { moved, finished: true };
  }
  return { moved, finished: false };
}

/** Why a part's check failed, in words for the owner. */
async function whyStopped(db: Db, h: HandoverParams): Promise<string> {
  const [job, member] = await Promise.all([
    db.select({ status: durableJobs.status }).from(durableJobs).where(eq(durableJobs.id, h.jobId)).get(),
    db
      .select({ userId: teamMembers.userId })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, h.teamId), eq(teamMembers.userId, h.to)))
      .get(),
  ]);
  if (!member) return "The teammate taking over is no longer a member of the team";
  return job?.status === "running" ? "The handover's record changed" : "The handover was stopped";
}

const nameOf = (db: Db, userId: string) => userName(db, userId, "a former member");

const asWork = (counts: Partial<Record<HandoverTable, number>>) => ({
  contacts: counts.contacts ?? 0,
  deals: counts.deals ?? 0,
  tasks: counts.tasks ?? 0,
  activities: counts.activities ?? 0,
  leads: counts.teamLeads ?? 0,
});

/**
 * The last step: the job's result, in the words the removal dialog used ("2 contacts, 1 deal … moved."). It names no
 * one: the job's row outlives both accounts (ADR 0026 keeps it unsigned); the Team page names them from the handover.
 */
export async function finishHandover(db: Db, h: HandoverParams): Promise<string> {
  const row = await handoverOf(db, h);
  const what = workPhrase(asWork(row.moved));
  const result = what === "nothing yet" ? "Nothing needed to move." : `${what[0]!.toUpperCase()}${what.slice(1)} moved.`;
  await finishJob(db, h.jobId, result);
  return result;
}

/**
 * Ends a handover that cannot go on (the teammate left the team, the platform refused to start it, a step failed past
 * its retries): what has moved stays with the teammate, the rest with the former member, and the team's lead records
 * they still hold are detached as a removal without a handover detaches them. The job fails with `reason` and both
 * lists (no names: the Team page shows whose work went to whom).
 */
export async function stopHandover(db: Db, h: Omit<HandoverParams, "jobId"> & { jobId: string }, reason: string): Promise<string> {
  const row = await db.select().from(teamHandovers).where(eq(teamHandovers.id, h.jobId)).get();
  await db
    .update(teamLeads)
    .set({ contactId: null, heldBy: null })
    .where(and(eq(teamLeads.teamId, h.teamId), eq(teamLeads.heldBy, h.from), sql`not ${memberOf(h.teamId, h.from)}`));
  const moved = row?.moved ?? {};
  const stayed = Object.fromEntries(HANDOVER_TABLES.map((key) => [key, Math.max(0, (row?.totals[key] ?? 0) - (moved[key] ?? 0))]));
  const movedText = workPhrase(asWork(moved));
  const stayedText = workPhrase(asWork(stayed));
  const message = `${reason.replace(/\.$/, "")}. Moved: ${movedText === "nothing yet" ? "nothing" : movedText}. Stayed with the former member: ${stayedText === "nothing yet" ? "nothing" : stayedText}.`;
  await failJob(db, h.jobId, message.slice(0, 500));
  return message;
}

/** A handover as the Team page shows it to the owner: the job, and whose work goes to whom. */
export interface HandoverView {
  job: Pick<DurableJob, "id" | "status" | "step" | "done" | "total" | "result" | "error">;
  from: string;
  to: string;
}

/** The team's handovers of the last week, newest first (at most 5), for its owner's Team page. */
export async function teamHandoverJobs(db: Db, teamId: string, now = Date.now()): Promise<HandoverView[]> {
  const rows = await db
    .select({
      id: durableJobs.id,
      status: durableJobs.status,
      step: durableJobs.step,
      done: durableJobs.done,
      total: durableJobs.total,
      result: durableJobs.result,
      error: durableJobs.error,
      from: teamHandovers.fromUserId,
      to: teamHandovers.toUserId,
    })
    .from(teamHandovers)
    .innerJoin(durableJobs, eq(durableJobs.id, teamHandovers.id))
    .where(and(eq(teamHandovers.teamId, teamId), gte(teamHandovers.createdAt, now - 7 * 86_400_000)))
    .orderBy(desc(teamHandovers.createdAt))
    .limit(5);
  return Promise.all(rows.map(async ({ from, to, ...job }) => ({ job, from: await nameOf(db, from), to: await nameOf(db, to) })));
}
