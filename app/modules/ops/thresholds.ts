import * as z from "zod";

// The readings the cron checks against system_thresholds (ADR 0024). Browser-safe: the Thresholds
// tab shows the labels and units, and validates an edit with the same rules the server applies.

export const THRESHOLD_METRICS = [
  "ai_failure_rate",
  "api_response_p95",
  "cron_lateness",
  "dead_emails_24h",
  "dead_pushes_24h",
  "error_rate",
  "memory_p75",
  "outbox_backlog",
  "page_load_p75",
  "probe_latency",
  "render_p75",
  "uptime_24h",
  "webhook_lag",
] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
export type ComparisonOperator = "greater_than" | "less_than";

/** The probes whose slowest time is the probe_latency reading (the app cannot answer without them). */
export const CORE_PROBES = ["d1", "kv", "durable_object"] as const;

/** Request and browser readings are checked over the last 15 minutes. */
export const CHECK_WINDOW_MINUTES = 15;

export const THRESHOLD_INFO: Record<ThresholdMetric, { label: string; unit: string; reads: string }> = {
  ai_failure_rate: {
    label: "AI probe failures",
    unit: "%",
    reads: "Share of the cron's AI probes in the last 24 hours in which no engine answered.",
  },
  api_response_p95: {
    label: "Server response time (p95)",
    unit: "ms",
    reads: "95th percentile of every request's time on the server, last 15 minutes.",
  },
  cron_lateness: { label: "Cron lateness", unit: "s", reads: "How late the scheduler's previous run started, at the latest probe." },
  dead_emails_24h: {
    label: "Dead e-mails (24 h)",
    unit: "e-mails",
    reads: "E-mails that ran out of retries in the last 24 hours (the provider refused every attempt).",
  },
  dead_pushes_24h: {
    label: "Dead push messages (24 h)",
    unit: "messages",
    reads: "New-lead alerts and reminders that ran out of retries in the last 24 hours (a push service refused every attempt).",
  },
  error_rate: { label: "Server error rate", unit: "%", reads: "Share of requests answered with a 5xx status, last 15 minutes." },
  memory_p75: {
    label: "JS heap in the browser (p75)",
    unit: "MB",
    reads: "75th percentile of the heap the app's pages used (Chromium browsers report it), last 15 minutes.",
  },
  outbox_backlog: { label: "Outbox backlog", unit: "messages", reads: "E-mails waiting over 5 minutes to be sent, at the latest probe." },
  page_load_p75: { label: "Page load (p75)", unit: "ms", reads: "75th percentile of full page loads in the signed-in app, last 15 minutes." },
  probe_latency: { label: "Slowest core probe", unit: "ms", reads: "The slowest of D1, KV and the Durable Object at the latest probe." },
  render_p75: {
    label: "Render time (p75)",
    unit: "ms",
    reads: "75th percentile of the time from a page being parsed to the app having rendered it (scripts and hydration), last 15 minutes.",
  },
  uptime_24h: {
    label: "Uptime (24 h)",
    unit: "%",
    reads: "Share of the cron's probe runs in the last 24 hours in which D1, KV and the Durable Object all answered.",
  },
  webhook_lag: {
    label: "Webhook delivery lag",
    unit: "s",
    reads: "The slowest Stripe event of the last 24 hours, from Stripe creating it to the app applying it.",
  },
};

/** What migrations 0015, 0037 (dead_emails_24h) and 0038 (dead_pushes_24h) seed. */
export const THRESHOLD_DEFAULTS: Record<ThresholdMetric, { warning: number; critical: number; operator: ComparisonOperator }> = {
  ai_failure_rate: { warning: 10, critical: 50, operator: "greater_than" },
  api_response_p95: { warning: 500, critical: 2000, operator: "greater_than" },
  cron_lateness: { warning: 60, critical: 300, operator: "greater_than" },
  dead_emails_24h: { warning: 0, critical: 10, operator: "greater_than" },
  dead_pushes_24h: { warning: 0, critical: 10, operator: "greater_than" },
  error_rate: { warning: 1, critical: 5, operator: "greater_than" },
  memory_p75: { warning: 100, critical: 200, operator: "greater_than" },
  outbox_backlog: { warning: 10, critical: 100, operator: "greater_than" },
  page_load_p75: { warning: 2000, critical: 5000, operator: "greater_than" },
  probe_latency: { warning: 1000, critical: 2000, operator: "greater_than" },
  render_p75: { warning: 100, critical: 500, operator: "greater_than" },
  uptime_24h: { warning: 99.9, critical: 99, operator: "less_than" },
  webhook_lag: { warning: 60, critical: 600, operator: "greater_than" },
};

/** Whether `reading` is past `threshold` in the operator's direction. */
function passes(reading: number, threshold: number, operator: ComparisonOperator): boolean {
  return operator === "greater_than" ? reading > threshold : reading < threshold;
}

/** The level a reading is at: critical, warning or null (within both). */
function levelOf(reading: number, t: { warning: number; critical: number; operator: ComparisonOperator }): "warning" | "critical" | null {
  if (passes(reading, t.critical, t.operator)) return "critical";
  if (passes(reading, t.warning, t.operator)) return "warning";
  return null;
}

/**
 * The level a configured threshold puts a reading at: null when it is not checked or nothing was read. The one
 * definition behind the alerts and the Monitoring tab's cards.
 */
export function thresholdLevel(
  t: { enabled: boolean; warningThreshold: number; criticalThreshold: number; comparisonOperator: ComparisonOperator },
  reading: number | null,
): "warning" | "critical" | null {
  if (!t.enabled || reading === null) return null;
  return levelOf(reading, { warning: t.warningThreshold, critical: t.criticalThreshold, operator: t.comparisonOperator });
}

const finite = (label: string) =>
  z.coerce
    .number({ error: `${label} must be a number.` })
    .refine(Number.isFinite, `${label} must be a number.`)
    .refine((n) => n >= 0, `${label} cannot be below zero.`)
    .refine((n) => n <= 1e9, `${label} is too large.`);

/** An edit from the Thresholds tab: one field at a time (a toggle, or a number left on blur). */
const thresholdId = z.coerce
  .number({ error: "That threshold does not exist." })
  .int("That threshold does not exist.")
  .positive("That threshold does not exist.");
export const ThresholdEditSchema = z.discriminatedUnion(
  "field",
  [
    z.object({
      field: z.literal("enabled"),
      id: thresholdId,
      value: z.enum(["true", "false"], { error: "Say whether the threshold is checked: true or false." }),
    }),
    z.object({ field: z.literal("warning"), id: thresholdId, value: finite("The warning threshold") }),
    z.object({ field: z.literal("critical"), id: thresholdId, value: finite("The critical threshold") }),
  ],
  { error: "Change the warning or the critical threshold, or whether it is checked." },
);

/** Why a pair of thresholds cannot be saved (the warning must come before the critical one), or null. */
export function thresholdOrderProblem(warning: number, critical: number, operator: ComparisonOperator): string | null {
  if (operator === "greater_than" && warning > critical) return "The warning threshold must not be above the critical one.";
  if (operator === "less_than" && warning < critical) return "The warning threshold must not be below the critical one (lower is worse here).";
  return null;
}
