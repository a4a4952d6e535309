import { and, desc, eq, gte, isNull, lte, or, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { probeResults, statusIncidents, systemAlerts } from "~/db/schema";
import { HOUR_MS } from "./metrics";
import { latestProbeRun } from "./thresholds.server";
import { ALERT_COMPONENTS, DEGRADED_MS, STATUS_COMPONENTS, UPTIME_DAYS, type ComponentState, type StatusComponentId } from "./status";

// /status (issue 17): each component's state from the cron's latest probes and the open alerts, its uptime per day for 90 days
// (the share of probe runs that day in which everything it needs answered), and incidents admins posted.
// A day with no probe run shows as no data, never as up.

const DAY_MS = 24 * HOUR_MS;

export async function loadStatus(db: Db, now: number) {
  const from = now - (now % DAY_MS) - (UPTIME_DAYS - 1) * DAY_MS;
  const [latest, runs, failures, incidents, alerts] = await Promise.all([
    latestProbeRun(db, now),
    // Probe runs per UTC day (a run is one instant at which every component was probed).
    db
      .select({ day: sql<number>`${probeResults.at} - (${probeResults.at} % ${DAY_MS})`.as("day"), runs: sql<number>`count(distinct ${probeResults.at})`.as("runs") })
      .from(probeResults)
      .where(and(gte(probeResults.at, from), lte(probeResults.at, now)))
      .groupBy(sql`day`),
    // The failed probes (few): which runs each component missed.
    db.select({ at: probeResults.at, component: probeResults.component }).from(probeResults).where(and(gte(probeResults.at, from), lte(probeResults.at, now), eq(probeResults.ok, false))),
    recentIncidents(db, now),
    db.select({ metricName: systemAlerts.metricName }).from(systemAlerts).where(and(isNull(systemAlerts.resolvedAt), lte(systemAlerts.openedAt, now))),
  ]);
  const runsByDay = new Map(runs.map((r) => [r.day, r.runs]));
  const days = Array.from({ length: UPTIME_DAYS }, (_, i) => from + i * DAY_MS);
  const components = STATUS_COMPONENTS.map((c) => {
    const needs = new Set<string>(c.probes);
    const probes = latest.filter((p) => needs.has(p.component));
    const open = incidents.filter((i) => i.resolvedAt === null && i.component === c.id);
    const alerted = alerts.some((a) => ALERT_COMPONENTS[a.metricName]?.includes(c.id));
    let state: ComponentState = "unknown";
    if (probes.length > 0) state = probes.some((p) => !p.ok) ? "down" : probes.some((p) => p.ms >= DEGRADED_MS) || open.length > 0 || alerted ? "degraded" : "operational";
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
    return { id: c.id as StatusComponentId, label: c.label, state, daily, uptimePct: known.length === 0 ? null : ((totalRuns - failed) / totalRuns) * 100 };
  });
  const overall: ComponentState = components.every((c) => c.state === "unknown") ? "unknown" : components.some((c) => c.state === "down") ? "down" : components.some((c) => c.state === "degraded") ? "degraded" : "operational";
  return { overall, checkedAt: latest[0]?.at ?? null, components, incidents };
}
export type StatusPage = Awaited<ReturnType<typeof loadStatus>>;

/** Open incidents and those posted in the last 14 days, newest first. */
export function recentIncidents(db: Db, now: number) {
  return db
    .select()
    .from(statusIncidents)
    .where(or(isNull(statusIncidents.resolvedAt), gte(statusIncidents.openedAt, now - 14 * DAY_MS)))
    .orderBy(desc(statusIncidents.openedAt))
    .limit(20);
}

export async function postIncident(db: Db, input: { component: StatusComponentId; title: string; body: string }, userId: string, now: number) {
  await db.insert(statusIncidents).values({ ...input, openedAt: now, createdBy: userId });
}

/** Resolves an open incident; false when there is none by that id. */
export async function resolveIncident(db: Db, id: number, now: number): Promise<boolean> {
  const rows = await db.update(statusIncidents).set({ resolvedAt: now }).where(and(eq(statusIncidents.id, id), isNull(statusIncidents.resolvedAt))).returning({ id: statusIncidents.id });
  return rows.length > 0;
}
