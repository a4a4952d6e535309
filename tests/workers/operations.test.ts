import { createExecutionContext, createScheduledController, SELF, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, gte, inArray, like } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { errorRollups, metricRollups, probeResults } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { addTo, bucketOf, countOf, decodeHistogram, encodeHistogram, merge, percentile, type Histogram } from "~/modules/ops/histogram";
import { HOUR_MS, loaderMsFrom, MINUTE_MS, NO_ROUTE, RECORDER_SHARDS } from "~/modules/ops/metrics";
import { PROBE_COMPONENTS } from "~/modules/ops/probes.server";
import { CORE_COMPONENTS, errorRatePct, readMetric, readUptime } from "~/modules/ops/readings.server";
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

  it("reads a route's loader time from its Server-Timing header", () => {
    expect(loaderMsFrom("loader;dur=42")).toBe(42);
    expect(loaderMsFrom("db;dur=3, action;dur=7.5")).toBe(7.5);
    expect(loaderMsFrom("render;dur=9")).toBeNull();
    expect(loaderMsFrom(null)).toBeNull();
  });
});

describe("the request recorder", () => {
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
    // The recording runs after each answer (waitUntil): wait until all four are in, then write them out.
    await vi.waitFor(
      async () => {
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

describe("the cron's probes", () => {
  it("checks every component for real and keeps each result", async () => {
    const before = Date.now();
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date(before) }), env as Env, ctx);
    await waitOnExecutionContext(ctx);
    const rows = await db.select().from(probeResults).where(and(inArray(probeResults.component, [...PROBE_COMPONENTS]), gte(probeResults.at, before)));
    expect(new Set(rows.map((r) => r.component))).toEqual(new Set(PROBE_COMPONENTS));
    const of = (component: string) => rows.find((r) => r.component === component)!;
    for (const component of ["d1", "kv", "durable_object", "outbox"]) expect(of(component), component).toMatchObject({ ok: true });
    // No model engine here: the probe drafted with the offline drafter, the engine the app would use.
    expect(of("ai")).toMatchObject({ ok: true, detail: "engine: offline" });
    expect(of("stripe")).toMatchObject({ ok: true, detail: "local test checkout (no Stripe keys)" });
    expect(typeof of("outbox").value).toBe("number");
  });
});
