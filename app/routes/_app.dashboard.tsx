import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { LayoutDashboard } from "lucide-react";
import { EmptyState } from "~/components/EmptyState";
import { PageHeader } from "~/components/PageHeader";
import { GuideButton } from "~/modules/guides/components/GuideDialog";
import { buttonClass } from "~/components/ui/Button";
import { formatDay } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { ActivityFeed } from "~/modules/dashboard/components/ActivityFeed";
import { PerformanceCharts, QuickStats } from "~/modules/dashboard/components/DashboardFigures";
import { DashboardSection, SectionEmpty } from "~/modules/dashboard/components/DashboardSection";
import { FollowUpList } from "~/modules/dashboard/components/FollowUpList";
import { LeadSources } from "~/modules/dashboard/components/LeadSources";
import { PipelineOverview } from "~/modules/dashboard/components/PipelineOverview";
import { TaskReminders } from "~/modules/dashboard/components/TaskReminders";
import { UpcomingClosings } from "~/modules/dashboard/components/UpcomingClosings";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { FOLLOW_UP_DAYS } from "~/modules/dashboard/metrics";
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

  return (
    <>
      {header}
      {onboarding}
      <LeadsWaiting leads={d.leadsWaiting} more={d.moreLeadsWaiting} serverNow={d.now} reminderMinutes={LEAD_REMINDER_MINUTES} />
      <QuickStats stats={stats} today={today} prefs={prefs} />
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

      <PerformanceCharts performance={d.performance} prefs={prefs} />
    </>
  );
}
