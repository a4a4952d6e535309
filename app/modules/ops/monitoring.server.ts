import { DAY_MS, HOUR_MS, MINUTE_MS } from "~/lib/dates";
import { and, count, desc, eq, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memoize, type RequestContext } from "~/lib/context.server";
import { errorRollups, metricRollups, systemAlerts, type systemThresholds } from "~/db/schema";
import { loadCronJobs } from "./cron-runs.server";
import { decodeHistogram, merge, percentile, type Histogram } from "./histogram";
import { type MetricName } from "./metrics";
import { errorRatePct, readMetric, readUptime, type Reading, rolledUpTo } from "./readings.server";
import { latestProbeRun, listThresholds, readThresholdMetrics } from "./thresholds.server";
import { CHECK_WINDOW_MINUTES, THRESHOLD_METRICS, thresholdLevel, type ComparisonOperator, type ThresholdMetric } from "./thresholds";
import { statusFromAlerts } from "./monitoring";

// The Operations Center's Monitoring tab: every figure read from what the product recorded, over
// the window it names. A window with no data says so; nothing is filled in.

const UPTIME_WINDOWS = [
  { key: "24h", label: "24 hours", ms: DAY_MS },
  { key: "7d", label: "7 days", ms: 7 * DAY_MS },
  { key: "30d", label: "30 days", ms: 30 * DAY_MS },
] as const;

export async function openAlerts(db: Db) {
  return db.select().from(systemAlerts).where(isNull(systemAlerts.resolvedAt)).orderBy(desc(systemAlerts.openedAt));
}

/** How many alerts are open: a scan of the partial index of open alerts (system_alerts_one_open), which holds only those. */
export function openAlertCountQuery(db: Db) {
  return db.select({ n: count() }).from(systemAlerts).where(isNull(systemAlerts.resolvedAt));
}

/** The admin navigation's badge: the open alerts, read once per request however many loaders ask. */
export function openAlertCount(context: RequestContext): Promise<number> {
  return memoize(context, "ops:open-alert-count", async () => (await openAlertCountQuery(context.db).get())?.n ?? 0);
}

/**
 * Error answers of the last 24 hours, server errors apart: every route and status that answered 5xx (newest first,
 * up to SERVER_ERROR_ROWS), and the 4xx summed by status with their most frequent routes, so a handful of server
 * errors are never buried under hundreds of not-founds.
 */
const SERVER_ERROR_ROWS = 50;
export async function loadRecentErrors(db: Db, now: number) {
  const from = now - DAY_MS;
  const n = sql<number>`sum(${errorRollups.n})`;
  const lastSeen = sql<number>`max(${errorRollups.lastSeen})`;
  const [server, byStatus, topClient] = await db.batch([
    db
      .select({ route: errorRollups.route, status: errorRollups.status, n, lastSeen })
      .from(errorRollups)
      .where(and(gte(errorRollups.start, from), gte(errorRollups.status, 500)))
      .groupBy(errorRollups.route, errorRollups.status)
      .orderBy(desc(lastSeen))
      .limit(SERVER_ERROR_ROWS),
    db
      .select({ status: errorRollups.status, n, routes: sql<number>`count(distinct ${errorRollups.route})`, lastSeen })
      .from(errorRollups)
      .where(and(gte(errorRollups.start, from), lt(errorRollups.status, 500)))
      .groupBy(errorRollups.status)
      .orderBy(desc(n)),
    db
      .select({ route: errorRollups.route, status: errorRollups.status, n, lastSeen })
      .from(errorRollups)
      .where(and(gte(errorRollups.start, from), lt(errorRollups.status, 500)))
      .groupBy(errorRollups.route, errorRollups.status)
      .orderBy(desc(n))
      .limit(10),
  ]);
  return { server, client: { total: byStatus.reduce((sum, s) => sum + s.n, 0), byStatus, top: topClient } };
}

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

/** A reading the alerts watch, with its threshold and the level it is at (null: within it, or not checked). */
export interface Watch {
  reading: number | null;
  checked: boolean;
  level: "warning" | "critical" | null;
  warning: number | null;
  critical: number | null;
  operator: ComparisonOperator | null;
}

/** The Monitoring tab's figures as of `now`; thresholds from system_thresholds unless given (tests pass their own). */
export async function loadMonitoring(db: Db, now: number, given: { thresholds?: (typeof systemThresholds.$inferSelect)[] } = {}) {
  const recent = now - CHECK_WINDOW_MINUTES * MINUTE_MS;
  const [load, request, render, heap, lcp, inp, cls, ttfb, day, loadDay, loaderDay, actionDay, series, probes, jobs, alerts, errors, ...uptimes] =
    await Promise.all([
      readMetric(db, "load", recent, now),
      readMetric(db, "request", recent, now),
      readMetric(db, "render", recent, now),
      readMetric(db, "heap", recent, now),
      readMetric(db, "lcp", now - DAY_MS, now),
      readMetric(db, "inp", now - DAY_MS, now),
      readMetric(db, "cls", now - DAY_MS, now),
      readMetric(db, "ttfb", now - DAY_MS, now),
      readMetric(db, "request", now - DAY_MS, now),
      readMetric(db, "load", now - DAY_MS, now),
      readMetric(db, "loader", now - DAY_MS, now),
      readMetric(db, "action", now - DAY_MS, now),
      hourlySeries(db, "request", now),
      latestProbeRun(db, now),
      loadCronJobs(db, now),
      db
        .select()
        .from(systemAlerts)
        .where(or(isNull(systemAlerts.resolvedAt), gte(systemAlerts.openedAt, now - 7 * DAY_MS)))
        .orderBy(desc(systemAlerts.openedAt))
        .limit(20),
      loadRecentErrors(db, now),
      ...UPTIME_WINDOWS.map((w) => readUptime(db, now - w.ms, now)),
      ...UPTIME_WINDOWS.map((w) => readMetric(db, "request", now - w.ms, now)),
    ]);
  const uptime = uptimes.slice(0, UPTIME_WINDOWS.length) as (number | null)[];
  // Each card's state is its reading against the configured threshold the alerts use: the same reading (one
  // definition, handed what was read above) and the same rule (thresholdLevel).
  const [thresholds, current] = await Promise.all([
    given.thresholds ?? listThresholds(db),
    readThresholdMetrics(db, now, {
      request: request.overall,
      load: load.overall,
      render: render.overall,
      heap: heap.overall,
      uptime24h: uptime[0] ?? null,
      latest: probes,
    }),
  ]);
  const watch = Object.fromEntries(
    THRESHOLD_METRICS.map((metric) => {
      const t = thresholds.find((x) => x.metricName === metric);
      const reading = current[metric];
      const w: Watch = t
        ? {
            reading,
            checked: t.enabled,
            level: thresholdLevel(t, reading),
            warning: t.warningThreshold,
            critical: t.criticalThreshold,
            operator: t.comparisonOperator,
          }
        : { reading, checked: false, level: null, warning: null, critical: null, operator: null };
      return [metric, w];
    }),
  ) as Record<ThresholdMetric, Watch>;
  const requestWindows = uptimes.slice(UPTIME_WINDOWS.length) as { overall: Reading }[];
  const open = alerts.filter((a) => a.resolvedAt === null);
  const loaderP95 = new Map(loaderDay.routes.map((r) => [r.route, r.p95]));
  const slowest = [...day.routes]
    .filter((r) => r.p95 !== null)
    .sort((a, b) => b.p95! - a.p95!)
    .slice(0, 10)
    .map((r) => ({ ...r, loaderP95: loaderP95.get(r.route) ?? null }));
  return {
    status: statusFromAlerts(open),
    windowMinutes: CHECK_WINDOW_MINUTES,
    watch,
    readings: {
      load: load.overall,
      request: request.overall,
      render: render.overall,
      heap: heap.overall,
      lcp: lcp.overall,
      inp: inp.overall,
      cls: cls.overall,
      ttfb: ttfb.overall,
    },
    windows: UPTIME_WINDOWS.map((w, i) => ({
      key: w.key,
      label: w.label,
      uptimePct: uptime[i]!,
      errorRatePct: errorRatePct(requestWindows[i]!.overall),
      requests: requestWindows[i]!.overall.n,
    })),
    series,
    slowest,
    // Page loads per page over the day, slowest p75 first: every page (as many as the app has routes), so an
    // admin finds the one a user complained about.
    pages: [...loadDay.routes].filter((r) => r.p75 !== null).sort((a, b) => b.p75! - a.p75!),
    // Form submissions: each route's action time (the work of a save, without the page it then reloads).
    actions: [...actionDay.routes]
      .filter((r) => r.p95 !== null)
      .sort((a, b) => b.p95! - a.p95!)
      .slice(0, 10),
    errors,
    probes,
    jobs,
    alerts,
  };
}
export type Monitoring = Awaited<ReturnType<typeof loadMonitoring>>;
