import { HOUR_MS } from "~/lib/dates";
import { and, count, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { metricRollups, probeResults } from "~/db/schema";
import { decodeHistogram, merge, percentile, type Histogram } from "./histogram";
import { type MetricName } from "./metrics";
import { ROLLUP_DELAY_MS } from "./rollup.server";
import { CORE_PROBES } from "./thresholds";

// Readings over a window, from the recorded rollups (ADR 0024): the hours the cron has rolled up
// come from hour rows, the rest of the window from minute rows, so a day is read as ~24 rows per route
// rather than 1,440 per shard. Nothing here is estimated beyond the histograms' 5 %.

export interface Reading {
  n: number;
  errors: number;
  p50: number | null;
  p75: number | null;
  p95: number | null;
}

export interface RouteReading extends Reading {
  route: string;
}

const summary = (n: number, errors: number, histogram: Histogram): Reading => ({
  n,
  errors,
  p50: percentile(histogram, 50),
  p75: percentile(histogram, 75),
  p95: percentile(histogram, 95),
});

/** Where hour rows stop and minute rows take over: the last hour the cron has surely rolled up by `now`. */
export function rolledUpTo(now: number): number {
  const ended = now - ROLLUP_DELAY_MS;
  return ended - (ended % HOUR_MS);
}

/** One metric over [from, now): overall and per route. */
export async function readMetric(db: Db, metric: MetricName, from: number, now: number): Promise<{ overall: Reading; routes: RouteReading[] }> {
  const split = Math.max(from, Math.min(now, rolledUpTo(now)));
  // Whole hours from the hour rows (an hour that starts before `from` is left to the minutes).
  const hourFrom = from % HOUR_MS === 0 ? from : from - (from % HOUR_MS) + HOUR_MS;
  const minuteSpans = hourFrom < split ? [[from, hourFrom] as const, [split, now] as const] : [[from, now] as const];
  const [hours, ...minutes] = await db.batch([
    db
      .select({ route: metricRollups.route, n: metricRollups.n, errors: metricRollups.errors, histogram: metricRollups.histogram })
      .from(metricRollups)
      .where(
        and(
          eq(metricRollups.span, "hour"),
          eq(metricRollups.metric, metric),
          gte(metricRollups.start, hourFrom),
          lt(metricRollups.start, hourFrom < split ? split : hourFrom),
        ),
      ),
    ...minuteSpans.map(([lo, hi]) =>
      db
        .select({ route: metricRollups.route, n: metricRollups.n, errors: metricRollups.errors, histogram: metricRollups.histogram })
        .from(metricRollups)
        .where(and(eq(metricRollups.span, "minute"), eq(metricRollups.metric, metric), gte(metricRollups.start, lo), lt(metricRollups.start, hi))),
    ),
  ]);
  const byRoute = new Map<string, { n: number; errors: number; histogram: Histogram }>();
  const overall = { n: 0, errors: 0, histogram: {} as Histogram };
  for (const row of [...hours, ...minutes.flat()]) {
    const histogram = decodeHistogram(row.histogram);
    const r = byRoute.get(row.route) ?? { n: 0, errors: 0, histogram: {} };
    r.n += row.n;
    r.errors += row.errors;
    merge(r.histogram, histogram);
    byRoute.set(row.route, r);
    overall.n += row.n;
    overall.errors += row.errors;
    merge(overall.histogram, histogram);
  }
  return {
    overall: summary(overall.n, overall.errors, overall.histogram),
    routes: [...byRoute].map(([route, r]) => ({ route, ...summary(r.n, r.errors, r.histogram) })),
  };
}

/** The share of requests answered with a 5xx status, in percent; null with no requests. */
export function errorRatePct(reading: Reading): number | null {
  return reading.n === 0 ? null : (reading.errors / reading.n) * 100;
}

/** The components whose probes decide whether the app is up: it cannot answer without them. */
export const CORE_COMPONENTS = CORE_PROBES;

/**
 * Uptime over [from, now), in percent: the share of the cron's probe runs in which every core component
 * answered. Null when no probe ran in the window (nothing is known, which is not 100 %). Counted in SQL (a run is
 * up when the lowest `ok` of its core probes is 1), so a month of runs comes back as one row.
 */
export async function readUptime(db: Db, from: number, now: number): Promise<number | null> {
  const runs = db
    .select({ up: sql<number>`min(${probeResults.ok})`.as("up") })
    .from(probeResults)
    .where(and(inArray(probeResults.component, [...CORE_COMPONENTS]), gte(probeResults.at, from), lt(probeResults.at, now)))
    .groupBy(probeResults.at)
    .as("runs");
  const row = await db
    .select({ runs: count(), up: sql<number>`coalesce(sum(${runs.up}), 0)` })
    .from(runs)
    .get();
  if (!row || row.runs === 0) return null;
  return (row.up / row.runs) * 100;
}
