// The Operations Center's badge. Browser-safe. The Monitoring tab's cards take their state from the
// configured thresholds (system_thresholds, the ones the alerts use), not from figures of their own.

export type SystemStatus = "operational" | "degraded" | "outage";
export const STATUS_LABELS: Record<SystemStatus, string> = { operational: "Systems Operational", degraded: "Degraded", outage: "Outage" };
/** Alerts on these mean the app cannot serve people, not just that something is slow. */
const OUTAGE_METRICS = new Set(["uptime_24h", "error_rate", "probe_latency"]);

/** The badge: an open critical alert on availability is an outage, any other open alert a degradation. */
export function statusFromAlerts(open: { metricName: string; level: string }[]): SystemStatus {
  if (open.some((a) => a.level === "critical" && OUTAGE_METRICS.has(a.metricName))) return "outage";
  return open.length > 0 ? "degraded" : "operational";
}
