import { MINUTE_MS } from "~/lib/dates";
import { DurableObject } from "cloudflare:workers";
import { limitD1, reportD1 } from "~/lib/d1-limits";
import type { Env } from "~/lib/env.server";
import { bucketOf, encodeHistogram, type Histogram } from "~/modules/ops/histogram";
import { type Sample } from "~/modules/ops/metrics";

/**
 * One shard of the request and web-vitals recorder (ADR 0024). Requests pick a shard at random
 * (idFromName("shard-<n>")), so at 1,000 requests a second each of the eight takes about 125. A sample is
 * one upsert into the object's own SQLite (the minute it arrived, its metric, route and bucket), so nothing
 * is lost when the object is evicted between requests. An alarm a second after each minute ends writes the
 * finished minutes to D1 in one batch (one row per metric and route) and forgets them: D1 sees a handful of
 * batches a minute whatever the traffic, never one write per request.
 */
export class OpsRecorder extends DurableObject<Env> {
  private ready = false;

  private ensureTables() {
    if (this.ready) return;
    const sql = this.ctx.storage.sql;
    sql.exec(
      "create table if not exists pending (minute integer not null, metric text not null, route text not null, bucket integer not null, n integer not null, sum real not null, errors integer not null, primary key (minute, metric, route, bucket))",
    );
    sql.exec(
      "create table if not exists pending_errors (minute integer not null, route text not null, status integer not null, n integer not null, last_seen integer not null, primary key (minute, route, status))",
    );
    this.ready = true;
  }

  /** Counts samples into the current minute and makes sure an alarm will write it out. */
  async record(samples: Sample[]): Promise<void> {
    this.ensureTables();
    const now = Date.now();
    const minute = now - (now % MINUTE_MS);
    const sql = this.ctx.storage.sql;
    for (const s of samples) {
      const error = s.status !== undefined && s.status >= 500 ? 1 : 0;
      sql.exec(
        "insert into pending (minute, metric, route, bucket, n, sum, errors) values (?, ?, ?, ?, 1, ?, ?) on conflict (minute, metric, route, bucket) do update set n = n + 1, sum = sum + excluded.sum, errors = errors + excluded.errors",
        minute,
        s.metric,
        s.route,
        bucketOf(s.value),
        s.value,
        error,
      );
      if (s.status !== undefined && s.status >= 400) {
        sql.exec(
          "insert into pending_errors (minute, route, status, n, last_seen) values (?, ?, ?, 1, ?) on conflict (minute, route, status) do update set n = n + 1, last_seen = excluded.last_seen",
          minute,
          s.route,
          s.status,
          now,
        );
      }
    }
    if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(minute + MINUTE_MS + 1_000);
  }

  /** Samples counted and not yet written to D1 (the cron's Durable Object probe reads it). */
  async pendingSamples(): Promise<number> {
    this.ensureTables();
    return this.ctx.storage.sql.exec<{ n: number }>("select coalesce(sum(n), 0) as n from pending").one().n;
  }

  override async alarm(): Promise<void> {
    const left = await this.flush(Date.now());
    if (left) {
      const now = Date.now();
      await this.ctx.storage.setAlarm(now - (now % MINUTE_MS) + MINUTE_MS + 1_000);
    }
  }

  /**
   * Writes every minute that has ended by `now` to D1 and drops it here. Returns whether samples of the
   * current minute remain. A failed write leaves everything in place for the next alarm; a write that
   * committed is never applied twice (D1 ignores a row this shard already wrote for that minute).
   */
  async flush(now: number): Promise<boolean> {
    this.ensureTables();
    const sql = this.ctx.storage.sql;
    const current = now - (now % MINUTE_MS);
    const rows = sql
      .exec<{ minute: number; metric: string; route: string; bucket: number; n: number; sum: number; errors: number }>(
        "select minute, metric, route, bucket, n, sum, errors from pending where minute < ? order by minute, metric, route",
        current,
      )
      .toArray();
    const errors = sql
      .exec<{ minute: number; route: string; status: number; n: number; last_seen: number }>("select * from pending_errors where minute < ?", current)
      .toArray();
    if (rows.length > 0 || errors.length > 0) {
      const grouped = new Map<
        string,
        { minute: number; metric: string; route: string; n: number; sum: number; errors: number; histogram: Histogram }
      >();
      for (const r of rows) {
        const key = `${r.minute}\u0000${r.metric}\u0000${r.route}`;
        const g = grouped.get(key) ?? { minute: r.minute, metric: r.metric, route: r.route, n: 0, sum: 0, errors: 0, histogram: {} };
        g.n += r.n;
        g.sum += r.sum;
        g.errors += r.errors;
        g.histogram[r.bucket] = (g.histogram[r.bucket] ?? 0) + r.n;
        grouped.set(key, g);
      }
      const shard = this.ctx.id.name ?? this.ctx.id.toString();
      // Each flush (an alarm, or the cron's call) is its own invocation of D1's per-invocation limits (ADR 0055).
      const env = limitD1(this.env, "OpsRecorder.flush");
      const statements = [
        ...[...grouped.values()].map((g) =>
          env.DB.prepare(
            "insert into metric_rollups (span, start, metric, route, shard, n, errors, sum, histogram) values ('minute', ?, ?, ?, ?, ?, ?, ?, ?) on conflict (span, metric, start, route, shard) do nothing",
          ).bind(g.minute, g.metric, g.route, shard, g.n, g.errors, g.sum, encodeHistogram(g.histogram)),
        ),
        ...errors.map((e) =>
          env.DB.prepare(
            "insert into error_rollups (start, route, status, shard, n, last_seen) values (?, ?, ?, ?, ?, ?) on conflict (start, route, status, shard) do nothing",
          ).bind(e.minute, e.route, e.status, shard, e.n, e.last_seen),
        ),
      ];
      await env.DB.batch(statements);
      reportD1(env);
      sql.exec("delete from pending where minute < ?", current);
      sql.exec("delete from pending_errors where minute < ?", current);
    }
    return (
      sql.exec<{ n: number }>("select count(*) as n from pending").one().n > 0 ||
      sql.exec<{ n: number }>("select count(*) as n from pending_errors").one().n > 0
    );
  }
}
