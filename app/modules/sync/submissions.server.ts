import { and, eq } from "drizzle-orm";
import { appliedChanges } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import type { UserId } from "~/modules/auth/session.server";
import { changeRowId } from "./change-id";
import { SUBMISSION_KEY_MESSAGE, SUBMISSION_KEY_PATTERN } from "./submission-key";

// Applied once by key (ADR 0031 for the phone's queue, ADR 0051 for every create): one mechanism for the offline queue
// and the online forms and JSON calls.
// - A key already answered gets its stored answer back (`applied_changes`, kept 60 days, pruned by the cron).
// - A create makes its row under an id derived from the agent and the key (change-id.ts), so a retry that arrives
//   while the first is still running, or after the first went in but before its answer was stored, cannot insert it
//   again: it finds the first one's row and answers as the first did.
// - Only answers that created something are stored: a refusal (bad input, a duplicate warning) is asked again.

type Db = Pick<RequestContext, "db">;

/** A UNIQUE constraint failed: the row (or the key) is there already. */
export const isUniqueViolation = (error: unknown) =>
  /UNIQUE constraint failed/i.test(String((error as { cause?: unknown })?.cause ?? error)) || /UNIQUE constraint failed/i.test(String(error));

/** The stored answer to the agent's key, if it was answered before. */
export async function answeredBefore<T>(context: Db, userId: UserId, key: string): Promise<T | null> {
  const row = await context.db
    .select({ result: appliedChanges.result })
    .from(appliedChanges)
    .where(and(eq(appliedChanges.userId, userId), eq(appliedChanges.key, key)))
    .get();
  return row ? (row.result as unknown as T) : null;
}

/** The insert that stores an answer; run alone, or inside the create's own batch so the two go in together. */
export function rememberAnswer(context: Db, userId: UserId, key: string, result: object, now = Date.now()) {
  return context.db.insert(appliedChanges).values({ userId, key, result: { ...result } as Record<string, unknown>, appliedAt: now });
}

/** Stores an answer, keeping the first if the key was answered meanwhile. */
export async function remember(context: Db, userId: UserId, key: string, result: object, now = Date.now()): Promise<void> {
  await rememberAnswer(context, userId, key, result, now).onConflictDoNothing();
}

/**
 * A submission key as sent (a form field or a header): null when none was sent (a caller that does not retry, such as
 * a script), an error when it is not one.
 */
export function readSubmissionKey(value: FormDataEntryValue | string | null | undefined): { key: string | null } | { error: string } {
  if (value === null || value === undefined || value === "") return { key: null };
  return typeof value === "string" && SUBMISSION_KEY_PATTERN.test(value) ? { key: value } : { error: SUBMISSION_KEY_MESSAGE };
}

/**
 * Runs a create once per key. `make` creates under the id it is given; `found` answers from the row of that id when it
 * exists (the first attempt's), or null. The answer is stored when `ok`. Keys are per kind of create, so a key sent to
 * one form never replays another's answer. Without a key, `make` simply runs with a fresh id.
 */
export async function once<R extends { ok: boolean }>(
  context: Db,
  userId: UserId,
  kind: string,
  key: string | null,
  make: (rowId: string) => Promise<R>,
  found: (rowId: string) => Promise<R | null>,
): Promise<R> {
  if (!key) return make(newId());
  const stored = `${kind}:${key}`;
  const before = await answeredBefore<R>(context, userId, stored);
  if (before) return before;
  const rowId = await changeRowId(userId, stored);
  // The first attempt went in, its answer not stored yet (still running, or cut off): answer as it did.
  const made = await found(rowId);
  if (made) return made;
  let result: R;
  try {
    result = await make(rowId);
  } catch (error) {
    const first = isUniqueViolation(error) ? await found(rowId) : null;
    if (!first) throw error;
    return first;
  }
  if (result.ok) await remember(context, userId, stored, result);
  return result;
}
