import { DurableObject } from "cloudflare:workers";
import { createDb } from "~/db/client.server";
import { limitD1, reportD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { HOME_SHARD, shardDatabases } from "~/lib/shards.server";
import type { UserId } from "~/modules/auth/session.server";
import type { Insight } from "~/modules/insights/insights";
import { computeUserInsights, type InsightsRead } from "~/modules/insights/insights.server";

/**
 * Per-user cache of the smart insights, one object per user (idFromName(userId)), kept in the object's own
 * SQLite storage. An entry is good for one data version (raised by D1 triggers on any write to contacts,
 * deals, tasks, activities, display preferences or stages, migrations 0010 and 0011) and one calendar day of the agent (the rules count days), so
 * any change, whoever makes it, and midnight both invalidate it. See docs/decisions/0017.
 */
export class InsightsCache extends DurableObject<Env> {
  private ready = false;

  private ensureTable() {
    if (this.ready) return;
    this.ctx.storage.sql.exec(
      "create table if not exists insights (slot integer primary key check (slot = 1), version integer not null, day text not null, value text not null, computed_at integer not null)",
    );
    this.ready = true;
  }

  /** `shard`: the account's database (ADR 0060); the home database when left out. */
  async read(userId: string, version: number, day: string, shard = HOME_SHARD): Promise<InsightsRead> {
    this.ensureTable();
    const row = this.ctx.storage.sql
      .exec<{ version: number; day: string; value: string; computed_at: number }>(
        "select version, day, value, computed_at from insights where slot = 1",
      )
      .toArray()[0];
    if (row && row.version === version && row.day === day) {
      return { insights: JSON.parse(row.value) as Insight[], cached: true, computedAt: row.computed_at };
    }
    const computedAt = Date.now();
    // Each call is its own invocation of D1's per-invocation limits (ADR 0055).
    const env = limitD1(this.env, "InsightsCache.read");
    const insights = await computeUserInsights(createDb(shardDatabases(env)[shard] ?? env.DB), userId as UserId, new Date(computedAt));
    reportD1(env);
    this.ctx.storage.sql.exec(
      "insert into insights (slot, version, day, value, computed_at) values (1, ?, ?, ?, ?) on conflict(slot) do update set version = excluded.version, day = excluded.day, value = excluded.value, computed_at = excluded.computed_at",
      version,
      day,
      JSON.stringify(insights),
      computedAt,
    );
    return { insights, cached: false, computedAt };
  }

  /** Drops the cached entry (account data deletion). */
  async clear(): Promise<void> {
    this.ensureTable();
    this.ctx.storage.sql.exec("delete from insights");
  }
}
