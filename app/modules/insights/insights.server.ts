import { addDays } from "~/lib/dates";
import { startOfDayIn } from "~/lib/dates/zones";
import { and, asc, count, eq, inArray, isNotNull, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, crmActivities, crmConfig, deals, insightVersions, userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { DEFAULT_DISPLAY_PREFERENCES, isoDateIn } from "~/lib/format";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

import { readStages } from "~/modules/pipeline/stages";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { computeInsights, HOT_QUIET_DAYS, keyDatesOf, type Insight, type InsightInputs } from "./insights";
import { requestShard } from "~/lib/shards.server";

/** Reads everything the insight rules need for one user, in two D1 round trips (the second needs the timezone). */
export async function loadInsightInputs(db: Db, userId: UserId, at: Date): Promise<InsightInputs> {
  const [prefsRows, configRows] = await db.batch([
    db
      .select({ timezone: userPreferences.timezone, currency: userPreferences.currency, dateFormat: userPreferences.dateFormat })
      .from(userPreferences)
      .where(ownedBy(userPreferences, userId)),
    db.select({ stages: crmConfig.dealStages }).from(crmConfig).where(ownedBy(crmConfig, userId)),
  ]);
  const prefs = prefsRows[0] ?? DEFAULT_DISPLAY_PREFERENCES;
  const stages = readStages(configRows[0]?.stages);
  const openStages = stages.filter((stage) => stage.kind === "open");
  const today = isoDateIn(at, prefs.timezone);
  // "More than 7 days": the last activity's day is before today − 7, i.e. before the start of that day.
  const quietBefore = new Date(startOfDayIn(addDays(today, -HOT_QUIET_DAYS), prefs.timezone));
  const hotQuiet = ownedBy(contacts, userId, eq(contacts.status, "hot"), lt(contacts.lastActivity, quietBefore));
  const dealLastActivity = sql<
    number | null
  >`(select max(a.occurred_at) from ${crmActivities} a where a.deal_id = ${deals.id} and a.user_id = ${userId})`;
  const [hot, hotCount, open, locations] = await db.batch([
    db
      .select({ id: contacts.id, name: contacts.name, budgetMax: contacts.budgetMax, lastActivity: contacts.lastActivity })
      .from(contacts)
      .where(hotQuiet)
      .orderBy(asc(contacts.lastActivity))
      .limit(3),
    db.select({ n: count() }).from(contacts).where(hotQuiet),
    db
      .select({
        id: deals.id,
        title: deals.title,
        stage: deals.stage,
        valueCents: deals.dealValueCents,
        commissionRate: deals.commissionRate,
        probability: deals.probability,
        expectedCloseDate: deals.expectedCloseDate,
        inspectionDate: deals.inspectionDate,
        appraisalDate: deals.appraisalDate,
        financingDate: deals.financingDate,
        stageChangedAt: deals.stageChangedAt,
        createdAt: deals.createdAt,
        // Aliased: in a D1 batch rows are keyed by column name (ADR 0015's deal_title clash).
        contactName: sql<string | null>`${contacts.name}`.as("contact_name"),
        lastActivity: dealLastActivity.as("last_activity_at"),
      })
      .from(deals)
      .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
      .where(
        ownedBy(
          deals,
          userId,
          inArray(
            deals.stage,
            openStages.map((stage) => stage.key),
          ),
        ),
      ),
    db
      .select({ location: sql<string>`min(${contacts.location})`, n: count() })
      .from(contacts)
      .where(
        ownedBy(contacts, userId, inArray(contacts.status, ["hot", "warm"]), isNotNull(contacts.location), sql`trim(${contacts.location}) <> ''`),
      )
      .groupBy(sql`lower(trim(${contacts.location}))`)
      .orderBy(sql`count(*) desc`)
      .limit(3),
  ]);
  const day = (ms: number | Date) => isoDateIn(new Date(ms), prefs.timezone);
  const stageName = new Map(stages.map((stage) => [stage.key, stage.name]));
  return {
    today,
    prefs,
    hotQuiet: hot.map((c) => ({ id: c.id, name: c.name, budgetMax: c.budgetMax, lastActivityDay: day(c.lastActivity) })),
    hotQuietCount: hotCount[0]?.n ?? 0,
    openDeals: open.map((d) => ({
      id: d.id,
      title: d.title,
      stage: d.stage,
      stageName: stageName.get(d.stage) ?? d.stage,
      valueCents: d.valueCents,
      commissionRate: d.commissionRate,
      probability: d.probability,
      expectedCloseDate: d.expectedCloseDate,
      keyDates: keyDatesOf(d),
      stageChangedDay: day(d.stageChangedAt),
      createdDay: day(d.createdAt),
      lastActivityDay: d.lastActivity === null ? null : day(d.lastActivity),
      contactName: d.contactName,
    })),
    locations: locations.map((l) => ({ location: l.location.trim(), hotOrWarm: l.n })),
  };
}

export async function computeUserInsights(db: Db, userId: UserId, at: Date): Promise<Insight[]> {
  return computeInsights(await loadInsightInputs(db, userId, at));
}

/** The user's change counter: triggers raise it on every write to an insight input (migrations 0010 and 0011). */
export async function insightVersion(db: Db, userId: UserId): Promise<number> {
  const row = await db.select({ version: insightVersions.version }).from(insightVersions).where(ownedBy(insightVersions, userId)).get();
  return row?.version ?? 0;
}

export interface InsightsRead {
  insights: Insight[];
  /** True when the Durable Object answered from its cache. */
  cached: boolean;
  computedAt: number;
}

/**
 * The user's insights from their Durable Object: it answers from its SQLite cache while the data version and
 * the agent's day are the ones it computed for, and recomputes from D1 otherwise (one object per user, so
 * concurrent page loads wait for one computation instead of each running it).
 */
export async function readInsights(context: RequestContext, userId: UserId, at = new Date()): Promise<InsightsRead> {
  const [version, prefs] = await Promise.all([insightVersion(context.db, userId), getDisplayPreferences(context, userId)]);
  const namespace = context.cloudflare.env.INSIGHTS;
  const stub = namespace.get(namespace.idFromName(userId));
  // The object computes from the account's database (ADR 0060), which the request was routed to.
  return stub.read(userId, version, isoDateIn(at, prefs.timezone), requestShard(context.cloudflare.env));
}
