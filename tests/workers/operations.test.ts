import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, gte, inArray, like } from "drizzle-orm";
import type { ServerBuild } from "@remix-run/cloudflare";
import { describe, expect, it, vi } from "vitest";
import { signInAs, TestBrowser } from "../factories/browser";
import { createUser } from "../factories/users";
import { atFreshWindow, atInstant } from "../factories/dates";
import { createDb } from "~/db/client.server";
import { emailOutbox, errorRollups, metricRollups, probeResults, statusIncidents, systemAlerts, systemThresholds } from "~/db/schema";
import { getConfig, type Env } from "~/lib/env.server";
import { addTo, bucketOf, countOf, decodeHistogram, encodeHistogram, merge, percentile, type Histogram } from "~/modules/ops/histogram";
import { handlerSamples, timeRouteHandlers } from "~/modules/ops/handler-timing";
import { HOUR_MS, MINUTE_MS, NO_ROUTE, queueSamples, RECORDER_SHARDS, SEND_EVERY_MS as SEND_EVERY, type Sample } from "~/modules/ops/metrics";
import { PROBE_COMPONENTS, runProbes } from "~/modules/ops/probes.server";
import { JOBS } from "../../workers/cron";
import { RUM_HOURLY, RUM_RATE } from "~/modules/ops/rum.schema";
import { loadStatus } from "~/modules/ops/status.server";
import { CORE_COMPONENTS, errorRatePct, readMetric, readUptime } from "~/modules/ops/readings.server";
import { THRESHOLD_DEFAULTS, THRESHOLD_METRICS, ThresholdEditSchema, thresholdOrderProblem, type ThresholdMetric } from "~/modules/ops/thresholds";
import { adminAddresses, checkSystemThresholds, listThresholds, readThresholdMetrics, updateThreshold } from "~/modules/ops/thresholds.server";
import { HOUR_RETENTION_MS, MINUTE_RETENTION_MS, prune, rollUpHours } from "~/modules/ops/rollup.server";

// Issue 17: what the Operations Center records and how it keeps it. Instants are built from the real clock
// (rounded to the hour) or far in the past, so the suite passes on any day.

const db = createDb(env.DB);
const shardStub = (n: number) => env.OPS.get(env.OPS.idFromName(`shard-${n}`));
/** Writes out every shard's ended minutes, as the alarms would a minute from now. */
const flushAll = async () => {
  for (let n = 0; n < RECORDER_SHARDS; n++) await shardStub(n).flush(Date.now() + 2 * MINUTE_MS);
};
const within = (value: number | null, expected: number, pct: number) => {
  expect(value).not.toBeNull();
  expect(Math.abs(value! - expected) / expected).toBeLessThanOrEqual(pct / 100);
};

describe("histograms", () => {
  it("reads percentiles back within 5 % on known samples, and merges exactly", () => {
    const all: Histogram = {};
    const low: Histogram = {};
    const high: Histogram = {};
    for (let v = 1; v <= 1000; v++) {
      addTo(all, v);
      addTo(v <= 500 ? low : high, v);
    }
    within(percentile(all, 50), 500, 5);
    within(percentile(all, 75), 750, 5);
    within(percentile(all, 95), 950, 5);
    expect(countOf(all)).toBe(1000);
    expect(merge(merge({}, low), high)).toEqual(all);
    expect(decodeHistogram(encodeHistogram(all))).toEqual(all);
    // A single slow answer among fast ones shows at p95 only when it is more than 5 % of them.
    const mostlyFast: Histogram = {};
    for (let i = 0; i < 99; i++) addTo(mostlyFast, 20);
    addTo(mostlyFast, 3000);
    within(percentile(mostlyFast, 95), 20, 5);
    within(percentile(mostlyFast, 100), 3000, 5);
    expect(percentile({}, 50)).toBeNull();
    expect(bucketOf(0)).toBe(0);
    expect(bucketOf(-5)).toBe(0);
    expect(bucketOf(Number.NaN)).toBe(0);
  });

  it("counts an unreadable stored histogram as nothing", () => {
    for (const text of ["", "not json", "{}", "[[1]]", '[["a", 2]]', "[[-1, 2]]", "[[3, -2]]", null]) expect(decodeHistogram(text)).toEqual({});
    expect(decodeHistogram("[[3, 2], [3, 1], [999, 4]]")).toEqual({ 3: 3 });
  });

});

describe("the request recorder", () => {
  it("holds an isolate's samples for a second at most, and sends at once when the clock has gone back", async () => {
    // Found behind a once-in-a-few-runs failure of the next test: a test that moved the clock an hour ahead
    // (the rate-limit windows) left the last send in the future, and every sample after it waited for 200.
    const sent: Sample[] = [];
    const namespace = { idFromName: (name: string) => name, get: () => ({ record: async (samples: Sample[]) => void sent.push(...samples) }) } as unknown as Env["OPS"];
    const pending: Promise<unknown>[] = [];
    const waitUntil = (promise: Promise<unknown>) => void pending.push(promise);
    const sample = (route: string): Sample[] => [{ metric: "request", route, value: 1, status: 200 }];
    const t = Date.now();
    queueSamples(namespace, sample("/ahead"), waitUntil, t + HOUR_MS);
    queueSamples(namespace, sample("/back"), waitUntil, t);
    queueSamples(namespace, sample("/held"), waitUntil, t + 10);
    await Promise.all(pending);
    const routes = () => sent.map((s) => s.route);
    expect(routes()).toEqual(expect.arrayContaining(["/ahead", "/back"]));
    expect(routes()).not.toContain("/held");
    queueSamples(namespace, sample("/later"), waitUntil, t + SEND_EVERY);
    await Promise.all(pending);
    expect(routes()).toEqual(expect.arrayContaining(["/held", "/later"]));
  });

  it("counts samples per minute in a shard and writes each ended minute to D1 once", async () => {
    const stub = env.OPS.get(env.OPS.idFromName("test-recorder"));
    const route = `/test/${crypto.randomUUID()}`;
    await stub.record([
      { metric: "request", route, value: 10, status: 200 },
      { metric: "request", route, value: 30, status: 500 },
      { metric: "request", route, value: 20, status: 404 },
      { metric: "loader", route, value: 5 },
    ]);
    expect(await stub.pendingSamples()).toBe(4);
    // Nothing is written while the minute is still running.
    await stub.flush(Date.now() - MINUTE_MS);
    expect(await db.select().from(metricRollups).where(eq(metricRollups.route, route))).toEqual([]);
    expect(await stub.flush(Date.now() + 2 * MINUTE_MS)).toBe(false);
    const rows = await db.select().from(metricRollups).where(eq(metricRollups.route, route));
    const request = rows.find((r) => r.metric === "request")!;
    expect(request).toMatchObject({ span: "minute", shard: "test-recorder", n: 3, errors: 1, sum: 60 });
    expect(request.start % MINUTE_MS).toBe(0);
    within(percentile(decodeHistogram(request.histogram), 50), 20, 5);
    expect(rows.find((r) => r.metric === "loader")).toMatchObject({ n: 1, sum: 5 });
    const errors = await db.select().from(errorRollups).where(eq(errorRollups.route, route));
    expect(errors.map((e) => [e.status, e.n]).sort()).toEqual([
      [404, 1],
      [500, 1],
    ]);
    // Flushing again writes nothing twice.
    await stub.flush(Date.now() + 3 * MINUTE_MS);
    expect(await db.select().from(metricRollups).where(eq(metricRollups.route, route))).toHaveLength(2);
    expect(await stub.pendingSamples()).toBe(0);
  });

  it("records each request under its route pattern, never its URL", async () => {
    const id = crypto.randomUUID();
    const since = Date.now() - MINUTE_MS;
    await SELF.fetch(`http://localhost/contacts/${id}`, { redirect: "manual" });
    await SELF.fetch("http://localhost/api/ping");
    await SELF.fetch(`http://localhost/api/no-such-thing/${id}`);
    await SELF.fetch(`http://localhost/no/such/page/${id}`);
    // The recording runs after each answer (waitUntil), a second's worth at a time: keep asking (each request
    // sends what has waited a second) until all four are in, then write them out.
    await vi.waitFor(
      async () => {
        await SELF.fetch("http://localhost/api/ping");
        await flushAll();
        const routes = (await db.select({ route: metricRollups.route }).from(metricRollups).where(and(eq(metricRollups.metric, "request"), gte(metricRollups.start, since - MINUTE_MS)))).map((r) => r.route);
        expect(routes).toEqual(expect.arrayContaining(["/contacts/:id", "/api/ping", NO_ROUTE, "/*"]));
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(await db.select().from(metricRollups).where(like(metricRollups.route, `%${id}%`))).toEqual([]);
    expect(await db.select().from(errorRollups).where(like(errorRollups.route, `%${id}%`))).toEqual([]);
    const notFound = await db.select().from(errorRollups).where(and(eq(errorRollups.route, "/*"), eq(errorRollups.status, 404), gte(errorRollups.start, since - MINUTE_MS)));
    expect(notFound.length).toBeGreaterThan(0);
  });
});

describe("loader and action time", () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
  const fakeBuild = (module: Record<string, unknown>) =>
    ({ routes: { root: { id: "root", path: "", module }, bare: { id: "bare", parentId: "root", path: "x", module: { default: "page" } } } }) as unknown as ServerBuild;
  type Handler = (args: { context: object }) => Promise<unknown>;

  it("times every route's loaders as one span and its action, thrown answers included, and changes nothing else", async () => {
    const thrown = new Response(null, { status: 302 });
    const wrapped = timeRouteHandlers(
      fakeBuild({
        loader: async () => (await tick(), { ok: 1 }),
        action: async () => {
          await tick();
          throw thrown;
        },
        meta: "kept",
      }),
    );
    const root = wrapped.routes.root!.module as unknown as { loader: Handler; action: Handler; meta: string };
    expect(root.meta).toBe("kept");
    expect(wrapped.routes.bare!.module).toEqual({ default: "page" });

    const context = {};
    // Two loaders side by side (a page's layouts and route) count as the span they covered, not their sum.
    const started = Date.now();
    expect(await Promise.all([root.loader({ context }), root.loader({ context })])).toEqual([{ ok: 1 }, { ok: 1 }]);
    const span = Date.now() - started;
    await expect(root.action({ context })).rejects.toBe(thrown);
    const samples = handlerSamples(context, "/x");
    expect(samples.map((s) => [s.metric, s.route])).toEqual([
      ["action", "/x"],
      ["loader", "/x"],
    ]);
    const loader = samples.find((s) => s.metric === "loader")!.value;
    expect(loader).toBeGreaterThanOrEqual(4);
    expect(loader).toBeLessThanOrEqual(span);
    expect(samples.find((s) => s.metric === "action")!.value).toBeGreaterThanOrEqual(4);
    // Another request's context has nothing of this one's.
    expect(handlerSamples({}, "/x")).toEqual([]);
  });

  it("records a page's loader time and a save's action time under their route patterns", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const since = Date.now() - MINUTE_MS;
    expect((await browser.fetch("/dashboard")).status).toBe(200);
    const save = await browser.fetch("/settings", { method: "POST", headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" }, body: "intent=nothing-like-this" });
    // An action that answers (here its refusal of an unknown intent) is timed like any other.
    expect(save.status).toBe(400);
    expect(await save.text()).toContain("Unknown action.");
    await vi.waitFor(
      async () => {
        await SELF.fetch("http://localhost/api/ping");
        await flushAll();
        const rows = await db
          .select({ metric: metricRollups.metric, route: metricRollups.route, n: metricRollups.n })
          .from(metricRollups)
          .where(and(inArray(metricRollups.metric, ["loader", "action"]), gte(metricRollups.start, since - MINUTE_MS)));
        expect(rows).toEqual(expect.arrayContaining([expect.objectContaining({ metric: "loader", route: "/dashboard" }), expect.objectContaining({ metric: "action", route: "/settings" })]));
      },
      { timeout: 10_000, interval: 200 },
    );
  });
});

describe("the web-vitals beacon", () => {
  const ORIGIN = "http://localhost";
  const beacon = (browser: TestBrowser, body: unknown, type = "application/json") =>
    browser.fetch("/api/rum", { method: "POST", headers: { Origin: ORIGIN, "Content-Type": type }, body: typeof body === "string" ? body : JSON.stringify(body) });
  const heapRows = async (since: number) =>
    db.select().from(metricRollups).where(and(eq(metricRollups.metric, "heap"), eq(metricRollups.route, "/operations"), gte(metricRollups.start, since - MINUTE_MS)));

  it("keeps a signed-in page's measurements under its route pattern, and refuses anything odd whole", async () => {
    const since = Date.now();
    const browser = await signInAs(await createUser(env.DB));
    // Refused, each with a sentence, and nothing of them kept (each carries a valid heap reading for /operations).
    const heap = { name: "heap", value: 42 };
    const refusals: [unknown, number, string?][] = [
      [{ route: "routes/_app.operations", metrics: [heap, { name: "lcp", value: 1e12 }] }, 400],
      [{ route: "routes/_app.operations", metrics: [heap, { name: "lcp", value: -1 }] }, 400],
      [{ route: "routes/_app.operations", metrics: [heap, { name: "fid", value: 3 }] }, 400],
      [{ route: "routes/_app.operations", metrics: [heap, heap] }, 400],
      [{ route: "routes/_app.operations", metrics: [heap], url: "/contacts/123" }, 400],
      [{ route: "routes/_app.no-such-page", metrics: [heap] }, 400],
      [{ route: "routes/_app.operations", metrics: [] }, 400],
      [{ route: "routes/_app.operations", metrics: [{ ...heap, pad: "x".repeat(3000) }] }, 413],
      ["{not json", 400],
      [{ route: "routes/_app.operations", metrics: [heap] }, 415, "text/plain"],
    ];
    for (const [body, status, type] of refusals) {
      const response = await beacon(browser, body, type);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(status);
      expect((await response.json<{ error: string }>()).error).toMatch(/\w/);
    }
    // Signed out or unconfirmed: 401; lapsed or never subscribed: 402 (the billing guard). Nothing of theirs is kept.
    expect((await beacon(new TestBrowser(), { route: "routes/_app.operations", metrics: [heap] })).status).toBe(401);
    expect((await beacon(await signInAs(await createUser(env.DB, { verified: false })), { route: "routes/_app.operations", metrics: [heap] })).status).toBe(401);
    for (const status of ["past_due", "canceled", "inactive", "pending_checkout", null] as const) {
      expect((await beacon(await signInAs(await createUser(env.DB, { status })), { route: "routes/_app.operations", metrics: [heap] })).status, String(status)).toBe(402);
    }

    expect((await beacon(browser, { route: "routes/_app.dashboard", metrics: [{ name: "lcp", value: 1234 }, { name: "cls", value: 0.05 }, { name: "load", value: 2100 }] })).status).toBe(204);
    await vi.waitFor(
      async () => {
        await SELF.fetch("http://localhost/api/ping");
        await flushAll();
        const rows = await db.select().from(metricRollups).where(and(eq(metricRollups.route, "/dashboard"), inArray(metricRollups.metric, ["lcp", "cls", "load"]), gte(metricRollups.start, since - MINUTE_MS)));
        expect(new Set(rows.map((r) => r.metric))).toEqual(new Set(["lcp", "cls", "load"]));
        // Layout shift is kept in thousandths.
        within(percentile(decodeHistogram(rows.find((r) => r.metric === "cls")!.histogram), 50), 50, 5);
      },
      { timeout: 10_000, interval: 200 },
    );
    // Samples leave in the order they came: with the good beacon's written, anything the refused ones had
    // queued would be too. There is none.
    expect(await heapRows(since)).toEqual([]);
  });

  it("takes at most 30 beacons a minute from one account", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const ok = { route: "routes/_app.dashboard", metrics: [{ name: "ttfb", value: 80 }] };
    // The limit counts in fixed minutes: the burst runs at the start of one, so it cannot straddle two.
    await atFreshWindow(60, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) statuses.push((await beacon(browser, ok)).status);
      expect(statuses).toEqual([...Array(30).fill(204), 429, 429]);
      const refused = await beacon(browser, ok);
      expect(await refused.json()).toEqual({ ok: false, error: "Too many measurements; try again in a minute." });
    });
  });

  it(`takes at most ${RUM_HOURLY.limit} beacons an hour from one account, however they are spread over its minutes`, async () => {
    // Recording off: these beacons are dated in the next hour and must not land in its readings.
    const browser = (await signInAs(await createUser(env.DB))).using({ ...(env as Env), OPS_RECORDING: "off" });
    const ok = { route: "routes/_app.dashboard", metrics: [{ name: "ttfb", value: 80 }] };
    const perMinute = RUM_RATE.limit;
    // Every minute to its own limit, one minute past the hour's.
    const minutes = Math.ceil(RUM_HOURLY.limit / perMinute) + 1;
    await atFreshWindow(3600, async () => {
      const hourStart = Date.now() - 1000;
      const statuses: number[] = [];
      for (let minute = 0; minute < minutes; minute++) {
        await atInstant(new Date(hourStart + minute * MINUTE_MS + 1000).toISOString(), async () => {
          for (let i = 0; i < perMinute; i++) statuses.push((await beacon(browser, ok)).status);
        });
      }
      expect(statuses.filter((s) => s === 204)).toHaveLength(RUM_HOURLY.limit);
      expect(statuses.slice(RUM_HOURLY.limit)).toEqual(Array(minutes * perMinute - RUM_HOURLY.limit).fill(429));
      // A fresh minute of the same hour: still refused, with the hour's message and when to come back.
      await atInstant(new Date(hourStart + 30 * MINUTE_MS).toISOString(), async () => {
        const refused = await beacon(browser, ok);
        expect(refused.status).toBe(429);
        expect(refused.headers.get("Retry-After")).toBe(String(30 * 60));
        expect(await refused.json()).toEqual({ ok: false, error: "This account has sent its measurements for this hour; try again next hour." });
      });
      // Another account is not held by this one's hour.
      const other = (await signInAs(await createUser(env.DB))).using({ ...(env as Env), OPS_RECORDING: "off" });
      expect((await beacon(other, ok)).status).toBe(204);
    });
  });
});

describe("rollups and retention", () => {
  // An hour long past (in 2001), so nothing the other tests record falls in it.
  const hour = Date.UTC(2001, 2, 4, 10);
  const minuteRow = (minute: number, shard: string, values: number[], errors = 0) => {
    const histogram: Histogram = {};
    for (const v of values) addTo(histogram, v);
    return { span: "minute" as const, start: hour + minute * MINUTE_MS, metric: "request", route: "/rollup-test", shard, n: values.length, errors, sum: values.reduce((a, b) => a + b, 0), histogram: encodeHistogram(histogram) };
  };

  it("rolls an hour's minutes from every shard into one row, again and again to the same result", async () => {
    await db.insert(metricRollups).values([minuteRow(0, "shard-0", [10, 20, 30], 1), minuteRow(0, "shard-1", [40]), minuteRow(59, "shard-0", [1000, 1000], 2)]);
    const rolled = async () => db.select().from(metricRollups).where(and(eq(metricRollups.span, "hour"), eq(metricRollups.route, "/rollup-test")));
    await rollUpHours(db, hour + HOUR_MS + 5 * MINUTE_MS);
    const [first] = await rolled();
    expect(first).toMatchObject({ start: hour, shard: "all", n: 6, errors: 3, sum: 2100 });
    const all: Histogram = {};
    for (const v of [10, 20, 30, 40, 1000, 1000]) addTo(all, v);
    expect(decodeHistogram(first!.histogram)).toEqual(all);
    // A minute written late lands in its hour on the next run; the hour is recomputed, not added to twice.
    await db.insert(metricRollups).values(minuteRow(30, "shard-2", [50]));
    await rollUpHours(db, hour + HOUR_MS + 10 * MINUTE_MS);
    expect(await rolled()).toHaveLength(1);
    expect((await rolled())[0]).toMatchObject({ n: 7, sum: 2150 });
    // An hour that has not ended (plus the shards' minute of delay) is left alone.
    await db.insert(metricRollups).values({ ...minuteRow(0, "shard-0", [5]), start: hour + HOUR_MS });
    await rollUpHours(db, hour + 2 * HOUR_MS + MINUTE_MS);
    expect(await rolled()).toHaveLength(1);
  });

  it("keeps minutes 48 hours and hours and probes 90 days", async () => {
    const now = Date.UTC(2001, 5, 1);
    await db.insert(metricRollups).values([
      { ...minuteRow(0, "prune", [1]), route: "/prune-test", start: now - MINUTE_RETENTION_MS - MINUTE_MS },
      { ...minuteRow(0, "prune", [1]), route: "/prune-test", start: now - MINUTE_RETENTION_MS + MINUTE_MS },
      { ...minuteRow(0, "all", [1]), span: "hour", route: "/prune-test", start: now - HOUR_RETENTION_MS - HOUR_MS },
      { ...minuteRow(0, "all", [1]), span: "hour", route: "/prune-test", start: now - HOUR_RETENTION_MS + HOUR_MS },
    ]);
    await db.insert(probeResults).values([
      { component: "prune-test", at: now - HOUR_RETENTION_MS - 1, ok: true, ms: 1 },
      { component: "prune-test", at: now - HOUR_RETENTION_MS + 1, ok: true, ms: 1 },
    ]);
    await prune(db, now);
    const left = await db.select().from(metricRollups).where(eq(metricRollups.route, "/prune-test"));
    expect(left.map((r) => [r.span, r.start]).sort()).toEqual([
      ["hour", now - HOUR_RETENTION_MS + HOUR_MS],
      ["minute", now - MINUTE_RETENTION_MS + MINUTE_MS],
    ]);
    expect((await db.select().from(probeResults).where(eq(probeResults.component, "prune-test"))).map((p) => p.at)).toEqual([now - HOUR_RETENTION_MS + 1]);
  });
});

describe("readings", () => {
  it("reads a window from hour rows where the cron has rolled up and minute rows after, counting nothing twice", async () => {
    const base = Date.UTC(2001, 7, 1, 12);
    const row = (span: "minute" | "hour", start: number, values: number[], route = "/a", errors = 0) => {
      const histogram: Histogram = {};
      for (const v of values) addTo(histogram, v);
      return { span, start, metric: "render", route, shard: span === "hour" ? "all" : "s", n: values.length, errors, sum: 0, histogram: encodeHistogram(histogram) };
    };
    await db.insert(metricRollups).values([
      // 12:00–13:00 rolled up (its minutes are still kept, and must not count again).
      row("minute", base + 10 * MINUTE_MS, [100, 100]),
      row("hour", base, [100, 100]),
      // 13:00–14:00 rolled up, one route erring.
      row("hour", base + HOUR_MS, [200], "/b", 1),
      // 14:00–14:20: minutes only.
      row("minute", base + 2 * HOUR_MS + 5 * MINUTE_MS, [300, 300, 300], "/b"),
      // Before the window.
      row("hour", base - HOUR_MS, [9999]),
    ]);
    const now = base + 2 * HOUR_MS + 20 * MINUTE_MS;
    const { overall, routes } = await readMetric(db, "render", base, now);
    expect(overall).toMatchObject({ n: 6, errors: 1 });
    within(overall.p50, 200, 5);
    within(overall.p95, 300, 5);
    expect(routes.find((r) => r.route === "/b")).toMatchObject({ n: 4, errors: 1 });
    expect(errorRatePct(overall)).toBeCloseTo(100 / 6);
    // A window starting mid-hour takes that hour's part from its minutes.
    expect((await readMetric(db, "render", base + 5 * MINUTE_MS, now)).overall.n).toBe(6);
    expect((await readMetric(db, "render", base + 30 * MINUTE_MS, now)).overall.n).toBe(4);
    expect(errorRatePct((await readMetric(db, "render", now + HOUR_MS, now + 2 * HOUR_MS)).overall)).toBeNull();
  });

  it("computes uptime from the probe runs in which every core component answered", async () => {
    const base = Date.UTC(2001, 8, 1);
    const run = (minute: number, failing: string[] = []) => CORE_COMPONENTS.map((component) => ({ component, at: base + minute * MINUTE_MS, ok: !failing.includes(component), ms: 3 }));
    await db.insert(probeResults).values([...run(0), ...run(5, ["kv"]), ...run(10), ...run(15)]);
    expect(await readUptime(db, base, base + 20 * MINUTE_MS)).toBe(75);
    expect(await readUptime(db, base + 6 * MINUTE_MS, base + 20 * MINUTE_MS)).toBe(100);
    expect(await readUptime(db, base - HOUR_MS, base)).toBeNull();
  });
});

describe("thresholds and alerts", () => {
  const mailer = () => ({ db, config: getConfig(env as Env) });
  const threshold = (metricName: string, warning: number, critical: number, operator: "greater_than" | "less_than" = "greater_than", enabled = true) => ({
    id: 0,
    metricName,
    enabled,
    warningThreshold: warning,
    criticalThreshold: critical,
    comparisonOperator: operator,
    updatedAt: new Date(),
  });
  const mailsAbout = async (name: string) => (await db.select().from(emailOutbox).where(like(emailOutbox.subject, `%${name}%`))).map((m) => [m.kind, m.toAddress]).sort();

  it("seeds the spec's bands and the rest, listed by metric name", async () => {
    const rows = await listThresholds(db);
    const seeded = rows.filter((r) => (THRESHOLD_METRICS as readonly string[]).includes(r.metricName));
    expect(seeded.map((r) => r.metricName)).toEqual([...THRESHOLD_METRICS]);
    for (const r of seeded) {
      const d = THRESHOLD_DEFAULTS[r.metricName as ThresholdMetric];
      expect([r.warningThreshold, r.criticalThreshold, r.comparisonOperator], r.metricName).toEqual([d.warning, d.critical, d.operator]);
    }
  });

  it("opens an alert once, keeps it while the condition holds, resolves it when it clears, and mails admins once each way", async () => {
    const id = crypto.randomUUID().slice(0, 8);
    const [gt, lt] = [`above_${id}`, `below_${id}`];
    const thresholds = [threshold(gt, 100, 200), threshold(lt, 99.9, 99, "less_than")];
    const check = (readings: Record<string, number | null>, at: number) => checkSystemThresholds(mailer(), at, { thresholds, readings });
    const t0 = Date.now();

    let result = await check({ [gt]: 150, [lt]: 99.95 }, t0);
    expect(result.alerts_triggered).toBe(1);
    expect(result.alerts).toEqual([{ metric_name: gt, level: "warning", reading: 150, threshold: 100, opened_at: t0 }]);
    const admins = await adminAddresses(mailer());
    expect(admins).toContain("listed-admin@example.com");
    expect(await mailsAbout(gt)).toEqual(admins.map((to) => ["ops_alert", to]));

    // Worse: the same alert, now critical, and no second e-mail. The other operator opens its own.
    result = await check({ [gt]: 250, [lt]: 98 }, t0 + 5 * MINUTE_MS);
    expect(result.alerts_triggered).toBe(1);
    expect(result.alerts).toEqual([
      { metric_name: gt, level: "critical", reading: 250, threshold: 200, opened_at: t0 },
      { metric_name: lt, level: "critical", reading: 98, threshold: 99, opened_at: t0 + 5 * MINUTE_MS },
    ]);
    expect(await mailsAbout(gt)).toHaveLength(admins.length);
    // Nothing measured: nothing changes.
    result = await check({ [gt]: null, [lt]: 98 }, t0 + 10 * MINUTE_MS);
    expect(result).toMatchObject({ alerts_triggered: 0, alerts: [{ metric_name: gt }, { metric_name: lt }] });

    result = await check({ [gt]: 50, [lt]: 100 }, t0 + 15 * MINUTE_MS);
    expect(result).toEqual({ alerts_triggered: 0, alerts: [] });
    expect(await mailsAbout(gt)).toEqual(admins.flatMap((to) => [["ops_alert", to], ["ops_alert_resolved", to]]).sort());
    const history = await db.select().from(systemAlerts).where(inArray(systemAlerts.metricName, [gt, lt]));
    expect(history.map((a) => [a.metricName, a.resolvedAt])).toEqual(expect.arrayContaining([[gt, t0 + 15 * MINUTE_MS], [lt, t0 + 15 * MINUTE_MS]]));
    expect(history).toHaveLength(2);
  });

  it("checks nothing a disabled threshold watches, and resolves what it had open", async () => {
    const name = `toggled_${crypto.randomUUID().slice(0, 8)}`;
    const at = Date.now();
    expect((await checkSystemThresholds(mailer(), at, { thresholds: [threshold(name, 1, 2, "greater_than", false)], readings: { [name]: 10 } })).alerts_triggered).toBe(0);
    expect((await checkSystemThresholds(mailer(), at, { thresholds: [threshold(name, 1, 2)], readings: { [name]: 10 } })).alerts_triggered).toBe(1);
    const result = await checkSystemThresholds(mailer(), at + MINUTE_MS, { thresholds: [threshold(name, 1, 2, "greater_than", false)], readings: { [name]: 10 } });
    expect(result.alerts).toEqual([]);
    expect((await db.select().from(systemAlerts).where(eq(systemAlerts.metricName, name)))[0]?.resolvedAt).toBe(at + MINUTE_MS);
  });

  it("saves a toggle and numbers one at a time, and refuses a warning past the critical threshold", async () => {
    const [row] = await db.insert(systemThresholds).values({ metricName: `edit_${crypto.randomUUID().slice(0, 8)}`, warningThreshold: 100, criticalThreshold: 200 }).returning();
    const read = async () => (await db.select().from(systemThresholds).where(eq(systemThresholds.id, row!.id)))[0]!;
    expect(await updateThreshold(db, { id: row!.id, field: "enabled", value: "false" }, Date.now())).toBeNull();
    expect(await updateThreshold(db, { id: row!.id, field: "warning", value: 150 }, Date.now())).toBeNull();
    expect(await updateThreshold(db, { id: row!.id, field: "warning", value: 250 }, Date.now())).toBe("The warning threshold must not be above the critical one.");
    expect(await updateThreshold(db, { id: row!.id, field: "critical", value: 120 }, Date.now())).toBe("The warning threshold must not be above the critical one.");
    expect(await read()).toMatchObject({ enabled: false, warningThreshold: 150, criticalThreshold: 200 });
    expect(await updateThreshold(db, { id: 987_654_321, field: "warning", value: 1 }, Date.now())).toBe("That threshold does not exist.");
    expect(ThresholdEditSchema.safeParse({ field: "warning", id: "1", value: "abc" }).success).toBe(false);
    expect(ThresholdEditSchema.safeParse({ field: "warning", id: "1", value: "-3" }).success).toBe(false);
    expect(ThresholdEditSchema.safeParse({ field: "warning", id: "1", value: "Infinity" }).success).toBe(false);
    expect(ThresholdEditSchema.safeParse({ field: "warning", id: "1", value: "12.5" }).data).toEqual({ field: "warning", id: 1, value: 12.5 });
    expect(thresholdOrderProblem(99, 99.9, "less_than")).toMatch(/must not be below/);
  });

  it("reads every watched metric from the recorded data", async () => {
    const now = Date.UTC(2001, 9, 1, 12, 30);
    const at = now - 2 * MINUTE_MS;
    const probe = (component: string, ok: boolean, ms: number, value: number | null = null) => ({ component, at, ok, ms, value });
    await db.insert(probeResults).values([
      probe("d1", true, 40),
      probe("kv", true, 900),
      probe("durable_object", true, 10),
      probe("outbox", true, 5, 3),
      probe("webhooks", true, 5, 7.5),
      probe("cron", true, 5, 12),
      probe("ai", false, 5),
      { ...probe("ai", true, 5), at: now - HOUR_MS },
    ]);
    const histogram = (values: number[]) => {
      const h: Histogram = {};
      for (const v of values) addTo(h, v);
      return encodeHistogram(h);
    };
    await db.insert(metricRollups).values([
      { span: "minute", start: now - 5 * MINUTE_MS, metric: "request", route: "/x", shard: "s", n: 4, errors: 1, sum: 0, histogram: histogram([10, 10, 10, 900]) },
      { span: "minute", start: now - 5 * MINUTE_MS, metric: "load", route: "/x", shard: "s", n: 2, errors: 0, sum: 0, histogram: histogram([1500, 3000]) },
    ]);
    const r = await readThresholdMetrics(db, now);
    expect(r).toMatchObject({ outbox_backlog: 3, webhook_lag: 7.5, cron_lateness: 12, probe_latency: 900, error_rate: 25, ai_failure_rate: 50, uptime_24h: 100, render_p75: null, memory_p75: null });
    within(r.api_response_p95, 900, 5);
    within(r.page_load_p75, 3000, 5);
  });
});

describe("the cron's probes", () => {
  it("checks every component for real and keeps each result", async () => {
    expect(JOBS["*/5 * * * *"]!.map((job) => job.name)).toContain("opsJob");
    // The probes alone: the whole five-minute run would also purge, remind, back up and mail for every account here.
    const before = Date.now();
    const returned = await runProbes(db, env as Env, { cron: "*/5 * * * *", scheduledTime: before }, before);
    const rows = await db.select().from(probeResults).where(and(inArray(probeResults.component, [...PROBE_COMPONENTS]), eq(probeResults.at, before)));
    expect(rows).toHaveLength(returned.length);
    expect(new Set(rows.map((r) => r.component))).toEqual(new Set(PROBE_COMPONENTS));
    const of = (component: string) => rows.find((r) => r.component === component)!;
    for (const component of ["d1", "kv", "durable_object", "outbox"]) expect(of(component), component).toMatchObject({ ok: true });
    // No model engine here: the probe drafted with the offline drafter, the engine the app would use.
    expect(of("ai")).toMatchObject({ ok: true, detail: "engine: offline" });
    expect(of("stripe")).toMatchObject({ ok: true, detail: "local test checkout (no Stripe keys)" });
    expect(typeof of("outbox").value).toBe("number");
  });
});

describe("the Operations Center page", () => {
  it("is the admins' alone: every other account gets 404 for the page and its actions, and changes nothing", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const [target] = await listThresholds(db);
    for (const path of ["/operations", "/operations?tab=thresholds", "/operations?tab=compliance", "/operations/export.json"]) expect((await browser.get(path)).status, path).toBe(404);
    const post = await browser.post("/operations?tab=thresholds", { intent: "threshold", id: String(target!.id), field: "warning", value: "1" });
    expect(post.status).toBe(404);
    expect((await browser.post("/operations", { intent: "check" })).status).toBe(404);
    expect((await db.select().from(systemThresholds).where(eq(systemThresholds.id, target!.id)))[0]).toEqual(target);
    // Signed out: sent to sign in.
    expect((await new TestBrowser().get("/operations")).status).toBe(302);
  });

  it("shows an admin the readings and thresholds, saves an edit, and refuses a bad one with a message", async () => {
    const browser = await signInAs(await createUser(env.DB, { role: "admin" }));
    const monitoring = await browser.page("/operations");
    expect(monitoring).toContain("Operations Center");
    expect(monitoring).toMatch(/Systems Operational|Degraded|Outage/);
    expect(monitoring).toContain("Uptime and errors");
    const thresholdsPage = await browser.page("/operations?tab=thresholds");
    for (const metric of THRESHOLD_METRICS) expect(thresholdsPage).toContain(metric);
    const [row] = await db.insert(systemThresholds).values({ metricName: `page_${crypto.randomUUID().slice(0, 8)}`, warningThreshold: 10, criticalThreshold: 20 }).returning();
    // As the page's fetcher sends it (single fetch: the .data URL); the answer carries the message.
    const edit = (fields: Record<string, string>) => browser.post("/operations.data?tab=thresholds", { intent: "threshold", id: String(row!.id), ...fields });
    const saved = await edit({ field: "warning", value: "15" });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("warning at 15");
    for (const [fields, message] of [
      [{ field: "warning", value: "abc" }, /must be a number/],
      [{ field: "warning", value: "25" }, /must not be above the critical/],
      [{ field: "enabled", value: "maybe" }, /./],
      [{ field: "colour", value: "1" }, /./],
    ] as const) {
      const refused = await edit(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await refused.text()).toMatch(message);
    }
    expect((await db.select().from(systemThresholds).where(eq(systemThresholds.id, row!.id)))[0]).toMatchObject({ warningThreshold: 15, criticalThreshold: 20, enabled: true });
    const check = await browser.post("/operations.data", { intent: "check" });
    expect(check.status).toBe(200);
    expect(await check.text()).toMatch(/All systems within normal parameters|alerts? open/);
  });
});

describe("the public status page", () => {
  it("shows each part's state from the latest probes and its daily uptime, counting a day with no check as no data", async () => {
    const day = Date.UTC(2001, 10, 5);
    const now = day + 12 * HOUR_MS;
    const run = (at: number, failing: string[] = []) => PROBE_COMPONENTS.map((component) => ({ component, at, ok: !failing.includes(component), ms: component === "ai" ? 2_500 : 20 }));
    // Yesterday: four runs, one with KV failing. Today: two runs, the latest with Stripe failing.
    // One run a statement: D1 binds at most 100 values to one.
    for (const rows of [run(day - 20 * HOUR_MS), run(day - 15 * HOUR_MS, ["kv"]), run(day - 10 * HOUR_MS), run(day - 5 * HOUR_MS), run(now - 2 * HOUR_MS), run(now - 5 * MINUTE_MS, ["stripe"])]) {
      await db.insert(probeResults).values(rows);
    }
    const status = await loadStatus(db, now);
    const of = (id: string) => status.components.find((c) => c.id === id)!;
    expect(of("payments").state).toBe("down");
    expect(of("ai").state).toBe("degraded"); // 2.5 s
    expect(of("database").state).toBe("operational");
    expect(status.overall).toBe("down");
    expect(of("app").daily.at(-1)).toEqual({ day, uptimePct: 100 });
    expect(of("app").daily.at(-2)).toEqual({ day: day - 24 * HOUR_MS, uptimePct: 75 });
    expect(of("database").daily.at(-2)!.uptimePct).toBe(100);
    expect(of("payments").daily.at(-1)!.uptimePct).toBe(50);
    expect(of("app").daily.at(-3)!.uptimePct).toBeNull();
    expect(of("app").daily).toHaveLength(90);
    expect(of("app").uptimePct).toBeCloseTo((5 / 6) * 100);
  });

  it("is public, sends no app scripts, and shows an incident an admin posts until it is resolved", async () => {
    const page = await SELF.fetch("http://localhost/status");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("System status");
    for (const c of ["App", "API", "Database", "Sign-in", "Payments", "AI"]) expect(html).toContain(`>${c}</h3>`);
    expect(html).not.toMatch(/<script[^>]+type="module"/);

    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    const title = `Slow sign-in ${crypto.randomUUID().slice(0, 6)}`;
    // Refused: a component that does not exist, a title too short. Nothing is posted.
    expect((await admin.post("/operations", { intent: "incident", component: "moon", title })).status).toBe(400);
    expect((await admin.post("/operations", { intent: "incident", component: "sign-in", title: "x" })).status).toBe(400);
    // Not an admin: 404, nothing posted.
    const agent = await signInAs(await createUser(env.DB));
    expect((await agent.post("/operations", { intent: "incident", component: "sign-in", title })).status).toBe(404);
    expect(await (await SELF.fetch("http://localhost/status")).text()).not.toContain(title);

    expect((await admin.post("/operations", { intent: "incident", component: "sign-in", title, body: "We are looking into it." })).status).toBe(302);
    const posted = await (await SELF.fetch("http://localhost/status")).text();
    expect(posted).toContain(title);
    expect(posted).toContain("Ongoing.");
    const [incident] = await db.select().from(statusIncidents).where(eq(statusIncidents.title, title));
    expect((await agent.post("/operations", { intent: "resolve-incident", id: String(incident!.id) })).status).toBe(404);
    expect((await admin.post("/operations", { intent: "resolve-incident", id: String(incident!.id) })).status).toBe(302);
    expect((await admin.post("/operations", { intent: "resolve-incident", id: String(incident!.id) })).status).toBe(400);
    expect(await (await SELF.fetch("http://localhost/status")).text()).toMatch(new RegExp(`${title}[\\s\\S]*Resolved`));
  });
});
