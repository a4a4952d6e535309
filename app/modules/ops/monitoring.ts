// The Operations Center's bands and badge (issue 17). Browser-safe: the Monitoring tab draws with them.

/** The spec's monitoring bands: good up to the first figure, warning up to the second, critical past it. */
export const BANDS = {
  load: { good: 2000, warning: 5000 },
  request: { good: 500, warning: 2000 },
  render: { good: 100, warning: 500 },
} as const;
/** Bars are drawn against these (spec): memory to 200 MB, latency to 1000 ms. */
export const MEMORY_SCALE_MB = 200;
export const LATENCY_SCALE_MS = 1000;

export type SystemStatus = "operational" | "degraded" | "outage";
export const STATUS_LABELS: Record<SystemStatus, string> = { operational: "Systems Operational", degraded: "Degraded", outage: "Outage" };
/** Alerts on these mean the app cannot serve people, not just that something is slow. */
const OUTAGE_METRICS = new Set(["uptime_24h", "error_rate", "probe_latency"]);

/** The badge: an open critical alert on availability is an outage, any other open alert a degradation. */
export function statusFromAlerts(open: { metricName: string; level: string }[]): SystemStatus {
  if (open.some((a) => a.level === "critical" && OUTAGE_METRICS.has(a.metricName))) return "outage";
  return open.length > 0 ? "degraded" : "operational";
}

