import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { TabNav } from "~/components/ui/TabNav";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { BillingPanel } from "~/modules/billing/components/BillingPanel";
import { getBillingDetails } from "~/modules/billing/details.server";
import { PASSWORD_MIN_LENGTH } from "~/modules/auth/password";
import { getAgentProfile } from "~/modules/settings/agent-profile.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { AgentProfileSettings } from "~/modules/settings/components/AgentProfileSettings";
import { DisplaySettings } from "~/modules/settings/components/DisplaySettings";
import {
  changePasswordFromForm,
  saveAgentProfileFromForm,
  saveIncomeGoalFromForm,
  savePreferencesFromForm,
  saveSourceCostsFromForm,
  setDigestFromForm,
  setTestCancel,
  switchToSoloPlan,
  switchToTeamFromForm,
  type SettingsOutcome,
} from "~/modules/settings/settings-actions.server";
import { OnboardingSettings } from "~/modules/onboarding/components/OnboardingSettings";
import { getOnboardingState } from "~/modules/onboarding/onboarding.server";
import { CalendarFeedSettings } from "~/modules/tasks/components/CalendarFeedSettings";
import { getCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { TrashPanel } from "~/modules/trash/components/TrashPanel";
import { listTrash } from "~/modules/trash/trash.server";
import { TRASH_DAYS } from "~/modules/trash/trash";
import { isoDateIn } from "~/lib/format";
import { GoalsPanel } from "~/modules/reports/components/GoalsPanel";
import { DataPanel } from "~/modules/data/components/DataPanel";
import { SignOutEverywhere } from "~/modules/auth/components/SignOutEverywhere";
import { summarizeExport } from "~/modules/data/export.server";
import { countCrmData, deletionSummary } from "~/modules/data/erase.server";
import { deleteMyData } from "~/modules/data/delete-my-data.server";
import { listDataRequests } from "~/modules/data/requests.server";
import { getGoals } from "~/modules/reports/goals.server";
import { NotificationsPanel } from "~/modules/push/components/NotificationsPanel";
import { countSubscriptions, pushPublicKey } from "~/modules/push/push.server";
import { DigestSettings } from "~/modules/digest/components/DigestSettings";
import { DIGEST_HOUR, digestOn } from "~/modules/digest/digest.server";
import { getMembership, memberCount } from "~/modules/team/team.server";

export const meta: MetaFunction = () => [{ title: "Settings — Porchlight" }];

const TABS = [
  { id: "account", label: "Account" },
  { id: "goals", label: "Goals" },
  { id: "billing", label: "Billing" },
  { id: "data", label: "Data" },
  { id: "trash", label: "Trash" },
  { id: "notifications", label: "Notifications" },
] as const;
type Tab = (typeof TABS)[number]["id"];
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const params = new URL(request.url).searchParams;
  const pushKey = pushPublicKey(context.config);
  const tabs = TABS;
  const tab: Tab = tabs.find((t) => t.id === params.get("tab"))?.id ?? "account";
  const prefs = await getDisplayPreferences(context, user.id);
  // Goals edits one month's lead source costs at a time: ?month=YYYY-MM, this month by default.
  const asked = params.get("month");
  const month = asked && MONTH.test(asked) ? asked : isoDateIn(new Date(), prefs.timezone).slice(0, 7);
  const [billing, onboarding, calendarFeed, agent, goals, exportCategories, requests, trash, devices, digest, crmCounts] = await Promise.all([
    tab === "billing"
      ? getBillingDetails(context, user).then(async (details) => ({ ...details, team: await teamBilling(context, user.id) }))
      : Promise.resolve(null),
    tab === "account" ? getOnboardingState(context, user.id) : Promise.resolve(null),
    tab === "account" ? getCalendarFeed(context, user.id) : Promise.resolve(null),
    tab === "account" ? getAgentProfile(context, user.id) : Promise.resolve(null),
    tab === "goals" ? getGoals(context, user.id, month) : Promise.resolve(null),
    tab === "data" ? summarizeExport(context.cloudflare.env.DB, user.id) : Promise.resolve(null),
    tab === "data" ? listDataRequests(context.db, user.id) : Promise.resolve(null),
    tab === "trash" ? listTrash(context.cloudflare.env.DB, user.id) : Promise.resolve(null),
    tab === "notifications" && pushKey ? countSubscriptions(context, user.id) : Promise.resolve(null),
    tab === "notifications" ? digestOn(context, user.id) : Promise.resolve(null),
    tab === "data" ? countCrmData(context.cloudflare.env.DB, user.id) : Promise.resolve(null),
  ]);
  const data =
    exportCategories && requests && crmCounts
      ? {
          categories: exportCategories,
          deletion: deletionSummary(crmCounts),
          requests: requests.map((r) => ({
            id: r.id,
            type: r.type,
            status: r.status,
            description: r.description,
            createdAt: r.createdAt.toISOString(),
            completedAt: r.completedAt?.toISOString() ?? null,
          })),
        }
      : null;
  // New-lead alerts only where push is on (PUSH_NOTIFICATIONS); the daily digest everywhere.
  const notifications =
    tab === "notifications"
      ? { push: pushKey ? { publicKey: pushKey, devices: devices ?? 0 } : null, digest: digest ?? false, hour: DIGEST_HOUR, timezone: prefs.timezone }
      : null;
  return {
    email: user.email,
    tab,
    tabs,
    notifications,
    prefs,
    billing,
    onboarding,
    agent,
    goals,
    data,
    calendarFeed: calendarFeed ? { createdAt: calendarFeed.createdAt.toISOString() } : null,
    trash,
    now: Date.now(),
  };
}

/** Billing's view of the user's team: their role, the team's name and its members. */
async function teamBilling(context: LoaderFunctionArgs["context"], userId: Parameters<typeof getMembership>[1]) {
  const membership = await getMembership(context, userId);
  return membership ? { role: membership.role, name: membership.teamName, members: await memberCount(context, membership.teamId) } : null;
}

type Intent =
  | "preferences"
  | "agent"
  | "password"
  | "goal"
  | "costs"
  | "test-cancel"
  | "test-resume"
  | "delete-data"
  | "digest"
  | "team-plan"
  | "solo-plan";
type ActionData = { intent: Intent; errors: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  // Each form's outcome: a redirect with its toast, or its field errors for the form that was sent.
  const answer = (intent: Intent) => async (outcome: Promise<SettingsOutcome>) => {
    const done = await outcome;
    return done.ok
      ? redirectWithToast(context, done.to, done.toast, done.headers)
      : data<ActionData>({ intent, errors: done.errors }, { status: done.status });
  };
  return dispatchIntent(form, {
    preferences: () => answer("preferences")(savePreferencesFromForm(context, user.id, fields)),
    agent: () => answer("agent")(saveAgentProfileFromForm(context, user.id, fields)),
    digest: () => answer("digest")(setDigestFromForm(context, request, user.id, fields)),
    goal: () => answer("goal")(saveIncomeGoalFromForm(context, user.id, fields)),
    costs: () => answer("costs")(saveSourceCostsFromForm(context, user.id, fields)),
    password: () => answer("password")(changePasswordFromForm(context, request, user.id, fields)),
    "delete-data": () => answer("delete-data")(deleteMyData(context, user.id, fields.password)),
    "team-plan": () => answer("team-plan")(switchToTeamFromForm(context, user, fields)),
    "solo-plan": () => answer("solo-plan")(switchToSoloPlan(context, user)),
    "test-cancel": () => answer("test-cancel")(setTestCancel(context, user, true)),
    "test-resume": () => answer("test-resume")(setTestCancel(context, user, false)),
  });
}

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

export default function SettingsPage() {
  const {
    email,
    tab,
    tabs,
    notifications,
    prefs,
    billing,
    onboarding,
    agent,
    goals,
    data: dataTab,
    calendarFeed,
    trash,
    now,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const answered = actionData && "errors" in actionData ? actionData : undefined;
  const errors = (intent: Intent) => (answered?.intent === intent ? answered.errors : {});
  // A form's own error, or the refusal of an action this page does not have.
  const formError = actionData ? ("errors" in actionData ? actionData.errors.form : actionData.error) : undefined;

  return (
    <>
      <PageHeader title="Settings" description={`Signed in as ${email}`} />
      <TabNav label="Settings sections" base="/settings" tabs={tabs} current={tab} />
      {formError ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {formError}
        </p>
      ) : null}
      {tab === "billing" && billing ? (
        <BillingPanel details={billing} team={billing.team} prefs={prefs} busy={navigation.state !== "idle"} errors={errors} />
      ) : tab === "goals" && goals ? (
        <GoalsPanel goals={goals} prefs={prefs} errors={(intent) => errors(intent)} busy={busy} className={card} />
      ) : tab === "data" && dataTab ? (
        <DataPanel
          categories={dataTab.categories}
          deletion={dataTab.deletion}
          requests={dataTab.requests}
          prefs={prefs}
          className={card}
          deleteError={errors("delete-data").password}
          deleting={busy("delete-data")}
        />
      ) : tab === "notifications" && notifications ? (
        <div className="flex flex-col gap-6">
          <DigestSettings
            on={notifications.digest}
            hour={notifications.hour}
            timezone={notifications.timezone}
            busy={busy("digest")}
            className={card}
          />
          {notifications.push ? (
            <NotificationsPanel publicKey={notifications.push.publicKey} devices={notifications.push.devices} className={card} />
          ) : null}
        </div>
      ) : tab === "trash" && trash ? (
        <TrashPanel items={trash.items} total={trash.total} days={TRASH_DAYS} now={now} prefs={prefs} className={card} />
      ) : (
        <div className="flex flex-col gap-6">
          <DisplaySettings prefs={prefs} now={now} errors={errors("preferences")} busy={busy("preferences")} className={card} />

          {agent ? <AgentProfileSettings agent={agent} errors={errors("agent")} busy={busy("agent")} className={card} /> : null}

          <section aria-labelledby="password-heading" className={card}>
            <h2 id="password-heading" className="text-lg font-semibold">
              Change password
            </h2>
            <Form method="post" className="mt-4 flex max-w-md flex-col gap-4">
              <input type="hidden" name="intent" value="password" />
              <Field
                label="Current password"
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
                error={errors("password").currentPassword}
              />
              <Field
                label="New password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={PASSWORD_MIN_LENGTH}
                hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
                error={errors("password").password}
              />
              <Field
                label="Repeat new password"
                name="confirm"
                type="password"
                autoComplete="new-password"
                required
                error={errors("password").confirm}
              />
              <Button type="submit" busy={busy("password")} busyLabel="Saving…">
                Change password
              </Button>
            </Form>
          </section>

          <section aria-labelledby="sessions-heading" className={card}>
            <h2 id="sessions-heading" className="text-lg font-semibold">
              Signed-in devices
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              Lost a phone or used a shared computer? Sign out of Porchlight on every device at once, this one included.
            </p>
            <SignOutEverywhere className="mt-4" />
          </section>

          <CalendarFeedSettings feed={calendarFeed} prefs={prefs} className={card} />
          {onboarding ? <OnboardingSettings state={onboarding} prefs={prefs} className={card} /> : null}
        </div>
      )}
    </>
  );
}
