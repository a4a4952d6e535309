import { Link } from "@remix-run/react";
import { ColumnChartFigure } from "~/modules/dashboard/components/ColumnChartFigure";
import { Definition } from "~/modules/dashboard/components/MetricDefinition";
import { formatCentsWhole, formatDay, formatMoneyCompact, type DisplayPreferences } from "~/lib/format";
import type { Reports } from "../build.server";
import { REPORT_DEFINITIONS } from "../definitions";
import { ReportEmpty, ReportSection, ReportTableView } from "./ReportParts";

/** The income report: agent net by month, the income goal and the brokerage cap. */
export function IncomeReport({
  income,
  prefs,
  agent,
  query,
}: {
  income: Reports["income"];
  prefs: DisplayPreferences;
  agent: { id: string; name: string } | null;
  query: string;
}) {
  const money = (cents: number) => formatCentsWhole(cents, prefs);
  return (
    <ReportSection id="income" definition="income" query={query} downloads={income.empty ? [] : [income.table]}>
      {income.empty ? (
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
              chart={income.chart}
              label="Agent net by month"
              tone="green"
              formatTick={(value) => formatMoneyCompact(value, prefs)}
              table={{
                caption: "Agent net by month",
                headers: ["Month", "Agent net"],
                rows: income.table.rows.map((row) => [row.cells[0]!.text, row.cells.at(-1)!.text]),
              }}
            />
          </div>
          <ReportTableView table={income.table} />
        </>
      )}
      <div className="grid gap-3 md:grid-cols-2">
        <div className="relative rounded-xl border border-stone-200 p-3 dark:border-stone-800">
          <h3 className="mr-9 font-semibold">Income goal</h3>
          <DefinitionFor k="goal" />
          {income.goal ? (
            <>
              <p className="mt-1 text-sm">{`${money(income.goal.ytdNetCents)} of ${money(income.goal.goalCents)} in ${income.goal.year} (${income.goal.pct}%). On pace today: ${money(income.goal.paceCents)}.`}</p>
              <Progress pct={income.goal.pct} label="Share of the income goal earned" />
            </>
          ) : (
            <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
              {agent ? (
                `${agent.name} has set no annual goal.`
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
          {income.cap ? (
            <>
              <p className="mt-1 text-sm">
                {`${money(income.cap.paidCents)} paid of ${money(income.cap.capCents)}, ${money(income.cap.remainingCents)} to go (cap year ${formatDay(income.cap.yearStart, prefs)} – ${formatDay(income.cap.yearEnd, prefs)}). `}
                {income.cap.reachedOn
                  ? `Reached on ${formatDay(income.cap.reachedOn, prefs)}.`
                  : income.cap.projectedOn
                    ? `Projected to be reached on ${formatDay(income.cap.projectedOn, prefs)}.`
                    : "Your open deals are not projected to reach it this cap year."}
              </p>
              <Progress pct={Math.round((income.cap.paidCents / income.cap.capCents) * 100)} label="Share of the brokerage cap paid" />
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
  );
}

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

function DefinitionFor({ k }: { k: "goal" | "cap" }) {
  return <Definition {...REPORT_DEFINITIONS[k]} />;
}
