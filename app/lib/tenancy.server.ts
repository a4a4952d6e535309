import { and, eq, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import type { UserId } from "~/modules/auth/session.server";

/** Any table holding user data: it has a user_id column. */
export type OwnedTable = { userId: AnySQLiteColumn };

/**
 * The filter every query on user data starts from. `UserId` only comes from a verified session
 * (requireUser and friends), so an id sent by the browser cannot reach here by mistake.
 */
export function ownedBy(table: OwnedTable, userId: UserId, ...conditions: (SQL | undefined)[]): SQL {
  return and(eq(table.userId, userId), ...conditions)!;
}
