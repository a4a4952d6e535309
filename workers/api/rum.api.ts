import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { createRequestContext } from "~/lib/context.server";
import { hitRateLimit } from "~/lib/rate-limit.server";
import { getSession } from "~/modules/auth/session.server";
import { patternOfRouteId, queueSamples, type Sample } from "~/modules/ops/metrics";
import { RUM_MAX_BYTES, RUM_RATE, RumBeaconSchema } from "~/modules/ops/rum.schema";
import type { ApiEnv } from "./index";

/**
 * POST /api/rum: a signed-in page's web vitals (app/modules/ops/use-web-vitals.ts sends them with
 * navigator.sendBeacon). Validated whole before anything is kept: a beacon with a bad value, an unknown
 * route or too many bytes is refused with 400 or 413 and records nothing.
 */
export const rumApi = new Hono<ApiEnv>().post("/rum", async (c) => {
  const context = createRequestContext(c.env, c.executionCtx, "");
  const user = (await getSession(context, c.req.raw))?.user;
  if (!user) return c.json({ ok: false, error: "Sign in to send measurements." }, 401);
  const parsed = RumBeaconSchema.safeParse(await readJson(c.req.raw, { maxBytes: RUM_MAX_BYTES, tooLargeMessage: `A beacon may be at most ${RUM_MAX_BYTES.toLocaleString("en-US")} bytes.` }));
  if (!parsed.success) return c.json({ ok: false, error: parsed.error.issues[0]?.message ?? "That beacon is not valid." }, 400);
  const route = patternOfRouteId(parsed.data.route);
  if (!route) return c.json({ ok: false, error: "That route is not one of the app's." }, 400);
  const limit = await hitRateLimit(c.env.KV, "rum", user.id, RUM_RATE);
  if (!limit.allowed) return c.json({ ok: false, error: "Too many measurements; try again in a minute." }, 429, { "Retry-After": String(limit.retryAfterSeconds) });
  if (c.env.OPS_RECORDING !== "off") {
    const samples: Sample[] = parsed.data.metrics.map((m) => ({ metric: m.name, route, value: m.name === "cls" ? m.value * 1000 : m.value }));
    queueSamples(c.env.OPS, samples, (promise) => c.executionCtx.waitUntil(promise));
  }
  return c.body(null, 204);
});
