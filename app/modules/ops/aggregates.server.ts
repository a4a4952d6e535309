import { DAY_MS, HOUR_MS, MINUTE_MS } from "~/lib/dates";
import { and, eq, gte, lt, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { metricRollups, opsAggregates } from "~/db/schema";
import { decodeHistogram, merge, percentile, type Histogram } from "./histogram";
import type { MetricName } from "./metrics";
import { errorRatePct, readMetric, readUptime, rolledUpTo } from "./readings.server";

// The Monitoring tab's figures over a day or more (ADR 0024): uptime, error rate and requests over 24 hours, 7 and
// 30 days, the hourly series, web vitals and the per-route tables. Each is read over thousands of rows, so the
// five-minute cron computes them once and stores them as one row; the page reads that row back. The cron and a read
// that finds no usable row call the same function, so a figure has one definition whoever computes it.

const UPTIME_WINDOWS = [
  { key: "24h", label: "24 hours", ms: DAY_MS },
  { key: "7d", label: "7 days", ms: 7 * DAY_MS },
  { key: "30d", label: "30 days", ms: 30 * DAY_MS },
] as const;

/** The stored row's name. */
const MONITORING = "monitoring";
/** The shape of the stored figures: a row written by a version with another shape is computed again on read. */
const VERSION = 1;
/** Stored figures older than this (the cron has missed three runs) are computed again on read, not shown. */
export const AGGREGATES_MAX_AGE_MS = 15 * MINUTE_MS;

/** Requests per hour and their p95 over the last day (the sparklines), oldest first; the current hour so far last. */
async function hourlySeries(db: Db, metric: MetricName, now: number) {
  const split = rolledUpTo(now);
  const from = split - 23 * HOUR_MS;
  const rows = await db
    .select({
      span: metricRollups.span,
      start: metricRollups.start,
      n: metricRollups.n,
      errors: metricRollups.errors,
      histogram: metricRollups.histogram,
    })
    .from(metricRollups)
    .where(
      and(
        eq(metricRollups.metric, metric),
        or(
          and(eq(metricRollups.span, "hour"), gte(metricRollups.start, from), lt(metricRollups.start, split)),
          and(eq(metricRollups.span, "minute"), gte(metricRollups.start, split)),
        ),
      ),
    );
  const hours = new Map<number, { n: number; errors: number; histogram: Histogram }>();
  for (let h = from; h <= now; h += HOUR_MS) hours.set(h - (h % HOUR_MS), { n: 0, errors: 0, histogram: {} });
  for (const r of rows) {
    const h = r.start - (r.start % HOUR_MS);
    const slot = hours.get(h);
    if (!slot) continue;
    slot.n += r.n;
    slot.errors += r.errors;
    merge(slot.histogram, decodeHistogram(r.histogram));
  }
  return [...hours].map(([start, s]) => ({ start, n: s.n, errors: s.errors, p95: percentile(s.histogram, 95) }));
}

/**
 * The figures over windows of a day or more, as of `now`: about thirty statements whatever the traffic or the number
 * of accounts (rows per route and hour, and per probe run).
 */
export async function computeMonitoringAggregates(db: Db, now: number) {
  const [lcp, inp, cls, ttfb, day, loadDay, loaderDay, actionDay, series, ...windowed] = await Promise.all([
    readMetric(db, "lcp", now - DAY_MS, now),
    readMetric(db, "inp", now - DAY_MS, now),
    readMetric(db, "cls", now - DAY_MS, now),
    readMetric(db, "ttfb", now - DAY_MS, now),
    readMetric(db, "request", now - DAY_MS, now),
    readMetric(db, "load", now - DAY_MS, now),
    readMetric(db, "loader", now - DAY_MS, now),
    readMetric(db, "action", now - DAY_MS, now),
    hourlySeries(db, "request", now),
    ...UPTIME_WINDOWS.map((w) => readUptime(db, now - w.ms, now)),
    ...UPTIME_WINDOWS.map((w) => readMetric(db, "request", now - w.ms, now)),
  ]);
  const uptime = windowed.slice(0, UPTIME_WINDOWS.length) as (number | null)[];
  const requests = windowed.slice(UPTIME_WINDOWS.length) as Awaited<ReturnType<typeof readMetric>>[];
  const loaderP95 = new Map(loaderDay.routes.map((r) => [r.route, r.p95]));
  return {
    uptime24h: uptime[0] ?? null,
    vitals: { lcp: lcp.overall, inp: inp.overall, cls: cls.overall, ttfb: ttfb.overall },
    windows: UPTIME_WINDOWS.map((w, i) => ({
      key: w.key,
      label: w.label,
      uptimePct: uptime[i] ?? null,
      errorRatePct: errorRatePct(requests[i]!.overall),
      requests: requests[i]!.overall.n,
    })),
    series,
    slowest: [...day.routes]
      .filter((r) => r.p95 !== null)
      .sort((a, b) => b.p95! - a.p95!)
      .slice(0, 10)
      .map((r) => ({ ...r, loaderP95: loaderP95.get(r.route) ?? null })),
    // Page loads per page over the day, slowest p75 first: every page (as many as the app has routes), so an
    // admin finds the one a user complained about.
    pages: [...loadDay.routes].filter((r) => r.p75 !== null).sort((a, b) => b.p75! - a.p75!),
    // Form submissions: each route's action time (the work of a save, without the page it then reloads).
    actions: [...actionDay.routes]
      .filter((r) => r.p95 !== null)
      .sort((a, b) => b.p95! - a.p95!)
      .slice(0, 10),
  };
}
export type MonitoringAggregates = Awaited<ReturnType<typeof computeMonitoringAggregates>>;

/** Computes the figures as of `now` and stores them (the cron, every five minutes; a read that found none usable). */
export async function refreshMonitoringAggregates(db: Db, now: number): Promise<MonitoringAggregates> {
  const figures = await computeMonitoringAggregates(db, now);
  const row = { version: VERSION, computedAt: now, body: JSON.stringify(figures) };
  await db
    .insert(opsAggregates)
    .values({ name: MONITORING, ...row })
    .onConflictDoUpdate({ target: opsAggregates.name, set: row });
  return figures;
}

/**
 * The figures as the cron last stored them, with the instant they were computed at. Computed (and stored) now when
 * there is no row yet (a new database), the row is of another shape, older than AGGREGATES_MAX_AGE_MS, or from after
 * `now`: then they are live.
 */
export async function monitoringAggregates(db: Db, now: number): Promise<{ figures: MonitoringAggregates; computedAt: number; live: boolean }> {
  const stored = await db.select().from(opsAggregates).where(eq(opsAggregates.name, MONITORING)).get();
  if (stored && stored.version === VERSION && stored.computedAt <= now && now - stored.computedAt <= AGGREGATES_MAX_AGE_MS) {
    return { figures: JSON.parse(stored.body) as MonitoringAggregates, computedAt: stored.computedAt, live: false };
  }
  return { figures: await refreshMonitoringAggregates(db, now), computedAt: now, live: true };
}
