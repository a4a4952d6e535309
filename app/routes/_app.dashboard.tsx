import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { LayoutDashboard } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { buttonClass } from "~/components/ui/Button";
import { formatCents, formatCentsWhole, formatDay, formatMoneyCompact } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { ActivityFeed } from "~/modules/dashboard/components/ActivityFeed";
import { ColumnChartFigure } from "~/modules/dashboard/components/ColumnChartFigure";
import { DashboardSection, SectionEmpty } from "~/modules/dashboard/components/DashboardSection";
import { FollowUpList } from "~/modules/dashboard/components/FollowUpList";
import { LeadSources } from "~/modules/dashboard/components/LeadSources";
import { PipelineOverview } from "~/modules/dashboard/components/PipelineOverview";
import { StatCard } from "~/modules/dashboard/components/StatCard";
import { TaskReminders } from "~/modules/dashboard/components/TaskReminders";
import { UpcomingClosings } from "~/modules/dashboard/components/UpcomingClosings";
import { hasIncome } from "~/modules/commissions/income";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { CHART_MONTHS, FOLLOW_UP_DAYS, METRIC_DEFINITIONS, SPHERE_DAYS } from "~/modules/dashboard/metrics";
import { formatMinutes } from "~/modules/reports/definitions";
import { InsightList } from "~/modules/insights/components/InsightList";
import { readInsights } from "~/modules/insights/insights.server";
import { OnboardingDialog } from "~/modules/onboarding/components/OnboardingDialog";
import { LeadsWaiting } from "~/modules/push/components/LeadsWaiting";
import { LEAD_REMINDER_MINUTES } from "~/modules/push/lead-alerts";
import { leadsWaitingNow } from "~/modules/reports/figures.server";

const DASHBOARD_INSIGHTS = 3;

export const meta: MetaFunction = () => [{ title: "Dashboard — Porchlight" }];
export const headers = serverTimingHeaders;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const started = Date.now();
  // The insights come from the user's Durable Object, alongside the dashboard's one D1 batch.
  const now = new Date();
  const [dashboard, insights, waiting] = await Promise.all([
    loadDashboard(context, user.id, now),
    readInsights(context, user.id),
    leadsWaitingNow(context, user.id, now.getTime()),
  ]);
  return data(
    {
      ...dashboard,
      insights: insights.insights.slice(0, DASHBOARD_INSIGHTS),
      leadsWaiting: waiting.leads,
      moreLeadsWaiting: waiting.count - waiting.leads.length,
      now: now.getTime(),
    },
    { headers: serverTiming("dashboard", started) },
  );
}

const count = (n: number) => n.toLocaleString("en-US");
const monthName = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
const longMonth = (month: string) => monthName.format(new Date(`${month}-15T12:00:00Z`));

export default function DashboardPage() {
  const d = useLoaderData<typeof loader>();
  const { prefs, stats, today } = d;
  const header = (
    <PageHeader title="Dashboard" description={`Your command center · ${formatDay(today, prefs)}`} actions={<GuideButton page="dashboard" />} />
  );
  const onboarding = d.onboarding ? <OnboardingDialog /> : null;

  if (d.empty) {
    return (
      <>
        {header}
        {onboarding}
        <div data-tour="dashboard">
          <EmptyState icon={LayoutDashboard} title="Your dashboard fills in as you work">
            <p>
              Quick stats, your pipeline, closings, task reminders and charts are worked out from your own contacts, deals, tasks and activities.
              Start with one of these:
            </p>
            <div className="mt-4 flex flex-wrap justify-center gap-2">
              <Link to="/contacts" className={buttonClass("primary")}>
                Add your first contact
              </Link>
              <Link to="/contacts/import" className={buttonClass("secondary")}>
                Import contacts
              </Link>
              <Link to="/pipeline" className={buttonClass("secondary")}>
                Set up your pipeline
              </Link>
            </div>
            <p className="mt-4">
              <Link to="/guides/dashboard-guide" className="underline underline-offset-4">
                What the dashboard shows
              </Link>
            </p>
          </EmptyState>
        </div>
      </>
    );
  }

  const money = (cents: number) => formatCentsWhole(cents, prefs);
  const tick = (value: number) => formatMoneyCompact(value, prefs);
  // Each chart's empty state reads the rows it draws (income.ts): volume needs a deal of the agent's own, agent net
  // one of theirs or a deal a teammate shares with them.
  const volumeAny = hasIncome(d.performance.months, "volume");
  const netAny = hasIncome(d.performance.months, "net");
  const sharedAny = d.performance.months.some((m) => m.sharedDeals > 0);
  const monthRows = (show: (m: (typeof d.performance.months)[number]) => string[]) =>
    d.performance.months.map((m) => [longMonth(m.month), String(m.deals), ...show(m)]);
  const sphere = stats.sphere;

  return (
    <>
      {header}
      {onboarding}
      <LeadsWaiting leads={d.leadsWaiting} more={d.moreLeadsWaiting} serverNow={d.now} reminderMinutes={LEAD_REMINDER_MINUTES} />
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

      <div className="mt-6 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <div className="lg:col-span-2">
          <DashboardSection metric="smartInsights" id="insights" more={{ to: "/ai-assistant", label: "All insights and the AI coach" }}>
            <InsightList
              insights={d.insights}
              empty="Nothing pressing: no hot lead has gone quiet, no deal is slipping and nothing closes in the next 15 days."
            />
          </DashboardSection>
        </div>
        <DashboardSection metric="pipeline" more={{ to: "/pipeline", label: "Open the pipeline" }}>
          {stats.activeDeals.count > 0 ? (
            <PipelineOverview stages={d.pipeline} prefs={prefs} />
          ) : (
            <SectionEmpty>No open deals. Create a deal in the pipeline to see your stages fill in here.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="upcomingClosings" more={{ to: "/pipeline?view=list&sort=close", label: "All deals by close date" }}>
          {d.closings.length > 0 ? (
            <UpcomingClosings closings={d.closings} today={today} prefs={prefs} />
          ) : (
            <SectionEmpty>No open deal has a closing or expected close date from today on.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="taskReminders" more={{ to: "/tasks", label: "All tasks" }}>
          {d.tasks.length > 0 ? (
            <TaskReminders tasks={d.tasks} today={today} prefs={prefs} />
          ) : (
            <SectionEmpty>No open tasks. You are all caught up.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="recentActivityList" id="activity" more={{ to: "/activities", label: "All activity" }}>
          {d.activities.length > 0 ? (
            <ActivityFeed activities={d.activities} prefs={prefs} />
          ) : (
            <SectionEmpty>Nothing logged yet. Calls, e-mails, showings and stage changes on your contacts and deals appear here.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="followUpList" id="follow-up">
          {d.followUps.length > 0 ? (
            <FollowUpList contacts={d.followUps} today={today} prefs={prefs} />
          ) : (
            <SectionEmpty>Every hot and warm contact has had activity in the last {FOLLOW_UP_DAYS} days.</SectionEmpty>
          )}
        </DashboardSection>
        <DashboardSection metric="leadSources" more={{ to: "/contacts", label: "All contacts" }}>
          {stats.totalContacts > 0 ? <LeadSources sources={d.sources} total={stats.totalContacts} /> : <SectionEmpty>No contacts yet.</SectionEmpty>}
        </DashboardSection>
      </div>

      <h2 className="mt-8 text-xl font-semibold">Performance</h2>
      <div className="mt-3 grid grid-cols-1 gap-4 lg:grid-cols-2">
        <DashboardSection metric="closedVolume">
          {volumeAny ? (
            <ColumnChartFigure
              chart={d.performance.volumeChart}
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
              chart={d.performance.netChart}
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
