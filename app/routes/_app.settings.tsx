import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { TabNav } from "~/components/ui/TabNav";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { SelectField } from "~/components/ui/SelectField";
import { CURRENCIES } from "~/db/enums";
import { ThemePicker } from "~/components/ui/ThemePicker";
import { formatDate, formatMoney, formatTime, type DisplayPreferences } from "~/lib/format";
import { redirectWithToast } from "~/lib/toast.server";
import { appOrigin } from "~/lib/context.server";
import { changePassword } from "~/modules/auth/accounts.server";
import { isOwnPassword } from "~/modules/auth/own-password.server";
import { ChangePasswordSchema } from "~/modules/auth/auth.schema";
import { requireSubscriber } from "~/modules/auth/guards.server";
import { BillingPanel } from "~/modules/billing/components/BillingPanel";
import { getBillingDetails, setTestCancelAtPeriodEnd } from "~/modules/billing/details.server";
import { PASSWORD_MIN_LENGTH } from "~/modules/auth/password";
import { AgentProfileSchema } from "~/modules/settings/agent-profile.schema";
import { getAgentProfile, saveAgentProfile } from "~/modules/settings/agent-profile.server";
import { DisplayPreferencesSchema } from "~/modules/settings/preferences.schema";
import { COMMON_TIMEZONES } from "~/modules/settings/timezones";
import { getDisplayPreferences, saveDisplayPreferences } from "~/modules/settings/preferences.server";
import { OnboardingSettings } from "~/modules/onboarding/components/OnboardingSettings";
import { getOnboardingState } from "~/modules/onboarding/onboarding.server";
import { CalendarFeedSettings } from "~/modules/tasks/components/CalendarFeedSettings";
import { getCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import { readForm } from "~/lib/body.server";
import { TrashPanel } from "~/modules/trash/components/TrashPanel";
import { listTrash } from "~/modules/trash/trash.server";
import { TRASH_DAYS } from "~/modules/trash/trash";
import { isoDateIn } from "~/lib/format";
import { GoalsPanel } from "~/modules/reports/components/GoalsPanel";
import { DataPanel } from "~/modules/data/components/DataPanel";
import { SignOutEverywhere } from "~/modules/auth/components/SignOutEverywhere";
import { summarizeExport } from "~/modules/data/export.server";
import { countCrmData, deletionSummary } from "~/modules/data/erase.server";
import { finishDataRequest, listDataRequests, openDataRequest } from "~/modules/data/requests.server";
import { eraseCrmData, erasedSummary } from "~/modules/data/erase.server";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { IncomeGoalSchema, SourceCostsSchema } from "~/modules/reports/goals.schema";
import { getGoals, saveIncomeGoal, saveSourceCosts } from "~/modules/reports/goals.server";
import { NotificationsPanel } from "~/modules/push/components/NotificationsPanel";
import { countSubscriptions, pushPublicKey } from "~/modules/push/push.server";
import { DIGEST_HOUR, digestOn, setDigest } from "~/modules/digest/digest.server";
import { TeamNameSchema } from "~/modules/team/team.schema";
import { getMembership, memberCount, switchToSolo, switchToTeam } from "~/modules/team/team.server";

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
    tab === "billing" ? getBillingDetails(context, user).then(async (details) => ({ ...details, team: await teamBilling(context, user.id) })) : Promise.resolve(null),
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
          requests: requests.map((r) => ({ id: r.id, type: r.type, status: r.status, description: r.description, createdAt: r.createdAt.toISOString(), completedAt: r.completedAt?.toISOString() ?? null })),
        }
      : null;
  // New-lead alerts only where push is on (PUSH_NOTIFICATIONS); the daily digest everywhere.
  const notifications = tab === "notifications" ? { push: pushKey ? { publicKey: pushKey, devices: devices ?? 0 } : null, digest: digest ?? false, hour: DIGEST_HOUR, timezone: prefs.timezone } : null;
  return { email: user.email, tab, tabs, notifications, prefs, billing, onboarding, agent, goals, data, calendarFeed: calendarFeed ? { createdAt: calendarFeed.createdAt.toISOString() } : null, trash, now: Date.now() };
}

/** Billing's view of the user's team: their role, the team's name and its members. */
async function teamBilling(context: LoaderFunctionArgs["context"], userId: Parameters<typeof getMembership>[1]) {
  const membership = await getMembership(context, userId);
  return membership ? { role: membership.role, name: membership.teamName, members: await memberCount(context, membership.teamId) } : null;
}

type Intent = "preferences" | "agent" | "password" | "goal" | "costs" | "test-cancel" | "test-resume" | "delete-data" | "digest" | "team-plan" | "solo-plan";
type ActionData = { intent: Intent; errors: Record<string, string> };

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  const form = Object.fromEntries(await readForm(request));
  const intent = form.intent as Intent;
  const invalid = (issues: { path: PropertyKey[]; message: string }[]) =>
    data<ActionData>({ intent, errors: Object.fromEntries(issues.map((i) => [String(i.path[0]), i.message])) }, { status: 400 });

  if (intent === "preferences") {
    const parsed = DisplayPreferencesSchema.safeParse(form);
    if (!parsed.success) return invalid(parsed.error.issues);
    await saveDisplayPreferences(context, user.id, parsed.data);
    return redirectWithToast(context, "/settings", { title: "Preferences saved", variant: "success" });
  }
  if (intent === "agent") {
    const parsed = AgentProfileSchema.safeParse(form);
    if (!parsed.success) return invalid(parsed.error.issues);
    await saveAgentProfile(context, user.id, parsed.data);
    return redirectWithToast(context, "/settings#agent-profile", { title: "Agent profile saved", variant: "success" });
  }
  if (intent === "digest") {
    const on = form.on === "1";
    await setDigest(context, user.id, on, appOrigin(context, request));
    return redirectWithToast(context, "/settings?tab=notifications", { title: on ? "Daily digest turned on" : "Daily digest turned off", variant: "success" });
  }
  if (intent === "goal") {
    const parsed = IncomeGoalSchema.safeParse(form);
    if (!parsed.success) return invalid(parsed.error.issues);
    await saveIncomeGoal(context, user.id, parsed.data);
    return redirectWithToast(context, "/settings?tab=goals", { title: parsed.data.incomeGoalCents === null ? "Income goal removed" : "Income goal saved", variant: "success" });
  }
  if (intent === "costs") {
    const parsed = SourceCostsSchema.safeParse(form);
    if (!parsed.success) return invalid(parsed.error.issues);
    await saveSourceCosts(context, user.id, parsed.data);
    return redirectWithToast(context, `/settings?tab=goals&month=${parsed.data.month}`, { title: "Lead source costs saved", variant: "success" });
  }
  if (intent === "password") {
    const parsed = ChangePasswordSchema.safeParse(form);
    if (!parsed.success) return invalid(parsed.error.issues);
    const result = await changePassword(context, request, user.id, parsed.data);
    if (!result.ok) return data<ActionData>({ intent, errors: { currentPassword: result.message.description } }, { status: 400 });
    const headers = new Headers();
    for (const cookie of result.setCookie) headers.append("Set-Cookie", cookie);
    return redirectWithToast(
      context,
      "/settings",
      { title: "Password changed", description: "Every other device has been signed out.", variant: "success" },
      headers,
    );
  }
  if (intent === "delete-data") {
    // Settings → Data → Delete my data: the CRM records go, the account stays. The password is asked again.
    const fail = (status: 400 | 429, message: string) => data<ActionData>({ intent, errors: { password: message } }, { status });
    const limit = await hitRateLimit(context.cloudflare.env.KV, "data-erase", user.id, RATE_LIMITS.dataErase);
    if (!limit.allowed) return fail(429, `Too many tries. Please wait ${Math.ceil(limit.retryAfterSeconds / 60)} minutes. Nothing was deleted.`);
    if (typeof form.password !== "string" || !(await isOwnPassword(context, user.id, form.password))) return fail(400, "That password is not correct. Nothing was deleted.");
    const requestId = await openDataRequest(context.db, user.id, "erasure", "Delete my data", new Date());
    try {
      const summary = erasedSummary(await eraseCrmData(context.cloudflare.env.DB, user.id));
      await finishDataRequest(context.db, user.id, requestId, "completed", new Date(), `Delete my data: ${summary}, their stage history, lead source costs and the trash`);
      return redirectWithToast(context, "/settings?tab=data", { title: "Data Deletion Complete", description: `Deleted ${summary}.`, variant: "success" });
    } catch (error) {
      await finishDataRequest(context.db, user.id, requestId, "failed", new Date()).catch(() => undefined);
      console.error(JSON.stringify({ event: "data_erase_failed", detail: error instanceof Error ? error.message : String(error) }));
      return redirectWithToast(context, "/settings?tab=data", { title: "Deletion Failed", description: "Some of your data may remain. Please try again.", variant: "destructive" });
    }
  }
  if (intent === "team-plan" || intent === "solo-plan") {
    let result;
    if (intent === "team-plan") {
      // The confirmation states the price change; a bare post (an old page, a replay) changes nothing.
      if (form.confirm !== "yes") return data<ActionData>({ intent, errors: { form: "Confirm the switch: Switch to the Team plan… says the new price first." } }, { status: 400 });
      const name = TeamNameSchema.safeParse(form.teamName);
      if (!name.success) return invalid(name.error.issues.map((issue) => ({ ...issue, path: ["teamName"] })));
      result = await switchToTeam(context, user, name.data);
    } else {
      result = await switchToSolo(context, user);
    }
    if (!result.ok) return data<ActionData>({ intent, errors: { form: result.message } }, { status: 400 });
    return intent === "team-plan"
      ? redirectWithToast(context, "/team", { title: "You are on the Team plan", description: "Invite your agents: each one takes a seat. The Team price starts with your next billing period.", variant: "success" })
      : redirectWithToast(context, "/settings?tab=billing", { title: "You are on the Solo plan", description: "The Solo price starts with your next billing period.", variant: "success" });
  }
  if (intent === "test-cancel" || intent === "test-resume") {
    if (context.config.STRIPE_SECRET_KEY || !context.config.isDev) throw new Response("Not Found", { status: 404 });
    await setTestCancelAtPeriodEnd(context, user, intent === "test-cancel");
    return redirectWithToast(context, "/settings?tab=billing", {
      title: intent === "test-cancel" ? "Subscription will end" : "Subscription continues",
      description: intent === "test-cancel" ? "You keep full access until the end of the period." : undefined,
      variant: "success",
    });
  }
  return data<ActionData>({ intent: "preferences", errors: { form: "Unknown action." } }, { status: 400 });
}

function Select({ label, name, value, options, error }: { label: string; name: string; value: string; options: [string, string][]; error?: string }) {
  return <SelectField id={name} label={label} name={name} defaultValue={value} options={options} error={error} />;
}

const PREFERENCE_KEYS = ["dateFormat", "timeFormat", "timezone", "currency"] as const;

/** The display fields as currently chosen in the form (before saving), for the live example. */
function draftPreferences(form: HTMLFormElement, saved: DisplayPreferences): DisplayPreferences {
  const parsed = DisplayPreferencesSchema.safeParse(Object.fromEntries(new FormData(form)));
  return parsed.success ? parsed.data : saved;
}

const card = "rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900";

export default function SettingsPage() {
  const { email, tab, tabs, notifications, prefs, billing, onboarding, agent, goals, data: dataTab, calendarFeed, trash, now } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = (intent: Intent) => navigation.state === "submitting" && navigation.formData?.get("intent") === intent;
  const errors = (intent: Intent) => (actionData?.intent === intent ? actionData.errors : {});
  // The example follows the fields as the agent changes them; saving (new loader data) starts over from the saved values.
  const [draft, setDraft] = useState<DisplayPreferences | null>(null);
  useEffect(() => setDraft(null), [prefs]);
  const shown = draft ?? prefs;
  const timezones = COMMON_TIMEZONES.includes(prefs.timezone) ? COMMON_TIMEZONES : [prefs.timezone, ...COMMON_TIMEZONES];

  return (
    <>
      <PageHeader title="Settings" description={`Signed in as ${email}`} />
      <TabNav label="Settings sections" base="/settings" tabs={tabs} current={tab} />
      {actionData?.errors.form ? (
        <p role="alert" className="mb-4 text-sm font-medium text-red-700 dark:text-red-400">
          {actionData.errors.form}
        </p>
      ) : null}
      {tab === "billing" && billing ? (
        <BillingPanel details={billing} team={billing.team} prefs={prefs} busy={navigation.state !== "idle"} errors={errors} />
      ) : tab === "goals" && goals ? (
        <GoalsPanel goals={goals} prefs={prefs} errors={(intent) => errors(intent)} busy={busy} className={card} />
      ) : tab === "data" && dataTab ? (
        <DataPanel categories={dataTab.categories} deletion={dataTab.deletion} requests={dataTab.requests} prefs={prefs} className={card} deleteError={errors("delete-data").password} deleting={busy("delete-data")} />
      ) : tab === "notifications" && notifications ? (
        <div className="flex flex-col gap-6">
          <section aria-labelledby="digest-heading" className={card}>
            <h2 id="digest-heading" className="text-lg font-semibold">
              Daily digest
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
              One e-mail at {notifications.hour}:00 ({notifications.timezone.replace(/_/g, " ")}) with today&apos;s tasks, what is overdue, closings in the next seven days and new leads still
              waiting. Every digest has a link that stops it with one click.
            </p>
            <p className="mt-3 text-sm font-medium">{notifications.digest ? "The daily digest is on." : "The daily digest is off."}</p>
            <Form method="post" className="mt-3">
              <input type="hidden" name="intent" value="digest" />
              <input type="hidden" name="on" value={notifications.digest ? "0" : "1"} />
              <Button type="submit" variant={notifications.digest ? "secondary" : "primary"} busy={busy("digest")} busyLabel="Saving…">
                {notifications.digest ? "Turn off the daily digest" : "Turn on the daily digest"}
              </Button>
            </Form>
          </section>
          {notifications.push ? <NotificationsPanel publicKey={notifications.push.publicKey} devices={notifications.push.devices} className={card} /> : null}
        </div>
      ) : tab === "trash" && trash ? (
        <TrashPanel items={trash.items} total={trash.total} days={TRASH_DAYS} now={now} prefs={prefs} className={card} />
      ) : (
      <div className="flex flex-col gap-6">
        <section aria-labelledby="display-heading" className={card}>
          <h2 id="display-heading" className="text-lg font-semibold">
            Display
          </h2>
          <p data-testid="display-example" aria-live="polite" className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Example: {formatDate(now, shown)}, {formatTime(now, shown)}, {formatMoney(650000, shown)}
            {draft && PREFERENCE_KEYS.some((key) => draft[key] !== prefs[key]) ? " (not saved yet)" : ""}
          </p>
          <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" onChange={(event) => setDraft(draftPreferences(event.currentTarget, prefs))}>
            <input type="hidden" name="intent" value="preferences" />
            <Select label="Date format" name="dateFormat" value={prefs.dateFormat} options={[["US", "US (Nov 22, 2026)"], ["EU", "EU (22/11/26)"]]} error={errors("preferences").dateFormat} />
            <Select label="Time format" name="timeFormat" value={prefs.timeFormat} options={[["12h", "12-hour (3:05 PM)"], ["24h", "24-hour (15:05)"]]} error={errors("preferences").timeFormat} />
            <Select label="Timezone" name="timezone" value={prefs.timezone} options={timezones.map((tz) => [tz, tz.replace(/_/g, " ")])} error={errors("preferences").timezone} />
            <Select label="Currency" name="currency" value={prefs.currency} options={CURRENCIES.map((c) => [c, c])} error={errors("preferences").currency} />
            <div className="sm:col-span-2">
              <Button type="submit" busy={busy("preferences")} busyLabel="Saving…">
                Save display settings
              </Button>
            </div>
          </Form>
          <div className="mt-6 max-w-sm border-t border-stone-200 pt-4 dark:border-stone-800">
            <ThemePicker />
          </div>
        </section>

        {agent ? (
          <section id="agent-profile" aria-labelledby="agent-heading" className={`${card} scroll-mt-24`}>
            <h2 id="agent-heading" className="text-lg font-semibold">
              Agent profile
            </h2>
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">The AI coach signs drafts with your name and brokerage and writes market notes for your market.</p>
            <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2">
              <input type="hidden" name="intent" value="agent" />
              <Field label="Your name" name="agentName" defaultValue={agent.agentName ?? ""} autoComplete="name" maxLength={100} error={errors("agent").agentName} />
              <Field label="Brokerage" name="brokerage" defaultValue={agent.brokerage ?? ""} autoComplete="organization" maxLength={120} error={errors("agent").brokerage} />
              <Field label="Market" name="market" defaultValue={agent.market ?? ""} hint="The area you work, e.g. Austin, TX" maxLength={120} error={errors("agent").market} />
              <Field label="License number" name="licenseNumber" defaultValue={agent.licenseNumber ?? ""} maxLength={40} error={errors("agent").licenseNumber} />
              <div className="sm:col-span-2">
                <Button type="submit" busy={busy("agent")} busyLabel="Saving…">
                  Save agent profile
                </Button>
              </div>
            </Form>
          </section>
        ) : null}

        <section aria-labelledby="password-heading" className={card}>
          <h2 id="password-heading" className="text-lg font-semibold">
            Change password
          </h2>
          <Form method="post" className="mt-4 flex max-w-md flex-col gap-4">
            <input type="hidden" name="intent" value="password" />
            <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required error={errors("password").currentPassword} />
            <Field label="New password" name="password" type="password" autoComplete="new-password" required minLength={PASSWORD_MIN_LENGTH} hint={`At least ${PASSWORD_MIN_LENGTH} characters.`} error={errors("password").password} />
            <Field label="Repeat new password" name="confirm" type="password" autoComplete="new-password" required error={errors("password").confirm} />
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
