import type { RequestContext } from "~/lib/context.server";
import { isoDateIn } from "~/lib/format";
import type { SessionUser } from "~/modules/auth/session.server";
import { SECURITY_PATH } from "~/modules/auth/guards.server";
import { getBillingDetails } from "~/modules/billing/details.server";
import { countCrmData, deletionSummary } from "~/modules/data/erase.server";
import { summarizeExport } from "~/modules/data/export.server";
import { listDataRequests } from "~/modules/data/requests.server";
import { DIGEST_HOUR, digestOn } from "~/modules/digest/digest.server";
import { getOnboardingState } from "~/modules/onboarding/onboarding.server";
import { countSubscriptions, pushPublicKey } from "~/modules/push/push.server";
import { getGoals } from "~/modules/reports/goals.server";
import { getCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import { getMembership, memberCount } from "~/modules/team/team.server";
import { listTrash } from "~/modules/trash/trash.server";
import { getAgentProfile } from "./agent-profile.server";
import { getDisplayPreferences } from "./preferences.server";
import { loadLeadSources } from "~/modules/intake/intake.server";
import { loadEmailSettings } from "~/modules/gmail/gmail-settings.server";

// The settings page: its tabs, and what each tab shows (only the open tab's figures are read).

export const SETTINGS_TABS = [
  { id: "account", label: "Account" },
  { id: "security", label: "Security", to: SECURITY_PATH },
  { id: "leads", label: "Lead sources" },
  { id: "email", label: "E-mail" },
  { id: "goals", label: "Goals" },
  { id: "billing", label: "Billing" },
  { id: "data", label: "Data" },
  { id: "trash", label: "Trash" },
  { id: "notifications", label: "Notifications" },
] as const;
// Security is a page of its own (/settings/security), which a team's two-factor requirement lets through.
type SettingsTab = Exclude<(typeof SETTINGS_TABS)[number]["id"], "security">;
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** What the settings page shows on the tab the URL asks for (Account unless another tab is named). */
export async function loadSettingsPage(context: RequestContext, request: Request, user: SessionUser) {
  const params = new URL(request.url).searchParams;
  const pushKey = pushPublicKey(context.config);
  const tabs = SETTINGS_TABS;
  const askedTab = params.get("tab");
  const tab: SettingsTab =
    tabs.find((t): t is Extract<(typeof tabs)[number], { id: SettingsTab }> => t.id === askedTab && !("to" in t))?.id ?? "account";
  const prefs = await getDisplayPreferences(context, user.id);
  // Goals edits one month's lead source costs at a time: ?month=YYYY-MM, this month by default.
  const asked = params.get("month");
  const month = asked && MONTH.test(asked) ? asked : isoDateIn(new Date(), prefs.timezone).slice(0, 7);
  const [billing, onboarding, calendarFeed, agent, goals, exportCategories, requests, trash, devices, digest, crmCounts, leadSources, emailSettings] =
    await Promise.all([
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
      tab === "leads" ? loadLeadSources(context, user.id) : Promise.resolve(null),
      tab === "email" ? loadEmailSettings(context, user.id) : Promise.resolve(null),
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
    leadSources,
    emailSettings,
    now: Date.now(),
  };
}

/** Billing's view of the user's team: their role, the team's name and its members. */
async function teamBilling(context: RequestContext, userId: Parameters<typeof getMembership>[1]) {
  const membership = await getMembership(context, userId);
  return membership ? { role: membership.role, name: membership.teamName, members: await memberCount(context, membership.teamId) } : null;
}
