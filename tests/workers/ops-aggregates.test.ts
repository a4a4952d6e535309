import { DAY_MS, HOUR_MS, MINUTE_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";
import { createDb } from "~/db/client.server";
import { metricRollups, opsAggregates, probeResults, userPreferences } from "~/db/schema";
import { formatTime } from "~/lib/format";
import type { UserId } from "~/lib/tenancy.server";
import {
  AGGREGATES_MAX_AGE_MS,
  computeMonitoringAggregates,
  monitoringAggregates,
  refreshMonitoringAggregates,
} from "~/modules/ops/aggregates.server";
import { addTo, encodeHistogram, type Histogram } from "~/modules/ops/histogram";
import { CORE_COMPONENTS } from "~/modules/ops/readings.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";

// The Monitoring tab's figures over a day or more are computed by the cron and stored; the page reads them back
// (ADR 0024). Each test's rows are its own: an instant far in the past nobody else writes at, or a route of its own.

const db = createDb(env.DB);

const histogram = (values: number[]) => {
  const h: Histogram = {};
  for (const v of values) addTo(h, v);
  return encodeHistogram(h);
};
const rollup = (span: "minute" | "hour", start: number, metric: string, route: string, values: number[], shard = "s", errors = 0) => ({
  span,
  start,
  metric,
  route,
  shard: span === "hour" ? "all" : shard,
  n: values.length,
  errors,
  sum: 0,
  histogram: histogram(values),
});

/** The row of `route` in the page's table (its header cell to the end of its row). */
const rowOf = (page: string, route: string) => {
  const at = page.indexOf(`>${route}</th>`);
  expect(at, route).toBeGreaterThan(-1);
  return page.slice(at, page.indexOf("</tr>", at));
};

describe("the Monitoring tab's stored figures", () => {
  it("are the very figures the live computation gives on the same data, and are read back as stored", async () => {
    // A Tuesday in 2006, minutes past the hour: nothing else in the suite records at this time.
    const now = Date.UTC(2006, 5, 13, 14, 17);
    const hour = now - (now % HOUR_MS);
    await db.insert(metricRollups).values([
      // Rolled-up hours of the last day and week, and minutes of the current hour.
      rollup("hour", hour - 5 * HOUR_MS, "request", "/agg-a", [40, 40, 60], "s", 1),
      rollup("hour", hour - 3 * DAY_MS, "request", "/agg-a", [80, 80]),
      rollup("hour", hour - 20 * DAY_MS, "request", "/agg-b", [900]),
      rollup("minute", hour + 5 * MINUTE_MS, "request", "/agg-b", [500, 700]),
      rollup("minute", hour + 5 * MINUTE_MS, "loader", "/agg-b", [300, 400]),
      rollup("minute", hour + 6 * MINUTE_MS, "load", "/agg-b", [1200, 1300, 1400]),
      rollup("minute", hour + 6 * MINUTE_MS, "action", "/agg-a", [90]),
      rollup("minute", hour + 7 * MINUTE_MS, "lcp", "/agg-b", [1800, 2500]),
    ]);
    // Probe runs every five minutes over the last two hours; one run of the last day has a core component failing.
    // One statement a run: D1 binds at most 100 values to one.
    const runs = Array.from({ length: 24 }, (_, i) => now - (i + 1) * 5 * MINUTE_MS);
    const [firstRun, ...otherRuns] = runs.map((at, i) =>
      db.insert(probeResults).values(CORE_COMPONENTS.map((component) => ({ component, at, ok: !(i === 3 && component === "kv"), ms: 5 }))),
    );
    await db.batch([firstRun!, ...otherRuns]);

    const stored = await refreshMonitoringAggregates(db, now);
    const live = await computeMonitoringAggregates(db, now);
    expect(stored).toEqual(live);
    // Not an empty comparison: the windows and tables hold what was made above.
    expect(stored.windows.map((w) => [w.key, w.requests, w.uptimePct])).toEqual([
      ["24h", 5, (23 / 24) * 100],
      ["7d", 7, (23 / 24) * 100],
      ["30d", 8, (23 / 24) * 100],
    ]);
    expect(stored.windows[0]!.errorRatePct).toBeCloseTo(20);
    expect(stored.uptime24h).toBeCloseTo((23 / 24) * 100);
    expect(stored.slowest.map((r) => [r.route, r.n])).toEqual([
      ["/agg-b", 2],
      ["/agg-a", 3],
    ]);
    expect(stored.slowest[0]!.loaderP95).not.toBeNull();
    expect(stored.pages.map((r) => [r.route, r.n])).toEqual([["/agg-b", 3]]);
    expect(stored.actions.map((r) => [r.route, r.n])).toEqual([["/agg-a", 1]]);
    expect(stored.vitals.lcp.n).toBe(2);

    // Read back a minute later: the stored figures, as of when they were computed, whatever changed since.
    await db.insert(metricRollups).values(rollup("minute", hour + 10 * MINUTE_MS, "request", "/agg-a", [50, 50, 50]));
    const read = await monitoringAggregates(db, now + MINUTE_MS);
    expect(read).toEqual({ figures: live, computedAt: now, live: false });
    expect(read.figures.windows[0]!.requests).toBe(5);
  });

  it("are computed again, and stored, when there are none, when they are too old, or from another shape", async () => {
    const now = Date.UTC(2006, 8, 20, 9, 41);
    await db.insert(metricRollups).values(rollup("minute", now - 2 * MINUTE_MS, "request", "/agg-miss", [120, 130]));
    const row = () => db.select().from(opsAggregates).where(eq(opsAggregates.name, "monitoring")).get();

    // None stored (a database the cron has not run on yet): computed for this read, then kept for the next.
    await db.delete(opsAggregates);
    const first = await monitoringAggregates(db, now);
    expect(first).toEqual({ figures: await computeMonitoringAggregates(db, now), computedAt: now, live: true });
    expect(first.figures.windows[0]!.requests).toBe(2);
    expect(await row()).toMatchObject({ computedAt: now, body: JSON.stringify(first.figures) });
    expect(await monitoringAggregates(db, now + MINUTE_MS)).toMatchObject({ computedAt: now, live: false });

    // Older than the cron's runs allow (it has stopped): computed again rather than shown stale.
    const later = now + AGGREGATES_MAX_AGE_MS + MINUTE_MS;
    expect(await monitoringAggregates(db, later)).toMatchObject({ computedAt: later, live: true });
    expect((await row())!.computedAt).toBe(later);

    // Written by a version whose figures had another shape.
    await db.update(opsAggregates).set({ version: 0, body: "{}" }).where(eq(opsAggregates.name, "monitoring"));
    const again = await monitoringAggregates(db, later + MINUTE_MS);
    expect(again).toMatchObject({ computedAt: later + MINUTE_MS, live: true });
    expect(again.figures.windows[0]!.requests).toBe(2);
  });

  it("are what the page shows, as of when the cron computed them, until the next computation", async () => {
    const admin = await createUser(env.DB, { role: "admin" });
    // Kolkata is 5 h 30 min from UTC: a time shown in UTC, or the server's zone, would not match.
    await db.update(userPreferences).set({ timezone: "Asia/Kolkata" }).where(eq(userPreferences.userId, admin.id));
    const prefs = await getDisplayPreferences(requestContext(), admin.id as UserId);
    const browser = await signInAs(admin);
    const route = `/agg-page-${crypto.randomUUID().slice(0, 8)}`;
    const minute = () => {
      const now = Date.now();
      return now - (now % MINUTE_MS) - MINUTE_MS;
    };
    // Four full page loads of a page of this test's own, in the last whole minute.
    await db.insert(metricRollups).values(rollup("minute", minute(), "load", route, [900, 900, 900, 900], "agg-1"));
    const computedAt = Date.now();
    await refreshMonitoringAggregates(db, computedAt);
    // Three more arrive after the cron's run.
    await db.insert(metricRollups).values(rollup("minute", minute(), "load", route, [900, 900, 900], "agg-2"));

    const page = await browser.page("/operations");
    expect(rowOf(page, route)).toMatch(/>4<\/td>$/);
    const asOf = `As of ${formatTime(computedAt, prefs)} · computed every 5 minutes`;
    expect(page.split(asOf)).toHaveLength(4);

    // The next run counts all seven.
    await refreshMonitoringAggregates(db, Date.now());
    expect(rowOf(await browser.page("/operations"), route)).toMatch(/>7<\/td>$/);
  });

  it("are computed for the page, and stored, when none are stored yet", async () => {
    const browser = await signInAs(await createUser(env.DB, { role: "admin" }));
    const route = `/agg-fresh-${crypto.randomUUID().slice(0, 8)}`;
    const now = Date.now();
    await db.insert(metricRollups).values(rollup("minute", now - (now % MINUTE_MS) - MINUTE_MS, "load", route, [700, 700], "agg-1"));
    await db.delete(opsAggregates);

    const before = Date.now();
    const page = await browser.page("/operations");
    const after = Date.now();
    // The live figures, with nothing to say how old they are.
    expect(rowOf(page, route)).toMatch(/>2<\/td>$/);
    expect(page).toContain("Uptime and errors");
    expect(page).not.toContain("As of ");
    const row = await db.select().from(opsAggregates).where(eq(opsAggregates.name, "monitoring")).get();
    expect(row!.computedAt).toBeGreaterThanOrEqual(before);
    expect(row!.computedAt).toBeLessThanOrEqual(after);
    const stored = JSON.parse(row!.body) as Awaited<ReturnType<typeof computeMonitoringAggregates>>;
    expect(stored.pages.find((p) => p.route === route)).toMatchObject({ route, n: 2 });
  });
});
