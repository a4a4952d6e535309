import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/lib/tenancy.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import type { ReportResult } from "./report";
import { latestCompletedRun, listRuns, runResults } from "./runner.server";

/**
 * What the QA Dashboard shows: the past runs of both suites, the latest system run's results and the latest AI QA
 * run's score. The release verdict is the system checks' alone: an AI QA run (its own suite, /qa-test) never takes
 * its place.
 */
export async function loadQaDashboard(context: RequestContext, request: Request, userId: UserId) {
  const [runs, latest, latestAi, prefs] = await Promise.all([
    listRuns(context.db),
    latestCompletedRun(context.db, "system"),
    latestCompletedRun(context.db, "ai"),
    getDisplayPreferences(context, userId),
  ]);
  const results = latest ? await runResults(context.db, latest.id) : [];
  return {
    prefs,
    host: new URL(request.url).host,
    runs: runs.map((r) => ({
      id: r.id,
      suite: r.suite,
      status: r.status,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      passed: r.passed,
      failed: r.failed,
      skipped: r.skipped,
      criticalFailed: r.criticalFailed,
      criticalSkipped: r.criticalSkipped,
      total: r.total,
    })),
    latest: latest ? { startedAt: latest.startedAt, finishedAt: latest.finishedAt } : null,
    latestAi: latestAi ? { startedAt: latestAi.startedAt, passed: latestAi.passed, total: latestAi.total } : null,
    results: results.map(
      (r): ReportResult => ({ suite: r.category, name: r.testName, critical: r.critical, status: r.status, details: r.details, ms: r.durationMs }),
    ),
  };
}

/** One past run as the dashboard lists it. */
export type QaRunRow = Awaited<ReturnType<typeof loadQaDashboard>>["runs"][number];
