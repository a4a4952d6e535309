import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { TabNav } from "~/components/ui/TabNav";
import { readForm } from "~/lib/body.server";
import { formWideError } from "~/lib/action-result";
import { dispatchIntent, refuse } from "~/lib/intents.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { BillingPanel } from "~/modules/billing/components/BillingPanel";
import { DataPanel } from "~/modules/data/components/DataPanel";
import { deleteMyData } from "~/modules/data/delete-my-data.server";
import { DigestSettings } from "~/modules/digest/components/DigestSettings";
import { GmailPanel } from "~/modules/gmail/components/GmailPanel";
import { LeadSourcesPanel } from "~/modules/intake/components/LeadSourcesPanel";
import { firstReplyFromSettings, replyHoursFromSettings, reviewFromSettings, rotateFromSettings } from "~/modules/intake/intake-actions.server";
import { OnboardingSettings } from "~/modules/onboarding/components/OnboardingSettings";
import { NotificationsPanel } from "~/modules/push/components/NotificationsPanel";
import { GoalsPanel } from "~/modules/reports/components/GoalsPanel";
import { PasswordSettings } from "~/modules/settings/components/AccountSecurity";
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
import { loadSettingsPage } from "~/modules/settings/settings-page.server";
import { CalendarFeedSettings } from "~/modules/tasks/components/CalendarFeedSettings";
import { TrashPanel } from "~/modules/trash/components/TrashPanel";
import { TRASH_DAYS } from "~/modules/trash/trash";

export const meta: MetaFunction = () => [{ title: "Settings — Porchlight" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return loadSettingsPage(context, request, user);
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
  | "solo-plan"
  | "intake-rotate"
  | "intake-confirm"
  | "intake-discard"
  | "first-reply"
  | "reply-hours";

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = await readForm(request);
  const fields = Object.fromEntries(form);
  // Each form's outcome: a redirect with its toast, or its field errors for the form that was sent.
  const answer = (intent: Intent) => async (outcome: Promise<SettingsOutcome>) => {
    const done = await outcome;
    return done.ok ? redirectWithToast(context, done.to, done.toast, done.headers) : refuse(intent, done.errors, done.status);
  };
  return dispatchIntent(form, {
    preferences: () => answer("preferences")(savePreferencesFromForm(context, user.id, fields)),
    agent: () => answer("agent")(saveAgentProfileFromForm(context, user.id, fields)),
    digest: () => answer("digest")(setDigestFromForm(context, request, user.id, fields)),
    goal: () => answer("goal")(saveIncomeGoalFromForm(context, user.id, fields)),
    costs: () => answer("costs")(saveSourceCostsFromForm(context, user.id, fields)),
    password: () => answer("password")(changePasswordFromForm(context, request, user.id, fields)),
    "delete-data": () => answer("delete-data")(deleteMyData(context, user.id, fields.password)),
    "team-plan": () => answer("team-plan")(switchToTeamFromForm(context, request, user, fields)),
    "solo-plan": () => answer("solo-plan")(switchToSoloPlan(context, request, user)),
    "test-cancel": () => answer("test-cancel")(setTestCancel(context, user, true)),
    "test-resume": () => answer("test-resume")(setTestCancel(context, user, false)),
    "intake-rotate": () => answer("intake-rotate")(rotateFromSettings(context, user.id)),
    "intake-confirm": () => answer("intake-confirm")(reviewFromSettings(context, user.id, "confirm", fields)),
    "intake-discard": () => answer("intake-discard")(reviewFromSettings(context, user.id, "discard", fields)),
    "first-reply": () => answer("first-reply")(firstReplyFromSettings(context, request, user.id, fields)),
    "reply-hours": () => answer("reply-hours")(replyHoursFromSettings(context, user.id, fields)),
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
    leadSources,
    emailSettings,
    now,
  } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const refused = actionData && !actionData.ok ? actionData : undefined;
  const errors = (intent: Intent) => (refused?.intent === intent ? refused.fieldErrors : {});
  // A form's own error, or the refusal of an action this page does not have.
  const formError = formWideError(refused);

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
      ) : tab === "leads" && leadSources ? (
        <LeadSourcesPanel
          data={leadSources}
          email={email}
          prefs={prefs}
          errors={(intent) => errors(intent as Intent)}
          busy={(intent) => busy(intent as Intent)}
          className={card}
        />
      ) : tab === "email" && emailSettings ? (
        <GmailPanel settings={emailSettings} prefs={prefs} className={card} />
      ) : tab === "trash" && trash ? (
        <TrashPanel items={trash.items} total={trash.total} days={TRASH_DAYS} now={now} prefs={prefs} className={card} />
      ) : (
        <div className="flex flex-col gap-6">
          <DisplaySettings prefs={prefs} now={now} errors={errors("preferences")} busy={busy("preferences")} className={card} />

          {agent ? <AgentProfileSettings agent={agent} errors={errors("agent")} busy={busy("agent")} className={card} /> : null}

          <PasswordSettings errors={errors("password")} busy={busy("password")} className={card} />

          <CalendarFeedSettings feed={calendarFeed} prefs={prefs} className={card} />
          {onboarding ? <OnboardingSettings state={onboarding} prefs={prefs} className={card} /> : null}
        </div>
      )}
    </>
  );
}
