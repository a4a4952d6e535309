import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ArrowDownRight, ArrowUpRight, Printer } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { formatCentsWhole, formatDay, formatMoneyCompact } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { ColumnChartFigure } from "~/modules/dashboard/components/ColumnChartFigure";
import { Definition } from "~/modules/dashboard/components/MetricDefinition";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import type { SummaryFigure } from "~/modules/reports/build.server";
import { REPORT_DEFINITIONS } from "~/modules/reports/definitions";
import { Bars, ReportEmpty, ReportSection, ReportTableView } from "~/modules/reports/components/ReportParts";
import { periodQuery, type Period } from "~/modules/reports/periods";
import { loadReportsInView } from "~/modules/reports/scope.server";
import { PeriodPicker } from "~/modules/reports/components/PeriodPicker";

export const meta: MetaFunction = () => [{ title: "Reports — Porchlight" }];
export const headers = serverTimingHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const reports = await loadReportsInView(request, context);
  return data(reports, { headers: serverTiming("reports", started) });
}

const SECTIONS = [
  ["income", "Income"],
  ["sources", "Lead sources"],
  ["speed", "Speed to lead"],
  ["funnel", "Pipeline"],
  ["activity", "Activity"],
] as const;

function Change({ figure }: { figure: SummaryFigure }) {
  if (figure.changePct === null) return <span className="text-stone-700 dark:text-stone-300">{`No comparison (before: ${figure.previous})`}</span>;
  const good = figure.changePct === 0 ? null : figure.changePct > 0 === figure.higherIsBetter;
  const Icon = figure.changePct >= 0 ? ArrowUpRight : ArrowDownRight;
  const tone =
    good === null ? "text-stone-700 dark:text-stone-300" : good ? "text-emerald-800 dark:text-emerald-300" : "text-red-800 dark:text-red-300";
  return (
    <span className={`inline-flex items-center gap-1 ${tone}`}>
      <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
      {`${figure.changePct > 0 ? "+" : ""}${figure.changePct}% vs ${figure.previous}`}
    </span>
  );
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

      <ul aria-label="Summary" className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-3">
        {r.summary.map((figure) => (
          <li key={figure.key} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
            <a href={`#${figure.section}`} className="group flex flex-col rounded-md">
              <span className="text-sm font-medium text-stone-600 group-hover:underline group-hover:underline-offset-4 dark:text-stone-400">
                {figure.label}
              </span>
              <span className="mt-1 text-2xl font-bold tabular-nums">{figure.value}</span>
            </a>
            <p className="mt-1 text-sm">
              <Change figure={figure} />
            </p>
          </li>
        ))}
      </ul>

      <nav aria-label="Reports on this page" className="relative -mx-4 mb-4 flex gap-1 overflow-x-auto px-4 print:hidden">
        {SECTIONS.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="inline-flex min-h-12 shrink-0 items-center rounded-lg px-3 text-sm font-medium text-brand-700 underline underline-offset-4 hover:bg-stone-100 dark:text-brand-400 dark:hover:bg-stone-800"
          >
            {label}
          </a>
        ))}
      </nav>

      <div className="flex flex-col gap-4">
        <ReportSection id="income" definition="income" query={query} downloads={r.income.empty ? [] : [r.income.table]}>
          {r.income.empty ? (
            <ReportEmpty>
              No deal closed won in this period, of yours or shared with you. Move a deal to Closed Won in the{" "}
              <Link to="/pipeline" className="font-medium underline underline-offset-4">
                pipeline
              </Link>{" "}
              and its volume, gross commission and agent net appear here by month.
            </ReportEmpty>
          ) : (
            <>
              <div className="w-full max-w-lg">
                <ColumnChartFigure
                  chart={r.income.chart}
                  label="Agent net by month"
                  tone="green"
                  formatTick={(value) => formatMoneyCompact(value, prefs)}
                  table={{
                    caption: "Agent net by month",
                    headers: ["Month", "Agent net"],
                    rows: r.income.table.rows.map((row) => [row.cells[0]!.text, row.cells.at(-1)!.text]),
                  }}
                />
              </div>
              <ReportTableView table={r.income.table} />
            </>
          )}
          <div className="grid gap-3 md:grid-cols-2">
            <div className="relative rounded-xl border border-stone-200 p-3 dark:border-stone-800">
              <h3 className="mr-9 font-semibold">Income goal</h3>
              <DefinitionFor k="goal" />
              {r.income.goal ? (
                <>
                  <p className="mt-1 text-sm">{`${money(r.income.goal.ytdNetCents)} of ${money(r.income.goal.goalCents)} in ${r.income.goal.year} (${r.income.goal.pct}%). On pace today: ${money(r.income.goal.paceCents)}.`}</p>
                  <Progress pct={r.income.goal.pct} label="Share of the income goal earned" />
                </>
              ) : (
                <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
                  {r.agent ? (
                    `${r.agent.name} has set no annual goal.`
                  ) : (
                    <>
                      No annual goal set.{" "}
                      <Link to="/settings?tab=goals" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
                        Set one in Settings → Goals
                      </Link>
                      .
                    </>
                  )}
                </p>
              )}
            </div>
            <div className="relative rounded-xl border border-stone-200 p-3 dark:border-stone-800">
              <h3 className="mr-9 font-semibold">Brokerage cap</h3>
              <DefinitionFor k="cap" />
              {r.income.cap ? (
                <>
                  <p className="mt-1 text-sm">
                    {`${money(r.income.cap.paidCents)} paid of ${money(r.income.cap.capCents)}, ${money(r.income.cap.remainingCents)} to go (cap year ${formatDay(r.income.cap.yearStart, prefs)} – ${formatDay(r.income.cap.yearEnd, prefs)}). `}
                    {r.income.cap.reachedOn
                      ? `Reached on ${formatDay(r.income.cap.reachedOn, prefs)}.`
                      : r.income.cap.projectedOn
                        ? `Projected to be reached on ${formatDay(r.income.cap.projectedOn, prefs)}.`
                        : "Your open deals are not projected to reach it this cap year."}
                  </p>
                  <Progress pct={Math.round((r.income.cap.paidCents / r.income.cap.capCents) * 100)} label="Share of the brokerage cap paid" />
                </>
              ) : (
                <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
                  Your commission plan has no cap.{" "}
                  <Link to="/pipeline/commissions" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
                    Set one under Forecast and commissions
                  </Link>
                  .
                </p>
              )}
            </div>
          </div>
        </ReportSection>

        <ReportSection id="sources" definition="sources" query={query} downloads={r.sources.empty ? [] : [r.sources.table, r.sources.reach]}>
          {r.sources.empty ? (
            <ReportEmpty>
              No contacts added and no deals closed in this period. Record where each contact came from when you{" "}
              <Link to="/contacts" className="font-medium underline underline-offset-4">
                add or import them
              </Link>
              , and this shows which source pays you.
            </ReportEmpty>
          ) : (
            <>
              <Bars rows={r.sources.bars} label="Agent net by lead source" tone="emerald" />
              <ReportTableView table={r.sources.table} />
              {r.sources.hasCosts ? null : (
                <p className="text-sm text-stone-700 dark:text-stone-300">
                  Enter what each source costs you under{" "}
                  <Link to="/settings?tab=goals" className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400">
                    Settings → Goals
                  </Link>{" "}
                  to see cost per lead and return on spend.
                </p>
              )}
              <ReportTableView table={r.sources.reach} />
            </>
          )}
        </ReportSection>

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
      </div>
    </>
  );
}

const pct = (value: number | null) => (value === null ? "—" : `${value}%`);

function Progress({ pct, label }: { pct: number; label: string }) {
  return (
    <div
      role="meter"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={Math.min(100, Math.max(0, pct))}
      className="mt-2 h-2 rounded-full bg-stone-100 dark:bg-stone-800"
    >
      <div className="h-2 rounded-full bg-emerald-600 dark:bg-emerald-400" style={{ width: `${Math.min(100, Math.max(0, pct))}%` }} />
    </div>
  );
}

/** On the Team plan, owners and admins choose whose reports to read (ADR 0034). */
function AgentPicker({
  members,
  me,
  agent,
  period,
}: {
  members: { id: string; name: string }[];
  me: string;
  agent: string | null;
  period: Pick<Period, "key" | "from" | "to">;
}) {
  return (
    <Form method="get" action="/reports" aria-label="Whose reports" className="mb-3 flex flex-wrap items-end gap-2 print:hidden">
      {Object.entries(Object.fromEntries(new URLSearchParams(periodQuery(period)))).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="flex flex-col text-sm font-medium">
        Agent
        <select
          name="agent"
          defaultValue={agent ?? me}
          className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
        >
          {members.map((m) => (
            <option key={m.id} value={m.id}>
              {m.id === me ? `${m.name} (you)` : m.name}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className={buttonClass("secondary")}>
        Show reports
      </button>
    </Form>
  );
}

function DefinitionFor({ k }: { k: "goal" | "cap" }) {
  return <Definition {...REPORT_DEFINITIONS[k]} />;
}
