import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { qaResults, qaRuns, type QaRun } from "~/db/schema";
import type { AppDispatch } from "~/lib/context.server";
import { getConfig, type Env } from "~/lib/env.server";
import { QA_CHECKS, type CheckStatus, type QaCheck, type QaRunContext, type QaSuite } from "./checks.server";
import { releaseVerdict, type Verdict, type VerdictKind } from "./report";

// Runs the QA Dashboard's checks one after another, recording each result as it comes (qa_results)
// and handing it to `emit` (the page's server-sent events). Whatever happens, the cleanups the checks registered
// run at the end, so no throwaway account or scratch row outlives the run.

/** How long one check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 20_000;

interface CheckResultEvent {
  type: "result";
  index: number;
  suite: QaSuite;
  name: string;
  critical: boolean;
  status: CheckStatus;
  details: string;
  ms: number;
}
interface RunCounts {
  passed: number;
  failed: number;
  skipped: number;
  criticalFailed: number;
  total: number;
}
/** The run's end: its counts, whether a critical check failed, and the release verdict (app/modules/qa/report.ts). */
export type QaEvent =
  | { type: "start"; runId: string; total: number }
  | CheckResultEvent
  | { type: "done"; runId: string; counts: RunCounts & { criticalSkipped: number }; blocked: boolean; verdict: VerdictKind; headline: string };

async function runOne(check: QaCheck, q: QaRunContext): Promise<{ status: CheckStatus; details: string; ms: number }> {
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const outcome = await Promise.race([
      check.run(q),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`No answer within ${CHECK_TIMEOUT_MS / 1000} s.`)), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ...outcome, ms: Date.now() - started };
  } catch (error) {
    return { status: "failed", details: error instanceof Error ? error.message : String(error), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

export interface RunOptions {
  env: Env;
  db: Db;
  userId: string;
  origin: string;
  dispatch: AppDispatch;
  emit?: (event: QaEvent) => void | Promise<void>;
  checks?: QaCheck[];
}

/** Runs every check; returns the finished run. A release is blocked when any critical check failed. */
export async function runSystemChecks({
  env,
  db,
  userId,
  origin,
  dispatch,
  emit = () => {},
  checks = QA_CHECKS,
}: RunOptions): Promise<{ run: QaRun; blocked: boolean; verdict: Verdict }> {
  const runId = crypto.randomUUID();
  await db.insert(qaRuns).values({ id: runId, userId, suite: "system", startedAt: Date.now(), total: checks.length });
  await emit({ type: "start", runId, total: checks.length });
  const cleanups: (() => Promise<unknown>)[] = [];
  const q: QaRunContext = { env, db, config: getConfig(env), runId, origin, dispatch, defer: (cleanup) => cleanups.push(cleanup) };
  const counts: RunCounts = { passed: 0, failed: 0, skipped: 0, criticalFailed: 0, total: checks.length };
  let criticalSkipped = 0;
  let status: QaRun["status"] = "cancelled";
  try {
    for (const [index, check] of checks.entries()) {
      const result = await runOne(check, q);
      counts[result.status] += 1;
      if (result.status === "failed" && check.critical) counts.criticalFailed += 1;
      if (result.status === "skipped" && check.critical) criticalSkipped += 1;
      await db.insert(qaResults).values({
        runId,
        userId,
        category: check.suite,
        testName: check.name,
        status: result.status,
        critical: check.critical,
        details: result.details.slice(0, 2_000),
        durationMs: result.ms,
        createdAt: Date.now(),
      });
      await emit({ type: "result", index, suite: check.suite, name: check.name, critical: check.critical, ...result });
    }
    status = "completed";
  } finally {
    // Newest first: a check's later cleanups may depend on its earlier rows.
    for (const cleanup of cleanups.reverse()) {
      await cleanup().catch((error) => console.error(JSON.stringify({ event: "qa_cleanup_failed", runId, message: String(error) })));
    }
    await db
      .update(qaRuns)
      .set({ status, finishedAt: Date.now(), ...counts })
      .where(eq(qaRuns.id, runId));
  }
  const run = (await db.select().from(qaRuns).where(eq(qaRuns.id, runId)).get())!;
  const blocked = counts.criticalFailed > 0;
  const verdict = releaseVerdict({ failed: counts.failed, critical: counts.criticalFailed, criticalSkipped });
  await emit({ type: "done", runId, counts: { ...counts, criticalSkipped }, blocked, verdict: verdict.kind, headline: verdict.headline });
  return { run, blocked, verdict };
}

/**
 * Past runs of both suites, newest first, for the dashboard's history; each with how many of its critical checks
 * were skipped (from its results: one grouped query over the listed runs).
 */
export async function listRuns(db: Db, limit = 20) {
  const runs = await db.select().from(qaRuns).orderBy(desc(qaRuns.startedAt)).limit(limit);
  const ids = runs.map((r) => r.id);
  const skipped =
    ids.length === 0
      ? []
      : await db
          .select({ runId: qaResults.runId, n: count() })
          .from(qaResults)
          .where(and(inArray(qaResults.runId, ids), eq(qaResults.critical, true), eq(qaResults.status, "skipped")))
          .groupBy(qaResults.runId);
  const byRun = new Map(skipped.map((s) => [s.runId, s.n]));
  return runs.map((r) => ({ ...r, criticalSkipped: byRun.get(r.id) ?? 0 }));
}

/** The newest run of one suite that went to its end (a run stopped part-way says nothing about a release). */
export function latestCompletedRun(db: Db, suite: QaRun["suite"]) {
  return db
    .select()
    .from(qaRuns)
    .where(and(eq(qaRuns.suite, suite), eq(qaRuns.status, "completed")))
    .orderBy(desc(qaRuns.startedAt))
    .limit(1)
    .get();
}

export function runResults(db: Db, runId: string) {
  return db.select().from(qaResults).where(eq(qaResults.runId, runId)).orderBy(qaResults.id);
}
