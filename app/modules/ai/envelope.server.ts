import { addDays } from "~/lib/dates";
import { and, asc, desc, eq, inArray, lte, sql, type SQL } from "drizzle-orm";
import { differenceInCalendarDays, parseISO } from "date-fns";
import { agentProfiles, contacts, crmActivities, crmConfig, crmTasks, deals, userPreferences } from "~/db/schema";
import type { Db } from "~/db/client.server";
import { DEFAULT_DISPLAY_PREFERENCES, isoDateIn } from "~/lib/format";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { ACTIVITY_TYPE_LABELS } from "~/modules/activities/activity.schema";

import { dealRisks, keyDatesOf } from "~/modules/insights/insights";
import { readStages } from "~/modules/pipeline/stages";
import { AI_MESSAGES, type GenerateRequest } from "./ai.schema";
import type { DraftContact, DraftDeal, DraftEnvelope } from "./draft-types";

/** A request the user's data cannot answer (an id that is not theirs, no hot lead): a 404 with this message. */
export class EnvelopeError extends Error {}

const REVIEWED_DEALS = 8;
const CONTACT_DEALS = 5;

/**
 * The generation envelope { user_input, contact, deals, agent } (spec section 7) built on the server from the
 * signed-in user's own rows. Ids from the browser only select among them: another user's id finds nothing
 * and is refused.
 */
export async function loadEnvelope(db: Db, userId: UserId, request: GenerateRequest, at = new Date()): Promise<DraftEnvelope> {
  const [prefsRows, configRows, agentRows] = await db.batch([
    db
      .select({ timezone: userPreferences.timezone, currency: userPreferences.currency })
      .from(userPreferences)
      .where(ownedBy(userPreferences, userId)),
    db.select({ stages: crmConfig.dealStages }).from(crmConfig).where(ownedBy(crmConfig, userId)),
    db
      .select({ name: agentProfiles.agentName, brokerage: agentProfiles.brokerage, market: agentProfiles.market })
      .from(agentProfiles)
      .where(ownedBy(agentProfiles, userId)),
  ]);
  const prefs = prefsRows[0] ?? DEFAULT_DISPLAY_PREFERENCES;
  const stages = readStages(configRows[0]?.stages);
  const openKeys = stages.filter((stage) => stage.kind === "open").map((stage) => stage.key);
  const stageName = new Map(stages.map((stage) => [stage.key, stage.name]));
  const today = isoDateIn(at, prefs.timezone);
  const day = (value: Date | number) => isoDateIn(new Date(value), prefs.timezone);

  const contact = await pickContact(db, userId, request, day);

  const dealRows = async (where: SQL, limit: number) =>
    (
      await db
        .select({
          deal: deals,
          contactName: sql<string | null>`${contacts.name}`.as("contact_name"),
          lastActivity: sql<
            number | null
          >`(select max(a.occurred_at) from ${crmActivities} a where a.deal_id = ${deals.id} and a.user_id = ${userId})`.as("last_activity_at"),
        })
        .from(deals)
        .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
        .where(ownedBy(deals, userId, where))
        .orderBy(asc(sql`coalesce(${deals.expectedCloseDate}, '9999')`), asc(deals.id))
        .limit(limit)
    ).map(({ deal, contactName, lastActivity }) => {
      const draft: DraftDeal = {
        id: deal.id,
        title: deal.title,
        stage: deal.stage,
        stageName: stageName.get(deal.stage) ?? deal.stage,
        dealValue: deal.dealValueCents > 0 ? Math.round(deal.dealValueCents / 100) : null,
        commissionRate: deal.commissionRate,
        probability: deal.probability,
        expectedCloseDate: deal.expectedCloseDate,
        daysInStage: Math.max(0, differenceInCalendarDays(parseISO(today), parseISO(day(deal.stageChangedAt)))),
        contactName,
        lastActivityDay: lastActivity === null ? null : day(lastActivity),
      };
      const risks = dealRisks(
        {
          ...draft,
          valueCents: deal.dealValueCents,
          commissionRate: deal.commissionRate,
          probability: deal.probability,
          keyDates: keyDatesOf(deal),
          stageChangedDay: day(deal.stageChangedAt),
          createdDay: day(deal.createdAt),
        },
        today,
      );
      return { draft, risks };
    });

  let draftDeals: DraftDeal[] = [];
  if (request.dealIds?.length) {
    const ids = [...new Set(request.dealIds)];
    draftDeals = (await dealRows(inArray(deals.id, ids), ids.length)).map((row) => row.draft);
    if (draftDeals.length !== ids.length) throw new EnvelopeError(AI_MESSAGES.dealNotFound);
  } else if (request.task === "deal_review") {
    // Every open deal, riskiest first (the insights' rules), so the review can also say which look healthy.
    draftDeals = (await dealRows(inArray(deals.stage, openKeys), 500))
      .sort((a, b) => Number(b.risks.some((r) => r.serious)) - Number(a.risks.some((r) => r.serious)) || b.risks.length - a.risks.length)
      .slice(0, REVIEWED_DEALS)
      .map((row) => row.draft);
  } else if (request.task === "week_plan") {
    draftDeals = (await dealRows(and(inArray(deals.stage, openKeys), lte(deals.expectedCloseDate, addDays(today, 14)))!, REVIEWED_DEALS)).map(
      (row) => row.draft,
    );
  } else if (contact) {
    draftDeals = (await dealRows(and(eq(deals.contactId, contact.id), inArray(deals.stage, openKeys))!, CONTACT_DEALS)).map((row) => row.draft);
  } else if (request.task === "market") {
    const place = (request.location || "").toLowerCase();
    if (place) {
      const inPlace = sql`(instr(lower(coalesce(${deals.propertyAddress}, '') || ' ' || ${deals.title}), ${place}) > 0 or lower(${contacts.location}) = ${place})`;
      draftDeals = (await dealRows(and(inArray(deals.stage, openKeys), inPlace)!, REVIEWED_DEALS)).map((row) => row.draft);
    }
  }

  const tasks =
    request.task === "week_plan"
      ? (
          await db
            .select({ title: crmTasks.title, dueDate: crmTasks.dueDate, contactName: sql<string | null>`${contacts.name}`.as("contact_name") })
            .from(crmTasks)
            .leftJoin(contacts, and(eq(contacts.id, crmTasks.contactId), eq(contacts.userId, userId)))
            .where(ownedBy(crmTasks, userId, eq(crmTasks.status, "open"), lte(crmTasks.dueDate, addDays(today, 6))))
            .orderBy(asc(crmTasks.dueDate), asc(crmTasks.dueTime))
            .limit(40)
        ).map((task) => ({ ...task, dueDate: task.dueDate < today ? today : task.dueDate }))
      : [];

  const agent = agentRows[0] ?? { name: null, brokerage: null, market: null };
  // Market notes are about a place: the one asked for, else the contact's, else the agent's market.
  const userInput =
    request.task === "market" ? request.location || request.userInput.trim() || contact?.location || agent.market || "" : request.userInput;
  return {
    task: request.task,
    userInput,
    tone: request.tone,
    contact,
    deals: draftDeals,
    agent: { name: agent.name?.trim() || null, brokerage: agent.brokerage?.trim() || null, market: agent.market?.trim() || null },
    tasks,
    today,
    currency: prefs.currency,
    mlsLimit: request.task === "listing" ? request.mlsLimit : null,
    listing: request.task === "listing" && request.listing && Object.values(request.listing).some((v) => v !== null) ? request.listing : null,
    variant: request.variant,
  };
}

async function pickContact(db: Db, userId: UserId, request: GenerateRequest, day: (value: Date | number) => string): Promise<DraftContact | null> {
  let where: SQL | undefined;
  if (request.contactId) where = eq(contacts.id, request.contactId);
  // "Follow-up for a hot lead" without a contact: the hot lead quiet the longest.
  else if (request.task === "follow_up") where = eq(contacts.status, "hot");
  if (!where) return null;
  const row = await db
    .select()
    .from(contacts)
    .where(ownedBy(contacts, userId, where))
    .orderBy(asc(contacts.lastActivity))
    .limit(1)
    .get();
  if (!row) throw new EnvelopeError(request.contactId ? AI_MESSAGES.contactNotFound : AI_MESSAGES.noHotLead);
  const last = await db
    .select({ type: crmActivities.type, outcome: crmActivities.outcome, notes: crmActivities.notes, occurredAt: crmActivities.occurredAt })
    .from(crmActivities)
    .where(ownedBy(crmActivities, userId, eq(crmActivities.contactId, row.id)))
    .orderBy(desc(crmActivities.occurredAt))
    .limit(1)
    .get();
  const detail = last
    ? [last.outcome, last.notes]
        .map((text) => text?.trim())
        .filter(Boolean)
        .join(": ")
        .slice(0, 160)
    : "";
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    status: row.status,
    budgetMin: row.budgetMin,
    budgetMax: row.budgetMax,
    propertyType: row.propertyType,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    location: row.location,
    source: row.source,
    tags: row.tags,
    notes: row.notes,
    lastActivityDay: last ? day(last.occurredAt) : null,
    lastActivitySummary: last ? `${ACTIVITY_TYPE_LABELS[last.type]}${detail ? ` — ${detail}` : ""}` : null,
  };
}
