import type { Env } from "~/lib/env.server";
import { CRM_DATA_TABLES } from "./tables";

type D1 = Env["DB"];

// "Delete my data" (spec section 5's confirmation): the agent's CRM records go (CRM_DATA_TABLES,
// children first, so no row waits on a cascade), the account stays (sign-in, profile, preferences, pipeline
// stages, commission plan and billing). The trigger-kept counters (tags, status and per-day counts, insight
// version) follow the deletes on their own.

/** Rows deleted per statement: each fires the contact triggers (search index, counts), so chunks stay small. */
const CHUNK = 500;

export type ErasedCounts = Record<(typeof CRM_DATA_TABLES)[number], number>;

/**
 * Deletes every CRM row of the agent, a chunk at a time (a single delete of 100,000 contacts with their
 * triggers would run past D1's limit on one statement). Returns what was deleted per table. If it stops
 * half-way (an error), running it again finishes the job: it never touches another agent's rows.
 */
export async function eraseCrmData(db: D1, userId: string): Promise<ErasedCounts> {
  // Counted first: D1's `changes` includes the rows the triggers touch, so it cannot count deletions.
  const counts = await countCrmData(db, userId);
  for (const table of CRM_DATA_TABLES) {
    for (;;) {
      const result = await db
        .prepare(`delete from "${table}" where rowid in (select rowid from "${table}" where user_id = ? limit ${CHUNK})`)
        .bind(userId)
        .run();
      if ((result.meta.changes ?? 0) === 0) break;
    }
  }
  return counts;
}

/** The agent's rows in each table "Delete my data" empties: what it would delete now (one query per table, one batch). */
export async function countCrmData(db: D1, userId: string): Promise<ErasedCounts> {
  const counted = await db.batch<{ n: number }>(
    CRM_DATA_TABLES.map((table) => db.prepare(`select count(*) as n from "${table}" where user_id = ?`).bind(userId)),
  );
  return Object.fromEntries(CRM_DATA_TABLES.map((table, i) => [table, counted[i]?.results[0]?.n ?? 0])) as ErasedCounts;
}

/**
 * What Settings → Data says "Delete my data" removes: the records (contacts, deals, tasks, activities, stage history,
 * lead source costs) and, apart, the items in the trash (a deleted contact with its activities is one item).
 */
export function deletionSummary(counts: ErasedCounts): { records: number; trashItems: number } {
  return {
    records: counts.contacts + counts.deals + counts.crm_tasks + counts.crm_activities + counts.deal_stage_history + counts.lead_source_costs,
    trashItems: counts.trash_items,
  };
}

/** "12 contacts, 3 deals, 9 tasks, 40 activities" for the request's record and the toast. */
export function erasedSummary(counts: ErasedCounts): string {
  const part = (n: number, one: string, many: string) => `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
  return [
    part(counts.contacts, "contact", "contacts"),
    part(counts.deals, "deal", "deals"),
    part(counts.crm_tasks, "task", "tasks"),
    part(counts.crm_activities, "activity", "activities"),
  ].join(", ");
}
