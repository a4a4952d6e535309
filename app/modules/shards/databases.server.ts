import { createDb, type Db } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { shardDatabases } from "~/lib/shards.server";

// Every account database as a Db, by index (ADR 0060): for the readings the Operations Center sums over all of them.

/** Every account database bound to this Worker, the home database first (index = shard). */
export function accountDatabases(env: Env): Db[] {
  return shardDatabases(env).map((d1) => createDb(d1));
}
