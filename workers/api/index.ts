import { Hono } from "hono";
import { logError } from "~/lib/log.server";
import { probeStorage } from "~/modules/ops/health.server";
import { NO_ROUTE } from "~/modules/ops/metrics";
import { aiApi } from "./ai.api";
import { billingApi } from "./billing.api";
import { calendarApi } from "./calendar.api";
import { contactApi } from "./contact.api";
import { contactsApi } from "./contacts.api";
import { emailEventsApi } from "./email-events.api";
import { leadsApi } from "./leads.api";
import { pushApi } from "./push.api";
import { rumApi } from "./rum.api";
import { searchApi } from "./search.api";
import { stripeApi } from "./stripe.api";
import { syncApi } from "./sync.api";
import type { ApiEnv } from "./api-env";

/** The route pattern each API request was answered by, read once the response is out. */
export const apiRoutes = new WeakMap<Request, string>();

/** JSON endpoints under /api. Each resource gets its own sub-app (workers/api/<resource>.api.ts). */
export const api = new Hono<ApiEnv>().basePath("/api");

// A thrown Response is the answer, as in Remix: readJson (app/lib/body.server.ts) refuses a body it cannot read
// this way, with a 400, 413 or 415 and a JSON `{ ok: false, error }`.
api.use(async (c, next) => {
  try {
    await next();
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    c.res = thrown;
  }
  // The pattern of the handler that answered ("/api/contacts/:id"), for the Operations Center's request
  // timings (workers/worker.ts); this middleware's own "/api/*" means no route matched.
  apiRoutes.set(c.req.raw, c.req.routePath === "/api/*" ? NO_ROUTE : c.req.routePath);
});

// The benchmark's floor: touches no binding, so it measures the Worker's own overhead.
api.get("/ping", (c) => c.text("pong"));

api.get("/health", async (c) => {
  const started = Date.now();
  const { d1, kv, ok } = await probeStorage(c.env);
  return c.json({ status: ok ? "ok" : "degraded", checks: { d1, kv }, ms: Date.now() - started }, ok ? 200 : 503);
});

api.route("/", stripeApi);
api.route("/", emailEventsApi);
api.route("/", billingApi);
api.route("/", contactApi);
api.route("/", contactsApi);
api.route("/", calendarApi);
api.route("/", aiApi);
api.route("/", pushApi);
api.route("/", searchApi);
api.route("/", rumApi);
api.route("/", syncApi);
api.route("/", leadsApi);

api.notFound((c) => c.json({ error: "Not found" }, 404));
api.onError((error, c) => {
  logError("api_error", c.req.routePath, error);
  return c.json({ error: "Something went wrong. Please try again." }, 500);
});
