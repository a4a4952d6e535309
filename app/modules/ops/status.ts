import * as z from "zod";

// The public status page's components (issue 17): each is up when the cron's probes of what it needs answer.
// Browser-safe: the Operations Center's incident form lists the same components.

export const STATUS_COMPONENTS = [
  { id: "app", label: "App", probes: ["d1", "kv", "durable_object"] },
  { id: "api", label: "API", probes: ["d1", "kv"] },
  { id: "database", label: "Database", probes: ["d1"] },
  { id: "sign-in", label: "Sign-in", probes: ["d1", "kv"] },
  { id: "payments", label: "Payments", probes: ["stripe", "webhooks"] },
  { id: "ai", label: "AI", probes: ["ai"] },
] as const;
export type StatusComponentId = (typeof STATUS_COMPONENTS)[number]["id"];

/** Which parts an open alert on a reading makes degraded on the status page. */
export const ALERT_COMPONENTS: Record<string, StatusComponentId[]> = {
  page_load_p75: ["app"],
  render_p75: ["app"],
  memory_p75: ["app"],
  api_response_p95: ["app", "api"],
  error_rate: ["app", "api"],
  probe_latency: ["app", "api", "database", "sign-in"],
  uptime_24h: ["app", "api", "database", "sign-in"],
  outbox_backlog: ["sign-in"],
  webhook_lag: ["payments"],
  ai_failure_rate: ["ai"],
};

export type ComponentState = "operational" | "degraded" | "down" | "unknown";
export const COMPONENT_STATE_LABELS: Record<ComponentState, string> = { operational: "Operational", degraded: "Degraded", down: "Down", unknown: "No data yet" };
/** A probe this slow (ms) leaves its component degraded (the Operations Center calls it critical). */
export const DEGRADED_MS = 2_000;
export const UPTIME_DAYS = 90;

export const IncidentSchema = z.object({
  component: z.enum(STATUS_COMPONENTS.map((c) => c.id) as [StatusComponentId, ...StatusComponentId[]], { error: "Choose the part of Porchlight affected." }),
  title: z.string().trim().min(3, "Give the incident a title of at least 3 characters.").max(120, "Keep the title under 120 characters."),
  body: z.string().trim().max(2_000, "Keep the note under 2,000 characters.").default(""),
});
