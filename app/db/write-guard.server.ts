import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./client.server";
import { writeGuard } from "./schema";

// A write that touches another user's rows re-checks the relationship it relies on in the same D1 batch (migration
// 0032, the write_guard table and its triggers): put `requireInBatch(db, condition)` first in the batch. When the condition no longer holds (the member left,
// the lead went to someone else, the role changed) the database aborts the batch and nothing of it lands; the caller
// catches `isWriteGuardAbort` and answers as for a stale page. A batch is one transaction, so a condition checked by
// its first statement holds for every statement after it.

const ABORT_MARK = "write_guard:";

/**
 * A write made in another member's account by a teammate the team's rules let (a manager editing an agent's contact):
 * `requires` is re-checked in the write's own batch or statement, and `by` names who did it where the row can say so.
 */
export interface OnBehalf {
  requires: SQL;
  by: string;
}

/** The batch statement that aborts the batch unless `condition` (an SQL boolean) is true. */
export function requireInBatch(db: Db, condition: SQL) {
  return db.insert(writeGuard).select(sql`select case when ${condition} then 1 else 0 end`);
}

/** Whether `error` is the abort of a batch whose relationship check failed. */
function isWriteGuardAbort(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (e instanceof Error && e.message.includes(ABORT_MARK)) return true;
  }
  return false;
}

/** Runs `batch`; false when a guard aborted it (nothing landed), the batch's results otherwise. Other errors throw. */
export async function guardedBatch<T>(batch: () => Promise<T>): Promise<{ ok: true; results: T } | { ok: false }> {
  try {
    return { ok: true, results: await batch() };
  } catch (error) {
    if (isWriteGuardAbort(error)) return { ok: false };
    throw error;
  }
}
