import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { eq } from "drizzle-orm";
import { agentProfiles, contacts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { INSIGHTS_SHOWN } from "~/modules/insights/insights";
import { readInsights } from "~/modules/insights/insights.server";
import { userNow } from "~/modules/tasks/tasks.server";
import { aiDraftsToday, engineSettings, primaryEngine } from "./quota.server";

/** Everything /ai-assistant shows before the agent asks for anything. */
export async function loadAssistant(context: RequestContext, userId: UserId, options: { contactId: string | null }) {
  const [insights, now, agent, contact, used] = await Promise.all([
    readInsights(context, userId),
    userNow(context, userId),
    context.db
      .select({ name: agentProfiles.agentName, brokerage: agentProfiles.brokerage, market: agentProfiles.market })
      .from(agentProfiles)
      .where(ownedBy(agentProfiles, userId))
      .get(),
    // A contact linked from an insight or a profile: only ever one of the user's own.
    options.contactId
      ? context.db
          .select({ id: contacts.id, name: contacts.name })
          .from(contacts)
          .where(ownedBy(contacts, userId, eq(contacts.id, options.contactId)))
          .get()
      : Promise.resolve(undefined),
    aiDraftsToday(context, userId),
  ]);
  return {
    insights: insights.insights.slice(0, INSIGHTS_SHOWN),
    today: now.date,
    nowTime: now.time,
    timezone: (await getDisplayPreferences(context, userId)).timezone,
    agent: { name: agent?.name ?? null, brokerage: agent?.brokerage ?? null, market: agent?.market ?? null },
    contact: contact ?? null,
    engine: primaryEngine(engineSettings(context.cloudflare.env, context.config)),
    quota: { used, limit: context.config.AI_DAILY_QUOTA },
  };
}
