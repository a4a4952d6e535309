import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { qaResults, qaRuns } from "~/db/schema";
import { getConfig, type Env } from "~/lib/env.server";
import type { EngineId } from "~/modules/ai/draft-types";
import { generate } from "~/modules/ai/engines.server";
import { AI_QA_CATEGORIES, categoryOf, gradeDraft, type AiQaCategory } from "~/modules/ai/eval/rubric";
import { SCENARIOS, type Scenario } from "~/modules/ai/eval/scenarios";
import { engineSettings } from "~/modules/ai/quota.server";
import type { AiQaEvent, AiResultEvent } from "./ai-results";

// The AI QA suite (/qa-test): every evaluation scenario through the engine this deployment is configured
// with (Workers AI, the gateway, or the offline drafter), each answer held to the rubric (app/modules/ai/eval/
// rubric.ts) and timed. The spec's targets: an answer in 2.5 s at the median and 5 s at the 90th percentile.

export const scenariosOf = (category?: AiQaCategory): Scenario[] => SCENARIOS.filter((s) => !category || categoryOf(s) === category);
export const scenarioCounts = () => Object.fromEntries(AI_QA_CATEGORIES.map((c) => [c, scenariosOf(c).length])) as Record<AiQaCategory, number>;

/** Runs the scenarios of one card, or all; records and streams each result. */
export async function runAiSuite({
  env,
  db,
  userId,
  category,
  emit = () => {},
}: {
  env: Env;
  db: Db;
  userId: string;
  category?: AiQaCategory;
  emit?: (event: AiQaEvent) => void | Promise<void>;
}) {
  const scenarios = scenariosOf(category);
  const runId = crypto.randomUUID();
  await db.insert(qaRuns).values({ id: runId, userId, suite: "ai", startedAt: Date.now(), total: scenarios.length });
  await emit({ type: "start", runId, total: scenarios.length });
  const settings = engineSettings(env, getConfig(env));
  let passed = 0;
  let status: "completed" | "cancelled" = "cancelled";
  try {
    for (const scenario of scenarios) {
      const started = Date.now();
      let text = "";
      let engine: EngineId | null = null;
      for await (const event of generate(scenario.envelope, settings)) {
        if (event.type === "engine") engine = event.engine;
        if (event.type === "final") text = event.text;
      }
      const ms = Date.now() - started;
      const failures = gradeDraft(scenario, text);
      if (failures.length === 0) passed += 1;
      const result: AiResultEvent = {
        type: "result",
        category: categoryOf(scenario),
        id: scenario.id,
        about: scenario.about,
        status: failures.length === 0 ? "passed" : "failed",
        details: failures.length === 0 ? `${text.length} characters, every rubric point met` : failures.join("; "),
        engine,
        ms,
      };
      await db.insert(qaResults).values({
        runId,
        userId,
        category: result.category,
        testName: `${scenario.id}: ${scenario.about}`,
        status: result.status,
        critical: false,
        details: `${engine ?? "no engine"} · ${result.details}`.slice(0, 2_000),
        durationMs: ms,
        createdAt: Date.now(),
      });
      await emit(result);
    }
    status = "completed";
  } finally {
    await db
      .update(qaRuns)
      .set({ status, finishedAt: Date.now(), passed, failed: scenarios.length - passed })
      .where(eq(qaRuns.id, runId));
  }
  await emit({ type: "done", runId, passed, total: scenarios.length });
  return { runId, passed, total: scenarios.length };
}
