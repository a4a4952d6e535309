import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import { AI_QA_CATEGORIES, type AiQaCategory } from "~/modules/ai/eval/rubric";
import { primaryEngine, engineSettings } from "~/modules/ai/quota.server";
import { qaUser } from "~/modules/qa/access.server";
import { AI_TARGETS, percentile, type AiQaEvent, type AiResultEvent } from "~/modules/qa/ai-results";
import { scenarioCounts } from "~/modules/qa/ai-runner.server";

export const meta: MetaFunction = () => [{ title: "AI QA Suite — Porchlight" }];

const ENGINE_NAMES = {
  "workers-ai": "Workers AI",
  gateway: "the AI gateway",
  offline: "the offline drafter",
  fallback: "the fallback text",
} as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { admin } = await qaUser(request, context);
  if (!admin) return data({ admin: false as const }, { status: 403 });
  return {
    admin: true as const,
    counts: scenarioCounts(),
    engine: primaryEngine(engineSettings(context.cloudflare.env, context.config)),
    targets: AI_TARGETS,
  };
}

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
/** 4 → "4 ms", 2500 → "2.5 s". */
const seconds = (ms: number | null) => (ms === null ? "—" : ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(2))} s`);

export default function AiQaPage() {
  const loaded = useLoaderData<typeof loader>();
  const [results, setResults] = useState<AiResultEvent[]>([]);
  const [running, setRunning] = useState<AiQaCategory | "all" | null>(null);
  if (!loaded.admin) {
    return (
      <div role="alert" className={`${card} mx-auto mt-8 max-w-md text-center`}>
        <h1 className="text-2xl font-bold">Access Denied</h1>
        <p className="mt-2 text-stone-700 dark:text-stone-300">You don&apos;t have permission to access this area.</p>
      </div>
    );
  }
  const { counts, engine, targets } = loaded;

  async function run(category: AiQaCategory | "all") {
    setRunning(category);
    setResults((r) => (category === "all" ? [] : r.filter((x) => x.category !== category)));
    try {
      const body = new URLSearchParams(category === "all" ? {} : { category });
      const response = await fetch("/qa-test/run", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body });
      if (!response.ok || !response.body) throw new Error(`answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      let finished: Extract<AiQaEvent, { type: "done" }> | null = null;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const event = JSON.parse(value.data) as AiQaEvent;
        if (event.type === "result") setResults((r) => [...r, event]);
        else if (event.type === "done") finished = event;
      }
      if (!finished) throw new Error("the connection closed before the run finished");
      toast(
        finished.passed === finished.total
          ? { title: "Test Passed", description: `${finished.passed} of ${finished.total} scenarios passed.`, variant: "success" }
          : {
              title: "Test Failed",
              description: `${finished.total - finished.passed} of ${finished.total} scenarios failed.`,
              variant: "destructive",
            },
      );
    } catch (error) {
      toast({ title: "Test execution failed", description: "An error occurred while running the tests", variant: "destructive" });
      console.error(error);
    } finally {
      setRunning(null);
    }
  }

  const passed = results.filter((r) => r.status === "passed").length;
  const all = results.map((r) => r.ms);
  return (
    <>
      <PageHeader
        title="AI QA Suite"
        description={`Every evaluation scenario through ${ENGINE_NAMES[engine]}, the engine this deployment writes with, each answer checked against the rubric and timed.`}
      />
      <section aria-labelledby="ai-qa-summary" className={`${card} mb-6`}>
        <h2 id="ai-qa-summary" className="text-lg font-semibold">
          Success rate
        </h2>
        <p role="status" className="mt-1 text-2xl font-semibold tabular-nums">
          {results.length === 0
            ? running
              ? "Running…"
              : "Not run yet"
            : `${Math.round((passed / results.length) * 100)}% (${passed} of ${results.length})`}
        </p>
        <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
          Answer time p50 {seconds(percentile(all, 50))} (target {seconds(targets.p50Ms)}), p90 {seconds(percentile(all, 90))} (target{" "}
          {seconds(targets.p90Ms)}).
        </p>
        <div className="mt-4 flex flex-wrap gap-2">
          <Button type="button" onClick={() => run("all")} disabled={running !== null} busy={running === "all"} busyLabel="Running…">
            Run All Tests
          </Button>
          <Button type="button" variant="secondary" onClick={() => setResults([])} disabled={running !== null || results.length === 0}>
            Reset
          </Button>
        </div>
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        {AI_QA_CATEGORIES.map((category) => {
          const mine = results.filter((r) => r.category === category);
          const ok = mine.filter((r) => r.status === "passed").length;
          const p50 = percentile(
            mine.map((r) => r.ms),
            50,
          );
          const p90 = percentile(
            mine.map((r) => r.ms),
            90,
          );
          const slow = (p50 !== null && p50 > targets.p50Ms) || (p90 !== null && p90 > targets.p90Ms);
          const headingId = `card-${category.replace(/\W+/g, "-").toLowerCase()}`;
          return (
            <section key={category} aria-labelledby={headingId} className={card}>
              <div className="flex items-start justify-between gap-2">
                <div>
                  <h2 id={headingId} className="text-lg font-semibold">
                    {category}
                  </h2>
                  <p className="text-sm text-stone-600 dark:text-stone-400">{counts[category]} scenarios</p>
                </div>
                <Button
                  type="button"
                  variant="secondary"
                  onClick={() => run(category)}
                  disabled={running !== null}
                  busy={running === category}
                  busyLabel="Running…"
                  aria-label={`Run ${category}`}
                >
                  Run
                </Button>
              </div>
              <p className="mt-3 font-medium tabular-nums">
                {mine.length === 0 ? "Not run yet" : `${ok} of ${mine.length} passed${mine.length < counts[category] ? " so far" : ""}`}
              </p>
              {mine.length > 0 ? (
                <p className={`text-sm tabular-nums ${slow ? "text-red-700 dark:text-red-400" : "text-stone-600 dark:text-stone-400"}`}>
                  p50 {seconds(p50)}, p90 {seconds(p90)}
                  {slow ? " — slower than the targets" : " — within the targets"}
                </p>
              ) : null}
              {mine.some((r) => r.status === "failed") ? (
                <ul className="mt-2 list-disc pl-5 text-sm text-red-800 dark:text-red-300">
                  {mine
                    .filter((r) => r.status === "failed")
                    .map((r) => (
                      <li key={r.id}>
                        <span className="font-medium">{r.about}:</span> {r.details}
                      </li>
                    ))}
                </ul>
              ) : null}
            </section>
          );
        })}
      </div>
    </>
  );
}
