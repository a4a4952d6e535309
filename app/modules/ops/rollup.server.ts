import { HOUR_MS, MINUTE_MS } from "~/lib/dates";
import { and, eq, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { cronRuns, errorRollups, metricRollups, probeResults } from "~/db/schema";

// Retention: minute rows for 48 hours, hour rows and probe results for 90 days. The cron rolls the
// minutes of each ended hour into one row per metric and route (all shards merged, histograms added bucket by
// bucket in SQL) and prunes what has aged out.

export const MINUTE_RETENTION_MS = 48 * HOUR_MS;
export const HOUR_RETENTION_MS = 90 * 24 * HOUR_MS;
/** A minute is written by its shard about a minute after it ends; an hour is rolled once that has surely happened. */
export const ROLLUP_DELAY_MS = 3 * MINUTE_MS;
/** Hours rolled again on every run, so a minute a shard wrote late still lands in its hour. */
const ROLLUP_HOURS = 3;

/**
 * (Re)writes the hour rows of the last ROLLUP_HOURS ended hours from their minute rows. Idempotent: an hour is
 * recomputed whole from the minutes, which are kept far longer than it takes to roll them.
 */
export async function rollUpHours(db: Db, now: number): Promise<void> {
  const ended = now - ROLLUP_DELAY_MS;
  const to = ended - (ended % HOUR_MS);
  const from = to - ROLLUP_HOURS * HOUR_MS;
  await db.run(rollupSql(from, to));
}

function rollupSql(from: number, to: number) {
  // Plain SQL: the bucket-by-bucket merge needs json_each, which drizzle's builder does not express. Only
  // the two instants computed above are interpolated, never input.
  return sql.raw(`
    with m as (
      select start - (start % ${HOUR_MS}) as h, metric, route, n, errors, sum, histogram
      from metric_rollups where span = 'minute' and start >= ${from} and start < ${to}
    ),
    totals as (select h, metric, route, sum(n) as n, sum(errors) as errors, sum(sum) as total from m group by h, metric, route),
    buckets as (
      select m.h, m.metric, m.route, json_extract(b.value, '$[0]') as bucket, sum(json_extract(b.value, '$[1]')) as c
      from m, json_each(m.histogram) as b group by m.h, m.metric, m.route, bucket
    ),
    merged as (
      select h, metric, route, json_group_array(json_array(bucket, c)) as histogram
      from (select * from buckets order by bucket) group by h, metric, route
    )
    insert into metric_rollups (span, start, metric, route, shard, n, errors, sum, histogram)
    select 'hour', t.h, t.metric, t.route, 'all', t.n, t.errors, t.total, coalesce(merged.histogram, '[]')
    from totals t left join merged on merged.h = t.h and merged.metric = t.metric and merged.route = t.route
    where true
    on conflict (span, metric, start, route, shard) do update set n = excluded.n, errors = excluded.errors, sum = excluded.sum, histogram = excluded.histogram
  `);
}

/**
 * Cron runs past their 90 days. Every job's run is a row (about 2,900 a day), so the delete walks the index by
 * outcome and time (both outcomes, then the old end of each) instead of reading the whole table every five minutes.
 */
export function cronRunsPrune(db: Db, now: number) {
  return db.delete(cronRuns).where(and(inArray(cronRuns.status, ["ok", "error"]), lt(cronRuns.startedAt, new Date(now - HOUR_RETENTION_MS))));
}

/** Drops what has outlived its retention. */
export async function prune(db: Db, now: number): Promise<void> {
  await db.batch([
    db.delete(metricRollups).where(and(eq(metricRollups.span, "minute"), lt(metricRollups.start, now - MINUTE_RETENTION_MS))),
    db.delete(metricRollups).where(and(eq(metricRollups.span, "hour"), lt(metricRollups.start, now - HOUR_RETENTION_MS))),
    db.delete(errorRollups).where(lt(errorRollups.start, now - MINUTE_RETENTION_MS)),
    db.delete(probeResults).where(lt(probeResults.at, now - HOUR_RETENTION_MS)),
    cronRunsPrune(db, now),
  ]);
}
