import { DAY_MS } from "~/lib/dates";

// How long the audit log keeps a row, and what an account's purge leaves of it (ADR 0073).

/** A row is kept this many days, then the cron deletes it. */
export const AUDIT_RETENTION_DAYS = 365;
/** Rows one delete statement removes, and statements one pass runs at most (D1 counts queries per invocation). */
const DELETE_CHUNK = 500;
const DELETES_PER_PASS = 20;

/**
 * Deletes rows older than AUDIT_RETENTION_DAYS, oldest first, DELETE_CHUNK a statement and at most `statements`
 * statements; what is left goes on the next run. Returns the rows deleted.
 */
export async function pruneAuditEvents(d1: D1Database, now: number, statements = DELETES_PER_PASS): Promise<number> {
  const before = now - AUDIT_RETENTION_DAYS * DAY_MS;
  let deleted = 0;
  for (let used = 0; used < statements; used++) {
    const result = await d1
      .prepare(
        `delete from audit_events where rowid in (select rowid from audit_events where created_at < ? order by created_at limit ${DELETE_CHUNK})`,
      )
      .bind(before)
      .run();
    const changes = result.meta.changes ?? 0;
    deleted += changes;
    if (changes < DELETE_CHUNK) break;
  }
  return deleted;
}

const FORMER = "A former member";

/**
 * What an account's purge does to the audit log, before the users row goes: the user's own security events (no team)
 * are deleted; in a team's log their rows stay, the name as it was (an e-mail shown for want of a name becomes "A former
 * member"), without their id, and the address, place and browser of what they did are dropped.
 */
export function auditRowsOnPurge(d1: D1Database, userId: string): D1PreparedStatement[] {
  const unnamed = (column: string) => `case when instr(coalesce(${column}, ''), '@') > 0 then '${FORMER}' else ${column} end`;
  return [
    d1.prepare(`delete from audit_events where team_id is null and (subject_user_id = ?1 or actor_id = ?1)`).bind(userId),
    d1
      .prepare(
        `update audit_events set actor_label = ${unnamed("actor_label")}, actor_id = null, ip = null, country = null, city = null, user_agent = null where actor_id = ?`,
      )
      .bind(userId),
    d1.prepare(`update audit_events set subject_label = ${unnamed("subject_label")}, subject_user_id = null where subject_user_id = ?`).bind(userId),
    d1
      .prepare(`update audit_events set target_label = ${unnamed("target_label")}, target_id = null where target_type = 'user' and target_id = ?`)
      .bind(userId),
  ];
}
