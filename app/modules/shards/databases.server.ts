import { createDb, type Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { shardDatabases } from "~/lib/shards.server";

// Every account database as a Db, by index (ADR 0060): for the readings the Operations Center sums over all of them.

/** Every account database bound to this Worker, the home database first (index = shard). */
export function accountDatabases(env: Env): Db[] {
  return shardDatabases(env).map((d1) => createDb(d1));
}

/** What `read` finds in every account database, newest first by `at`, at most `limit` in all. */
export async function newestAcross<T>(
  databases: readonly Db[],
  read: (db: Db, shard: number) => Promise<T[]>,
  at: (row: T) => number,
  limit: number,
): Promise<T[]> {
  const each = await Promise.all(databases.map((db, shard) => read(db, shard)));
  return each
    .flat()
    .sort((a, b) => at(b) - at(a))
    .slice(0, limit);
}
