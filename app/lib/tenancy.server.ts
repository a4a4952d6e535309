import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";

/**
 * A user id that came from a verified session (modules/auth/session.server.ts), never from the browser. Domain modules
 * and the filters below require it.
 */
export type UserId = string & { readonly __brand: "UserId" };

/** Any table holding user data: it has a user_id column. */
export type OwnedTable = { userId: AnySQLiteColumn };

/**
 * The filter every query on user data starts from. `UserId` only comes from a verified session
 * (requireUser and friends), so an id sent by the browser cannot reach here by mistake.
 */
export function ownedBy(table: OwnedTable, userId: UserId, ...conditions: (SQL | undefined)[]): SQL {
  return and(eq(table.userId, userId), ...conditions)!;
}

/**
 * ownedBy for rows looked up by a key or a list of keys (`keys`: `id in (…)`, `contact_id = ?`). Every row is still the
 * user's, but the owner is compared as `+user_id`, which no index serves, so SQLite finds the rows through the keys'
 * index. Given both, its planner (no statistics) took the user_id index and read every row the user owns: a field sync
 * of 13 changed contacts read 124,746 rows on the bench's large account.
 */
export function ownedByKeys(table: OwnedTable, userId: UserId, keys: SQL): SQL {
  return and(sql`+${table.userId} = ${userId}`, keys)!;
}

/**
 * The team-aware variant, for team views: rows of any of `userIds`. The ids come from the visibility rule
 * (team/visibility.server.ts visibleMembers), the only place that turns teammates into UserIds. No ids: no rows.
 */
export function ownedByAny(table: OwnedTable, userIds: readonly UserId[], ...conditions: (SQL | undefined)[]): SQL {
  if (userIds.length === 0) return sql`0`;
  return and(inArray(table.userId, [...userIds]), ...conditions)!;
}
