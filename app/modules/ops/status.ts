import * as z from "zod";

// The public status page's components: each is up when the cron's probes of what it needs answer.
// Browser-safe: the Operations Center's incident form lists the same components.

export const STATUS_COMPONENTS = [
  // The recorder (the Operations Center's Durable Object) is not here: the app answers without it.
  { id: "app", label: "App", probes: ["d1", "kv"] },
  { id: "api", label: "API", probes: ["d1", "kv"] },
  { id: "database", label: "Database", probes: ["d1"] },
  { id: "sign-in", label: "Sign-in", probes: ["d1", "kv"] },
  { id: "payments", label: "Payments", probes: ["stripe", "webhooks"] },
  { id: "ai", label: "AI", probes: ["ai"] },
] as const;
export type StatusComponentId = (typeof STATUS_COMPONENTS)[number]["id"];

/**
 * What the public page counts as customer-facing health, written on the page from these figures. A part is down
 * when the latest check of something it needs failed; the app's pages and the API are degraded when more than
 * PUBLIC_ERROR_RATE_PCT of their requests in the last PUBLIC_ERROR_WINDOW_MINUTES were answered with a server
 * error (once there were at least PUBLIC_MIN_REQUESTS); any part is degraded while an incident about it is open.
 * Internal readings (page speed, render time, e-mail backlog, probe latency...) stay in the Operations Center.
 */
export const PUBLIC_ERROR_RATE_PCT = 5;
export const PUBLIC_MIN_REQUESTS = 20;
export const PUBLIC_ERROR_WINDOW_MINUTES = 15;
/** Whose requests each error rate counts: the API's routes start with /api, the app's are the rest. */
export const ERROR_RATE_COMPONENTS = ["app", "api"] as const satisfies readonly StatusComponentId[];

export type ComponentState = "operational" | "degraded" | "down" | "unknown";
export const COMPONENT_STATE_LABELS: Record<ComponentState, string> = {
  operational: "Operational",
  degraded: "Degraded",
  down: "Down",
  unknown: "No data yet",
};
export const UPTIME_DAYS = 90;

export const IncidentSchema = z.object({
  component: z.enum(STATUS_COMPONENTS.map((c) => c.id) as [StatusComponentId, ...StatusComponentId[]], {
    error: "Choose the part of Porchlight affected.",
  }),
  title: z.string().trim().min(3, "Give the incident a title of at least 3 characters.").max(120, "Keep the title under 120 characters."),
  body: z.string().trim().max(2_000, "Keep the note under 2,000 characters.").default(""),
});
