import { Link } from "@remix-run/react";
import { formatCents, formatCentsWhole, formatDay, formatMoneyCompact, type DisplayPreferences } from "~/lib/format";
import { hasIncome } from "~/modules/commissions/income";
import { formatMinutes } from "~/modules/reports/definitions";
import { CHART_MONTHS, FOLLOW_UP_DAYS, METRIC_DEFINITIONS, SPHERE_DAYS, type Dashboard } from "../metrics";
import { ColumnChartFigure } from "./ColumnChartFigure";
import { DashboardSection, SectionEmpty } from "./DashboardSection";
import { StatCard } from "./StatCard";

// The dashboard's quick stats and its performance charts (each chart with its table of the same figures).

const count = (n: number) => n.toLocaleString("en-US");
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const longMonth = (month: string) => monthName.format(new Date(`${month}-15T12:00:00Z`));

/** The nine quick stats, each linking to where its figure comes from. */
export function QuickStats({ stats, today, prefs }: { stats: Dashboard["stats"]; today: string; prefs: DisplayPreferences }) {
  const money = (cents: number) => formatCentsWhole(cents, prefs);
  const sphere = stats.sphere;
  return (
    <>
      <h2 className="sr-only">Quick stats</h2>
      <ul
        data-tour="dashboard"
        className="grid grid-cols-2 gap-3 lg:grid-cols-3 [&>li:last-child:nth-child(odd)]:col-span-2 lg:[&>li:last-child:nth-child(odd)]:col-span-1"
      >
        <StatCard metric="totalContacts" value={count(stats.totalContacts)} href="/contacts">
          {count(stats.byStatus.hot)} hot · {count(stats.byStatus.warm)} warm · {count(stats.byStatus.cold)} cold
        </StatCard>
        <StatCard metric="activeDeals" value={count(stats.activeDeals.count)} href="/pipeline">
          {money(stats.activeDeals.valueCents)} in value
        </StatCard>
        <StatCard metric="tasksDue" value={count(stats.tasksDue.due)} href="/tasks">
          {stats.tasksDue.overdue > 0 ? (
            <Link to="/tasks?view=overdue" className="font-medium text-red-700 underline underline-offset-4 dark:text-red-300">
              {count(stats.tasksDue.overdue)} overdue
            </Link>
          ) : (
            "None overdue"
          )}
        </StatCard>
        <StatCard metric="recentActivity" value={count(stats.recentActivity)} href="#activity">
          in the last 7 days
        </StatCard>
        <StatCard metric="newLeads" value={count(stats.newLeads)} href="/reports#speed">
          since {formatDay(`${today.slice(0, 7)}-01`, prefs)}
        </StatCard>
        <StatCard metric="followUp" value={count(stats.followUp)} href="#follow-up">
          hot or warm, quiet {FOLLOW_UP_DAYS}+ days
        </StatCard>
        <StatCard metric="hotProspects" value={count(stats.hotProspects)} href="/contacts?status=hot">
          {stats.totalContacts > 0 ? `${Math.round((stats.hotProspects / stats.totalContacts) * 100)}% of contacts` : null}
        </StatCard>
        <StatCard metric="sphereGrowth" value={`+${count(sphere.added)}`} href="/contacts?sort=newest">
          {/* Said plainly: the figure's own period first, then the comparison, each with its number. */}
          in the last {SPHERE_DAYS} days; {sphere.before === 0 ? "none" : count(sphere.before)} in the {SPHERE_DAYS} before
          {sphere.changePct === null ? "" : ` (${sphere.changePct >= 0 ? "up" : "down"} ${Math.abs(sphere.changePct)}%)`}
        </StatCard>
        <StatCard
          metric="speedToLead"
          value={stats.speedToLead.medianMinutes === null ? "—" : formatMinutes(stats.speedToLead.medianMinutes)}
          href="/reports#speed"
        >
          {stats.speedToLead.leads === 0
            ? `no new leads in the last ${SPHERE_DAYS} days`
            : `median; ${count(stats.speedToLead.answered)} of ${count(stats.speedToLead.leads)} new leads of the last ${SPHERE_DAYS} days answered`}
        </StatCard>
      </ul>
    </>
  );
}

/** Closed volume and agent net over the last months, or why a chart is empty. */
export function PerformanceCharts({ performance, prefs }: { performance: Dashboard["performance"]; prefs: DisplayPreferences }) {
  const money = (cents: number) => formatCentsWhole(cents, prefs);
  const tick = (value: number) => formatMoneyCompact(value, prefs);
  // Each chart's empty state reads the rows it draws (income.ts): volume needs a deal of the agent's own, agent net
  // one of theirs or a deal a teammate shares with them.
  const volumeAny = hasIncome(performance.months, "volume");
  const netAny = hasIncome(performance.months, "net");
  const sharedAny = performance.months.some((m) => m.sharedDeals > 0);
  const monthRows = (show: (m: (typeof performance.months)[number]) => string[]) =>
    performance.months.map((m) => [longMonth(m.month), String(m.deals), ...show(m)]);
  return (
    <>
      <h2 className="mt-8 text-xl font-semibold">Performance</h2>
      <div className="mt-3 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <DashboardSection metric="closedVolume">
          {volumeAny ? (
            <ColumnChartFigure
              chart={performance.volumeChart}
              label="volume"
              tone="brand"
              formatTick={tick}
              table={{
                caption: `${METRIC_DEFINITIONS.closedVolume.label}, last ${CHART_MONTHS} months`,
                headers: ["Month", "Deals closed", "Closed volume"],
                rows: monthRows((m) => [money(m.volumeCents)]),
              }}
            />
          ) : (
            <SectionEmpty>No deals closed won in the last {CHART_MONTHS} months.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="agentNet" more={{ to: "/pipeline/commissions", label: "Forecast and commissions" }}>
          {netAny ? (
            <ColumnChartFigure
              chart={performance.netChart}
              label="net"
              tone="green"
              formatTick={tick}
              table={{
                caption: `${METRIC_DEFINITIONS.agentNet.label}, last ${CHART_MONTHS} months`,
                headers: ["Month", "Deals closed", ...(sharedAny ? ["Shared with you"] : []), "Agent net"],
                rows: monthRows((m) => [...(sharedAny ? [String(m.sharedDeals)] : []), formatCents(m.netCents, prefs)]),
              }}
            />
          ) : (
            <SectionEmpty>No deals closed won in the last {CHART_MONTHS} months, of yours or shared with you.</SectionEmpty>
          )}
        </DashboardSection>
      </div>
    </>
  );
}
