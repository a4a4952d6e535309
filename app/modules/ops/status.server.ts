import { DAY_MS, MINUTE_MS } from "~/lib/dates";
import { and, desc, eq, gte, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { probeResults, statusIncidents } from "~/db/schema";
import { NO_ROUTE } from "./metrics";
import { errorRatePct, readMetric } from "./readings.server";
import { latestProbeRun } from "./thresholds.server";
import {
  ERROR_RATE_COMPONENTS,
  PUBLIC_ERROR_RATE_PCT,
  PUBLIC_ERROR_WINDOW_MINUTES,
  PUBLIC_MIN_REQUESTS,
  STATUS_COMPONENTS,
  UPTIME_DAYS,
  type ComponentState,
  type StatusComponentId,
} from "./status";

// /status: customer-facing health only. Each part is down when the cron's latest check of something it
// needs failed, degraded when the app's or the API's requests fail with server errors past the public rate, or while
// an incident about it is open; its uptime per day for 90 days is the share of probe runs that day in which
// everything it needs answered. Internal readings and their alerts (page speed, render time, e-mail backlog, probe
// latency) stay in the Operations Center: they open no "Degraded" here. A day with no probe run shows as no data.

/** Server errors (5xx) among the app's and the API's requests over the public window; null rate with no requests. */
async function publicErrorRates(db: Db, now: number) {
  const { routes } = await readMetric(db, "request", now - PUBLIC_ERROR_WINDOW_MINUTES * MINUTE_MS, now);
  const part = (route: string): (typeof ERROR_RATE_COMPONENTS)[number] =>
    route === NO_ROUTE || route === "/api" || route.startsWith("/api/") ? "api" : "app";
  const totals = { app: { n: 0, errors: 0 }, api: { n: 0, errors: 0 } };
  for (const r of routes) {
    totals[part(r.route)].n += r.n;
    totals[part(r.route)].errors += r.errors;
  }
  const rate = (t: { n: number; errors: number }) => ({
    requests: t.n,
    errors: t.errors,
    ratePct: errorRatePct({ n: t.n, errors: t.errors, p50: null, p75: null, p95: null }),
  });
  return { app: rate(totals.app), api: rate(totals.api) };
}

/** Whether server errors make a part degraded on the public page (too few requests say nothing either way). */
const errorsDegrade = (e: { requests: number; ratePct: number | null }) =>
  e.requests >= PUBLIC_MIN_REQUESTS && e.ratePct !== null && e.ratePct > PUBLIC_ERROR_RATE_PCT;

export async function loadStatus(db: Db, now: number) {
  const from = now - (now % DAY_MS) - (UPTIME_DAYS - 1) * DAY_MS;
  const [latest, runs, failures, incidents, errorRates] = await Promise.all([
    latestProbeRun(db, now),
    // Probe runs per UTC day (a run is one instant at which every component was probed).
    db
      .select({
        day: sql<number>`${probeResults.at} - (${probeResults.at} % ${DAY_MS})`.as("day"),
        runs: sql<number>`count(distinct ${probeResults.at})`.as("runs"),
      })
      .from(probeResults)
      .where(and(gte(probeResults.at, from), lte(probeResults.at, now)))
      .groupBy(sql`day`),
    // The failed probes (few): which runs each component missed.
    db
      .select({ at: probeResults.at, component: probeResults.component })
      .from(probeResults)
      .where(and(gte(probeResults.at, from), lte(probeResults.at, now), eq(probeResults.ok, false))),
    recentIncidents(db, now),
    publicErrorRates(db, now),
  ]);
  const runsByDay = new Map(runs.map((r) => [r.day, r.runs]));
  const days = Array.from({ length: UPTIME_DAYS }, (_, i) => from + i * DAY_MS);
  const components = STATUS_COMPONENTS.map((c) => {
    const needs = new Set<string>(c.probes);
    const probes = latest.filter((p) => needs.has(p.component));
    const open = incidents.filter((i) => i.resolvedAt === null && i.component === c.id);
    const errors = c.id === "app" || c.id === "api" ? errorRates[c.id] : null;
    let state: ComponentState = "unknown";
    if (probes.length > 0)
      state = probes.some((p) => !p.ok) ? "down" : open.length > 0 || (errors !== null && errorsDegrade(errors)) ? "degraded" : "operational";
    const failedRuns = new Map<number, Set<number>>();
    for (const f of failures) {
      if (!needs.has(f.component)) continue;
      const day = f.at - (f.at % DAY_MS);
      const set = failedRuns.get(day) ?? new Set<number>();
      set.add(f.at);
      failedRuns.set(day, set);
    }
    const daily = days.map((day) => {
      const total = runsByDay.get(day) ?? 0;
      return { day, uptimePct: total === 0 ? null : ((total - (failedRuns.get(day)?.size ?? 0)) / total) * 100 };
    });
    const known = daily.filter((d) => d.uptimePct !== null);
    const totalRuns = days.reduce((n, day) => n + (runsByDay.get(day) ?? 0), 0);
    const failed = days.reduce((n, day) => n + (failedRuns.get(day)?.size ?? 0), 0);
    return {
      id: c.id as StatusComponentId,
      label: c.label,
      state,
      errors,
      daily,
      uptimePct: known.length === 0 ? null : ((totalRuns - failed) / totalRuns) * 100,
    };
  });
  const overall: ComponentState = components.every((c) => c.state === "unknown")
    ? "unknown"
    : components.some((c) => c.state === "down")
      ? "down"
      : components.some((c) => c.state === "degraded")
        ? "degraded"
        : "operational";
  return { overall, checkedAt: latest[0]?.at ?? null, components, incidents };
}

/** Open incidents and those posted in the last 14 days, newest first, as of `now` (none posted after it). */
export function recentIncidents(db: Db, now: number) {
  return db
    .select()
    .from(statusIncidents)
    .where(and(lte(statusIncidents.openedAt, now), or(isNull(statusIncidents.resolvedAt), gte(statusIncidents.openedAt, now - 14 * DAY_MS))))
    .orderBy(desc(statusIncidents.openedAt))
    .limit(20);
}

export async function postIncident(db: Db, input: { component: StatusComponentId; title: string; body: string }, userId: string, now: number) {
  await db.insert(statusIncidents).values({ ...input, openedAt: now, createdBy: userId });
}

/** Resolves an open incident; false when there is none by that id. */
export async function resolveIncident(db: Db, id: number, now: number): Promise<boolean> {
  const rows = await db
    .update(statusIncidents)
    .set({ resolvedAt: now })
    .where(and(eq(statusIncidents.id, id), isNull(statusIncidents.resolvedAt)))
    .returning({ id: statusIncidents.id });
  return rows.length > 0;
}
