import { sql } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { accountDirectory } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { acceptingShards, homeDatabase, shardDatabases } from "~/lib/shards.server";
import { D1_DATABASE_LIMIT_BYTES, type DatabaseFigures, type DatabaseTotals } from "./figures";

// The Operations Center's Databases tab (ADR 0060): each account database's accounts, agents and size, and the same
// figures summed over every database. Both the rows and the totals come from here.

/** 1,234,567 → "1.2 MB": decimal units, as D1 states its 10 GB limit. */
function sizeLabel(bytes: number): string {
  const exponent = Math.min(3, Math.max(1, Math.floor(Math.log10(Math.max(bytes, 1)) / 3)));
  const value = (bytes / 1000 ** exponent).toLocaleString("en-US", { maximumFractionDigits: 1 });
  return `${value} ${["KB", "MB", "GB"][exponent - 1]}`;
}

/** One query per database (its counts, and its size from the query's meta) and one on the directory. */
export async function databaseFigures(env: Env): Promise<{ databases: DatabaseFigures[]; totals: DatabaseTotals }> {
  const accepting = new Set(acceptingShards(env));
  const [listedRows, counted] = await Promise.all([
    createDb(homeDatabase(env))
      .select({ shard: accountDirectory.shard, n: sql<number>`count(*)` })
      .from(accountDirectory)
      .groupBy(accountDirectory.shard)
      .all(),
    Promise.all(
      shardDatabases(env).map(async (d1) => {
        const result = await d1
          .prepare(
            `select (select count(*) from users) as agents,
                    (select count(*) from teams) + (select count(*) from users u where not exists (select 1 from team_members m where m.user_id = u.id)) as accounts`,
          )
          .run<{ agents: number; accounts: number }>();
        const row = result.results[0]!;
        return { agents: row.agents, accounts: row.accounts, bytes: Number(result.meta.size_after ?? 0) };
      }),
    ),
  ]);
  const listed = new Map(listedRows.map((row) => [row.shard, row.n]));
  const number = (n: number, digits: number) => n.toLocaleString("en-US", { maximumFractionDigits: digits });
  const databases = counted.map((figures, shard) => ({
    shard,
    binding: shard === 0 ? "DB" : `DB_SHARD_${shard}`,
    ...figures,
    listed: listed.get(shard) ?? 0,
    acceptsNewAccounts: accepting.has(shard),
    sizeLabel: sizeLabel(figures.bytes),
    limitShare: `${number((figures.bytes / D1_DATABASE_LIMIT_BYTES) * 100, 2)}%`,
  }));
  const sum = (key: "accounts" | "agents" | "listed" | "bytes") => databases.reduce((total, d) => total + d[key], 0);
  const bytes = sum("bytes");
  return { databases, totals: { accounts: sum("accounts"), agents: sum("agents"), listed: sum("listed"), bytes, sizeLabel: sizeLabel(bytes) } };
}
