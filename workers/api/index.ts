import { Hono } from "hono";
import type { Env } from "~/lib/env.server";
import { billingApi } from "./billing.api";
import { stripeApi } from "./stripe.api";

export type ApiEnv = { Bindings: Env };

/** JSON endpoints under /api. Each resource gets its own sub-app (workers/api/<resource>.api.ts). */
export const api = new Hono<ApiEnv>().basePath("/api");

// The benchmark's floor: touches no binding, so it measures the Worker's own overhead.
api.get("/ping", (c) => c.text("pong"));

api.get("/health", async (c) => {
  const started = Date.now();
  const checks: Record<string, { ok: boolean; ms: number; error?: string }> = {};
  const probe = async (name: string, run: () => Promise<unknown>) => {
    const t0 = Date.now();
    try {
      await run();
      checks[name] = { ok: true, ms: Date.now() - t0 };
    } catch (error) {
      checks[name] = { ok: false, ms: Date.now() - t0, error: error instanceof Error ? error.message : String(error) };
    }
  };
  await Promise.all([probe("d1", () => c.env.DB.prepare("select 1").first()), probe("kv", () => c.env.KV.get("health:probe"))]);
  const ok = Object.values(checks).every((check) => check.ok);
  return c.json({ status: ok ? "ok" : "degraded", checks, ms: Date.now() - started }, ok ? 200 : 503);
});

api.route("/", stripeApi);
api.route("/", billingApi);

api.notFound((c) => c.json({ error: "Not found" }, 404));
api.onError((error, c) => {
  console.error(JSON.stringify({ event: "api_error", path: c.req.path, message: error.message }));
  return c.json({ error: "Something went wrong. Please try again." }, 500);
});
