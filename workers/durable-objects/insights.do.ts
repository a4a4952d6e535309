import { DurableObject } from "cloudflare:workers";

/**
 * Per-user cache of generated insights, one object per user (idFromName(userId)). It keeps entries in the
 * object's own SQLite storage with an expiry, so a warm coach page needs no new generation.
 */
export class InsightsCache extends DurableObject {
  private ready = false;

  private ensureTable() {
    if (this.ready) return;
    this.ctx.storage.sql.exec(
      "create table if not exists entries (key text primary key, value text not null, expires_at integer not null)",
    );
    this.ready = true;
  }

  async get<T = unknown>(key: string): Promise<T | null> {
    this.ensureTable();
    const row = this.ctx.storage.sql
      .exec<{ value: string; expires_at: number }>("select value, expires_at from entries where key = ?", key)
      .toArray()[0];
    if (!row) return null;
    if (row.expires_at <= Date.now()) {
      this.ctx.storage.sql.exec("delete from entries where key = ?", key);
      return null;
    }
    return JSON.parse(row.value) as T;
  }

  async set(key: string, value: unknown, ttlMs: number): Promise<void> {
    this.ensureTable();
    this.ctx.storage.sql.exec(
      "insert into entries (key, value, expires_at) values (?, ?, ?) on conflict(key) do update set value = excluded.value, expires_at = excluded.expires_at",
      key,
      JSON.stringify(value),
      Date.now() + ttlMs,
    );
  }

  async clear(): Promise<void> {
    this.ensureTable();
    this.ctx.storage.sql.exec("delete from entries");
  }
}
