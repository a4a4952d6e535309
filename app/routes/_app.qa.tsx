import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { EventSourceParserStream } from "eventsource-parser/stream";
import { useMemo, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button } from "~/components/ui/Button";
import { Tabs } from "~/components/ui/Tabs";
import { toast } from "~/components/ui/Toaster";
import { formatDate, formatTime } from "~/lib/format";
import { requireQaAdmin } from "~/modules/qa/access.server";
import { loadQaDashboard } from "~/modules/qa/dashboard.server";
import { buildReport, countResults, passRate, releaseVerdict, type ReportResult, type VerdictKind } from "~/modules/qa/report";
import type { QaEvent } from "~/modules/qa/runner.server";
import { QaReportPanel } from "~/modules/qa/components/QaReportPanel";
import { QaResultList } from "~/modules/qa/components/QaResultList";
import { QaRunHistory } from "~/modules/qa/components/QaRunHistory";

export const meta: MetaFunction = () => [{ title: "QA Dashboard — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireQaAdmin(request, context);
  return loadQaDashboard(context, request, user.id);
}

const TABS = [
  { id: "results", label: "Test Results" },
  { id: "report", label: "Summary Report" },
] as const;
const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const VERDICT_CLASS: Record<VerdictKind, string> = {
  blocked: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  unverified: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  warnings: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  safe: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
};

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

  const done = shown?.results.length ?? 0;
  const percent = total > 0 ? Math.round((done / total) * 100) : 0;
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
              <QaResultList results={shown.results} running={running} />
            ) : (
              <QaReportPanel report={report} startedAt={shown.startedAt} running={running} />
            )}
          </Tabs>
        </section>
      ) : null}

      <QaRunHistory runs={runs} prefs={prefs} className={card} />
    </>
  );
}
