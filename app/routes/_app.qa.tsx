import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { useMemo, useRef, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { Tabs } from "~/components/ui/Tabs";
import { toast } from "~/components/ui/Toaster";
import { formatDate, formatTime } from "~/lib/format";
import { requireQaAdmin } from "~/modules/qa/access.server";
import { buildReport, countResults, releaseVerdict, reportFileName, type ReportResult, type VerdictKind } from "~/modules/qa/report";
import { latestCompletedRun, listRuns, runResults } from "~/modules/qa/runner.server";
import type { QaEvent } from "~/modules/qa/runner.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";

export const meta: MetaFunction = () => [{ title: "QA Dashboard — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireQaAdmin(request, context);
  // The release verdict is the system checks' alone: an AI QA run (its own suite, /qa-test) never takes its place.
  const [runs, latest, latestAi, prefs] = await Promise.all([
    listRuns(context.db),
    latestCompletedRun(context.db, "system"),
    latestCompletedRun(context.db, "ai"),
    getDisplayPreferences(context, user.id),
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

const TABS = [
  { id: "results", label: "Test Results" },
  { id: "report", label: "Summary Report" },
] as const;
const STATUS_TEXT = { passed: "Passed", failed: "Failed", skipped: "Skipped" } as const;
const STATUS_CLASS = {
  passed: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  failed: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  skipped: "bg-stone-200 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
} as const;
const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const VERDICT_CLASS: Record<VerdictKind, string> = {
  blocked: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  unverified: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  warnings: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  safe: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
};
const SUITE_LABEL = { system: "System checks", ai: "AI QA suite" } as const;
const passRate = (passed: number, ran: number) => `${ran > 0 ? Math.round((passed / ran) * 100) : 0}% passed (${passed} of ${ran}`;

export default function QaDashboardPage() {
  const { prefs, host, runs, latest, latestAi, results: stored } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const [tab, setTab] = useState<(typeof TABS)[number]["id"]>("results");
  const [live, setLive] = useState<{ total: number; results: ReportResult[]; startedAt: number; finishedAt: number | null } | null>(null);
  const running = live !== null && live.finishedAt === null;
  const shown = useMemo(() => live ?? (latest ? { ...latest, total: stored.length, results: stored } : null), [live, latest, stored]);
  const counts = countResults(shown?.results ?? []);
  const verdict = shown && !running ? releaseVerdict(counts) : null;
  const total = shown?.total ?? 0;
  const report = useMemo(
    () => (shown ? buildReport({ startedAt: shown.startedAt, finishedAt: shown.finishedAt, host }, shown.results) : ""),
    [shown, host],
  );
  const reportBox = useRef<HTMLTextAreaElement>(null);

  async function runAll() {
    setLive({ total: 0, results: [], startedAt: Date.now(), finishedAt: null });
    try {
      const response = await fetch("/qa/run", { method: "POST" });
      if (!response.ok || !response.body) throw new Error(`answered ${response.status}`);
      const reader = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
      let done = false;
      for (;;) {
        const { value, done: ended } = await reader.read();
        if (ended) break;
        const event = JSON.parse(value.data) as QaEvent;
        if (event.type === "start") setLive((s) => s && { ...s, total: event.total });
        else if (event.type === "result")
          setLive(
            (s) =>
              s && {
                ...s,
                results: [
                  ...s.results,
                  { suite: event.suite, name: event.name, critical: event.critical, status: event.status, details: event.details, ms: event.ms },
                ],
              },
          );
        else if (event.type === "done") {
          done = true;
          setLive((s) => s && { ...s, finishedAt: Date.now() });
          const tally = `${event.counts.passed} passed, ${event.counts.failed} failed, ${event.counts.skipped} skipped.`;
          toast(
            event.verdict === "blocked"
              ? { title: "Test Failed", description: `${event.headline}.`, variant: "destructive" }
              : event.verdict === "unverified"
                ? { title: "Release not verified", description: `${event.headline}. ${tally}`, variant: "destructive" }
                : { title: "Test Passed", description: tally, variant: "success" },
          );
        }
      }
      if (!done) throw new Error("the connection closed before the run finished");
      revalidator.revalidate();
    } catch (error) {
      setLive((s) => s && { ...s, finishedAt: Date.now() });
      toast({ title: "Test execution failed", description: "An error occurred while running the tests", variant: "destructive" });
      console.error(error);
    }
  }

  async function copyReport() {
    try {
      await navigator.clipboard.writeText(report);
      toast({ title: "Report copied", variant: "success" });
    } catch {
      reportBox.current?.select();
      toast({ title: "Select and copy the report", description: "The browser did not allow copying; the text is selected.", variant: "destructive" });
    }
  }

  function downloadReport() {
    if (!shown) return;
    const url = URL.createObjectURL(new Blob([report], { type: "text/markdown;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = reportFileName(shown.startedAt);
    link.click();
    URL.revokeObjectURL(url);
    toast({ title: "Download Started", variant: "success" });
  }

  const done = shown?.results.length ?? 0;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
  const suites = [...new Set((shown?.results ?? []).map((r) => r.suite))];
  return (
    <>
      <PageHeader
        title="QA Dashboard"
        description={`Checks that exercise this deployment (${host}) for real. A release is blocked when any critical check fails, and not verified while one cannot run.`}
      />
      <section aria-labelledby="qa-run-heading" className={`${card} mb-6`}>
        <h2 id="qa-run-heading" className="sr-only">
          Run
        </h2>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="button" onClick={runAll} busy={running} busyLabel="Running…">
            Run All Tests
          </Button>
          <p role="status" className={`rounded-lg px-3 py-1 font-medium ${verdict ? VERDICT_CLASS[verdict.kind] : ""}`}>
            {running ? `Running: ${done} of ${total || "…"} checks done` : verdict ? verdict.headline : "No run yet."}
          </p>
        </div>
        <div className="mt-2 flex flex-col gap-1 text-sm text-stone-600 dark:text-stone-400">
          <p>{`${shown && !running ? `System checks, run ${formatDate(shown.startedAt, prefs)} ${formatTime(shown.startedAt, prefs)}. ` : ""}The release verdict comes from the system checks alone.`}</p>
          <p>
            {latestAi
              ? `AI QA suite, last run ${formatDate(latestAi.startedAt, prefs)} ${formatTime(latestAi.startedAt, prefs)}: ${passRate(latestAi.passed, latestAi.total)}). `
              : "The AI QA suite has not run yet. "}
            <Link to="/qa-test" className="underline underline-offset-4">
              Open the AI QA Suite
            </Link>
          </p>
        </div>
        <div
          className="mt-4 h-3 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
          role="progressbar"
          aria-label="Checks done"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
        >
          <div className="h-full rounded-full bg-brand-700 transition-[width] dark:bg-brand-400" style={{ width: `${percent}%` }} />
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[
            ["Passed", counts.passed],
            ["Failed", counts.failed],
            ["Critical failed", counts.critical],
            ["Total", total],
          ].map(([label, value]) => (
            <div key={label} className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
              <dt className="text-sm text-stone-600 dark:text-stone-300">{label}</dt>
              <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        {counts.skipped > 0 ? (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
            {`${counts.skipped} skipped${counts.criticalSkipped > 0 ? ` (${counts.criticalSkipped} critical)` : ""}: they cannot run on this deployment (the reason is on each).`}
          </p>
        ) : null}
      </section>

      {shown ? (
        <section aria-label="Results" className={`${card} mb-6`}>
          <Tabs label="Results" tabs={TABS} current={tab} onChange={setTab}>
            {tab === "results" ? (
              <div className="flex flex-col gap-6">
                {suites.map((suite) => (
                  <div key={suite}>
                    <h3 className="mb-2 text-lg font-semibold">{suite}</h3>
                    <ul className="divide-y divide-stone-200 dark:divide-stone-800">
                      {shown.results
                        .filter((r) => r.suite === suite)
                        .map((r) => (
                          <li key={r.name} className="py-3">
                            <div className="flex flex-wrap items-center gap-2">
                              <span className={`rounded-full px-2 py-0.5 text-sm font-semibold ${STATUS_CLASS[r.status]}`}>
                                {STATUS_TEXT[r.status]}
                              </span>
                              {r.critical ? (
                                <span className="rounded-full border border-stone-400 px-2 py-0.5 text-xs font-medium dark:border-stone-500">
                                  Critical
                                </span>
                              ) : null}
                              <span className="font-medium">{r.name}</span>
                              <span className="text-sm tabular-nums text-stone-600 dark:text-stone-400">{r.ms} ms</span>
                            </div>
                            <p className="mt-1 break-words text-sm text-stone-700 dark:text-stone-300">{r.details}</p>
                          </li>
                        ))}
                    </ul>
                  </div>
                ))}
                {running ? <p className="text-sm text-stone-600 dark:text-stone-400">More results arrive as each check finishes.</p> : null}
              </div>
            ) : (
              <div className="flex flex-col gap-3">
                <label htmlFor="qa-report" className="font-medium">
                  Summary Report
                </label>
                <textarea
                  id="qa-report"
                  ref={reportBox}
                  readOnly
                  value={report}
                  rows={16}
                  className="w-full rounded-lg border border-stone-300 bg-stone-50 p-3 font-mono text-sm dark:border-stone-700 dark:bg-stone-950"
                />
                <div className="flex flex-wrap gap-2">
                  <Button type="button" variant="secondary" onClick={copyReport} disabled={running}>
                    Copy Report
                  </Button>
                  <Button type="button" variant="secondary" onClick={downloadReport} disabled={running}>
                    Download
                  </Button>
                </div>
              </div>
            )}
          </Tabs>
        </section>
      ) : null}

      <section aria-labelledby="qa-history-heading" className={card}>
        <h2 id="qa-history-heading" className="text-lg font-semibold">
          Past runs
        </h2>
        {runs.length === 0 ? (
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">None yet.</p>
        ) : (
          <ul className="mt-2 divide-y divide-stone-200 text-sm dark:divide-stone-800">
            {runs.map((r) => {
              const ran = r.passed + r.failed;
              const outcome =
                r.status === "completed"
                  ? `${passRate(r.passed, ran)}${r.skipped ? `, ${r.skipped} skipped` : ""})${r.suite === "system" ? ` · ${releaseVerdict({ failed: r.failed, critical: r.criticalFailed, criticalSkipped: r.criticalSkipped }).headline}` : ""}`
                  : r.status === "running"
                    ? "Running"
                    : "Stopped before the end";
              return (
                <li key={r.id} className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
                  <span>
                    <span className="font-semibold">{SUITE_LABEL[r.suite]}</span>
                    {` · ${formatDate(r.startedAt, prefs)} ${formatTime(r.startedAt, prefs)}`}
                  </span>
                  <span>{outcome}</span>
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </>
  );
}
