import { DAY_MS, MINUTE_MS } from "~/lib/dates";
import { and, count, desc, gte, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { memoize, type RequestContext } from "~/lib/context.server";
import { errorRollups, systemAlerts, type systemThresholds } from "~/db/schema";
import { emailDeliveryFigures, listDeadEmails } from "~/modules/email/dead-letters.server";
import { listDeadPushes, pushDeliveryFigures } from "~/modules/push/push-delivery.server";
import { loadCronJobs } from "./cron-runs.server";
import { computeMonitoringAggregates, type MonitoringAggregates } from "./aggregates.server";
import { readMetric } from "./readings.server";
import { latestProbeRun, listThresholds, readThresholdMetrics } from "./thresholds.server";
import { CHECK_WINDOW_MINUTES, THRESHOLD_METRICS, thresholdLevel, type ComparisonOperator, type ThresholdMetric } from "./thresholds";
import { statusFromAlerts } from "./monitoring";

// The Operations Center's Monitoring tab: every figure read from what the product recorded, over
// the window it names. A window with no data says so; nothing is filled in.

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

/** A reading the alerts watch, with its threshold and the level it is at (null: within it, or not checked). */
export interface Watch {
  reading: number | null;
  checked: boolean;
  level: "warning" | "critical" | null;
  warning: number | null;
  critical: number | null;
  operator: ComparisonOperator | null;
}

/**
 * The Monitoring tab's figures as of `now`: the last CHECK_WINDOW_MINUTES, the latest probes, the jobs, the alerts and
 * the recent errors read live; the windows of a day or more from `aggregates` (the cron's stored figures) when given,
 * else computed now by the same function. Thresholds from system_thresholds unless given (tests pass their own).
 */
export async function loadMonitoring(
  db: Db,
  /** Every account database (ADR 0060), for the e-mail and push figures summed over them. */
  accounts: readonly Db[],
  now: number,
  given: { thresholds?: (typeof systemThresholds.$inferSelect)[]; aggregates?: MonitoringAggregates | Promise<MonitoringAggregates> } = {},
) {
  const recent = now - CHECK_WINDOW_MINUTES * MINUTE_MS;
  const [load, request, render, heap, probes, jobs, alerts, errors, aggregates, emailFigures, deadEmails, pushFigures, deadPushes] =
    await Promise.all([
      readMetric(db, "load", recent, now),
      readMetric(db, "request", recent, now),
      readMetric(db, "render", recent, now),
      readMetric(db, "heap", recent, now),
      latestProbeRun(db, now),
      loadCronJobs(db, now),
      db
        .select()
        .from(systemAlerts)
        .where(or(isNull(systemAlerts.resolvedAt), gte(systemAlerts.openedAt, now - 7 * DAY_MS)))
        .orderBy(desc(systemAlerts.openedAt))
        .limit(20),
      loadRecentErrors(db, now),
      given.aggregates ?? computeMonitoringAggregates(db, now),
      emailDeliveryFigures(accounts, now),
      listDeadEmails(accounts),
      pushDeliveryFigures(accounts, now),
      listDeadPushes(accounts),
    ]);
  // Each card's state is its reading against the configured threshold the alerts use: the same reading (one
  // definition, handed what was read above) and the same rule (thresholdLevel).
  const [thresholds, current] = await Promise.all([
    given.thresholds ?? listThresholds(db),
    readThresholdMetrics(db, accounts, now, {
      request: request.overall,
      load: load.overall,
      render: render.overall,
      heap: heap.overall,
      uptime24h: aggregates.uptime24h,
      latest: probes,
      email: emailFigures,
      push: pushFigures,
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
  const open = alerts.filter((a) => a.resolvedAt === null);
  return {
    status: statusFromAlerts(open),
    windowMinutes: CHECK_WINDOW_MINUTES,
    watch,
    readings: { load: load.overall, request: request.overall, render: render.overall, heap: heap.overall, ...aggregates.vitals },
    windows: aggregates.windows,
    series: aggregates.series,
    slowest: aggregates.slowest,
    pages: aggregates.pages,
    actions: aggregates.actions,
    errors,
    probes,
    jobs,
    alerts,
    email: { figures: emailFigures, dead: deadEmails.map((d) => ({ ...d, deadAt: d.deadAt?.getTime() ?? null })) },
    push: { figures: pushFigures, dead: deadPushes.map((d) => ({ ...d, deadAt: d.deadAt?.getTime() ?? null })) },
  };
}
export type Monitoring = Awaited<ReturnType<typeof loadMonitoring>>;
