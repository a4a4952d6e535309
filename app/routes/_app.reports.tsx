import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Printer } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { formatCentsWhole, formatDay } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { ColumnChartFigure } from "~/modules/dashboard/components/ColumnChartFigure";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { Bars, ReportEmpty, ReportSection, ReportTableView } from "~/modules/reports/components/ReportParts";
import { periodQuery } from "~/modules/reports/periods";
import { loadReportsInView } from "~/modules/reports/scope.server";
import { AgentPicker } from "~/modules/reports/components/AgentPicker";
import { FollowUpReport } from "~/modules/reports/components/FollowUpReport";
import { IncomeReport } from "~/modules/reports/components/IncomeReport";
import { LeadSourcesReport } from "~/modules/reports/components/LeadSourcesReport";
import { PeriodPicker } from "~/modules/reports/components/PeriodPicker";
import { ReportSummary } from "~/modules/reports/components/ReportSummary";

export const meta: MetaFunction = () => [{ title: "Reports — Porchlight" }];
export const headers = serverTimingHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const reports = await loadReportsInView(request, context);
  return data(reports, { headers: serverTiming("reports", started) });
}

export default function ReportsPage() {
  const r = useLoaderData<typeof loader>();
  const { prefs, period } = r;
  const query = `${periodQuery(period)}${r.agent ? `&agent=${encodeURIComponent(r.agent.id)}` : ""}`;
  const range = `${formatDay(period.from, prefs)} – ${formatDay(period.to, prefs)}`;
  const before = `${formatDay(period.previous.from, prefs)} – ${formatDay(period.previous.to, prefs)}`;
  const money = (cents: number) => formatCentsWhole(cents, prefs);

  return (
    <>
      <PageHeader
        title={r.agent ? `Reports: ${r.agent.name}` : "Reports"}
        description={`${period.label} · ${range}, compared with ${before}`}
        actions={
          <div className="flex gap-2 print:hidden">
            <button type="button" onClick={() => window.print()} className={buttonClass("secondary")}>
              <Printer aria-hidden="true" className="h-5 w-5" />
              Print
            </button>
            <GuideButton page="reports" />
          </div>
        }
      />

      {r.members.length > 1 ? <AgentPicker members={r.members} me={r.me} agent={r.agent?.id ?? null} period={period} /> : null}
      <PeriodPicker path="/reports" period={period} keep={r.agent ? { agent: r.agent.id } : {}} />

      <ReportSummary summary={r.summary} />

      <div className="flex flex-col gap-4">
        <IncomeReport income={r.income} prefs={prefs} agent={r.agent} query={query} />

        <LeadSourcesReport sources={r.sources} agent={r.agent} query={query} />

        <ReportSection id="speed" definition="speed" query={query} downloads={r.speed.empty ? [] : [r.speed.table, r.speed.waiting]}>
          {r.speed.empty ? (
            <ReportEmpty>
              No new lead arrived in this period. When one does, log your first call, text, e-mail or meeting with them and this shows how fast you
              answer.
            </ReportEmpty>
          ) : (
            <>
              <dl className="grid grid-cols-2 gap-3 md:grid-cols-3 lg:grid-cols-6">
                {[
                  ["New leads", r.speed.leads.toLocaleString("en-US")],
                  ["Median", r.speed.median],
                  ["90th percentile", r.speed.p90],
                  ["Within 5 minutes", pct(r.speed.shares.fast)],
                  ["Within an hour", pct(r.speed.shares.hour)],
                  ["Not answered", pct(r.speed.shares.never)],
                ].map(([label, value]) => (
                  <div key={label} className="rounded-xl bg-stone-100 p-3 dark:bg-stone-800">
                    <dt className="text-sm text-stone-700 dark:text-stone-300">{label}</dt>
                    <dd className="text-xl font-bold tabular-nums">{value}</dd>
                  </div>
                ))}
              </dl>
              <Bars rows={r.speed.bars} label="Median time to first answer by source" />
              <ReportTableView table={r.speed.table} />
              {r.speed.waiting.rows.length > 0 ? (
                <>
                  <ReportTableView table={r.speed.waiting} />
                  {r.speed.waitingCount > r.speed.waiting.rows.length ? (
                    <p className="text-sm">{`The oldest ${r.speed.waiting.rows.length} of ${r.speed.waitingCount} waiting.`}</p>
                  ) : null}
                </>
              ) : (
                <p className="text-sm">Every new lead of this period has been answered.</p>
              )}
            </>
          )}
        </ReportSection>

        <ReportSection id="funnel" definition="funnel" query={query} downloads={r.funnel.empty ? [] : [r.funnel.table, r.funnel.lostReasons]}>
          {r.funnel.empty ? (
            <ReportEmpty>
              No deal entered a stage in this period. Add deals and move them through the{" "}
              <Link to="/pipeline" className="font-medium underline underline-offset-4">
                pipeline
              </Link>
              ; each move is recorded here.
            </ReportEmpty>
          ) : (
            <>
              <Bars rows={r.funnel.bars} label="Deals that entered each stage" tone="brand" />
              <p className="text-sm">
                {`Won to lost: ${r.funnel.won.value} to ${r.funnel.lost.value} (before: ${r.funnel.won.previous} to ${r.funnel.lost.previous}). `}
                {r.funnel.averageDealCents === null ? "No deal closed won in the period." : `Average deal size: ${money(r.funnel.averageDealCents)}.`}
              </p>
              <ReportTableView table={r.funnel.table} />
              {r.funnel.lostReasons.rows.length > 0 ? (
                <ReportTableView table={r.funnel.lostReasons} />
              ) : (
                <p className="text-sm">No lost reasons recorded in this period.</p>
              )}
            </>
          )}
        </ReportSection>

        <ReportSection
          id="activity"
          definition="activity"
          query={query}
          downloads={r.activity.empty ? [] : [r.activity.table, r.activity.tasks, r.activity.followUps]}
        >
          {r.activity.empty ? (
            <ReportEmpty>
              No activity, tasks or follow-ups in this period. Log calls, e-mails and showings on a contact, or add{" "}
              <Link to="/tasks" className="font-medium underline underline-offset-4">
                tasks
              </Link>
              , and they are counted here by week.
            </ReportEmpty>
          ) : (
            <>
              <div className="w-full max-w-lg">
                <ColumnChartFigure
                  chart={r.activity.chart}
                  label="Activities by week"
                  tone="brand"
                  formatTick={(value) => value.toLocaleString("en-US")}
                  table={{
                    caption: "Activities logged by week (weeks with none left out)",
                    headers: ["Week of", "Activities"],
                    rows: r.activity.table.rows.map((row) => [row.cells[0]!.text, row.cells.at(-1)!.text]),
                  }}
                />
              </div>
              <ReportTableView table={r.activity.table} />
              <ReportTableView table={r.activity.tasks} />
              {r.activity.followUps.rows.length > 0 ? (
                <>
                  <ReportTableView table={r.activity.followUps} />
                  {r.activity.followUpCount > r.activity.followUps.rows.length ? (
                    <p className="text-sm">{`The ${r.activity.followUps.rows.length} quiet longest of ${r.activity.followUpCount}.`}</p>
                  ) : null}
                </>
              ) : (
                <p className="text-sm">No hot or warm contact has gone 14 days without activity.</p>
              )}
            </>
          )}
        </ReportSection>

        <FollowUpReport followUp={r.followUp} query={query} />
      </div>
    </>
  );
}

const pct = (value: number | null) => (value === null ? "—" : `${value}%`);
