import type { Env } from "~/lib/env.server";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { createDb } from "~/db/client.server";
import type { systemThresholds } from "~/db/schema";
import { checkSystemThresholds, readThresholdMetrics } from "~/modules/ops/thresholds.server";
import type { ThresholdMetric } from "~/modules/ops/thresholds";
import { requestContext } from "./context";
import { accountDatabases } from "~/modules/shards/databases.server";

/**
 * Checks that `metric`'s seeded rule (warning above 0) alerts on its real reading at `now`: through a threshold of the
 * test's own, so the alert it opens never meets the real one.
 */
export async function expectWarningAbove0(metric: ThresholdMetric, now: number) {
  const own = `${metric}_${crypto.randomUUID().slice(0, 8)}`;
  const threshold: typeof systemThresholds.$inferSelect = {
    id: -1,
    metricName: own,
    enabled: true,
    warningThreshold: 0,
    criticalThreshold: 1_000_000,
    comparisonOperator: "greater_than",
    updatedAt: new Date(now),
  };
  const reading = (await readThresholdMetrics(createDb(env.DB), accountDatabases(env as unknown as Env), now))[metric];
  const result = await checkSystemThresholds({ ...requestContext(), accounts: accountDatabases(env as unknown as Env) }, now, {
    thresholds: [threshold],
    readings: { [own]: reading },
  });
  expect(result.alerts_triggered).toBe(1);
  expect(result.alerts).toEqual([{ metric_name: own, level: "warning", reading, threshold: 0, opened_at: now }]);
}
