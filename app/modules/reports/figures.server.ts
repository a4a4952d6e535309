import { ascending } from "./definitions";
import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { CONTACT_SOURCES, type ContactSource } from "~/db/enums";
import { contacts, crmActivities, deals, LEADS_BY_SOURCE_INDEX } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { bucketOf } from "~/lib/instant-buckets";
import { ownedBy, ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { LEAD_WAIT_SHOWN_HOURS, LOGGED_TYPES } from "./figures";

// One definition per figure (figures.ts has their words). The dashboard, Reports and its CSV files, the team
// leaderboard, the daily digest and the new-lead reminder all read leads and logged activities through these:
// - a lead is a contact with lead_at (when it arrived as a new lead); contacts.first_response_at (kept by triggers,
//   migration 0012) is its first call, text, e-mail sent or meeting;
// - a lead is waiting while it has no first response; its response time runs from lead_at, never below zero, and
//   it is the speed of the agent who answered (contacts.answered_by): a lead handed to a teammate after its answer
//   counts for whoever answered it, not in the figures of the teammate who holds it now;
// - a logged activity is any type but those Porchlight writes itself (figures.ts LOGGED_TYPES).
// Each takes a range of instants [lo, hi) and gives one statement, so a page runs it inside its own D1 batch.

type Db = RequestContext["db"];
export interface Range {
  lo: number;
  hi: number;
}
/** The latest instant a Date holds: a range "from lo on". */
export const OPEN_END = 8.64e15;

/** A lead is the holder's to count while it waits or when they answered it themselves (the holder: an id, or each row's own). */
const answeredByHolder = (userId: UserId | typeof contacts.userId): SQL => or(isNull(contacts.answeredBy), eq(contacts.answeredBy, userId))!;

/** The leads that arrived in [lo, hi). */
const leadArrivedIn = (range: Range): SQL =>
  and(isNotNull(contacts.leadAt), gte(contacts.leadAt, new Date(range.lo)), lt(contacts.leadAt, new Date(range.hi)))!;
/**
 * Leads counted per source read contacts_user_source_lead: one seek per agent and source, each group already in
 * order, where contacts_user_lead (by arrival) makes SQLite sort a year of a busy team's leads by source. SQLite's
 * planner picks the latter unaided, so the statement names the index (INDEXED BY; ADR 0081) and spells every source
 * out, which is always true (the column holds only these) and gives the seek its source.
 */
const leadsBySource = sql`${contacts} indexed by ${sql.raw(LEADS_BY_SOURCE_INDEX)}`;
/** Columns read from leadsBySource, which drizzle does not know as the contacts table. */
const sourceColumn = sql<ContactSource>`${contacts.source}`;
const everySource: SQL = sql`${contacts.source} in (${sql.raw(CONTACT_SOURCES.map((s) => `'${s}'`).join(", "))})`;
/** Milliseconds from a lead arriving to its first answer (null while it waits). */
const responseMs = sql<number>`max(0, ${contacts.firstResponseAt} - ${contacts.leadAt})`;

/**
 * Leads per source that arrived in each of `ranges` (rows carry the range's index), with the response times (ms) of
 * the answered ones as a JSON array. Each range is its own part of a UNION ALL, a seek per source (leadsBySource).
 */
export function leadsArrived(db: Db, userId: UserId, ranges: readonly Range[]) {
  const part = (range: Range, index: number) =>
    db
      .select({
        source: sourceColumn.as("source"),
        range: sql<number>`${index}`.as("range"),
        n: sql<number>`count(*)`.as("n"),
        times: sql<string>`json_group_array(${responseMs}) filter (where ${contacts.firstResponseAt} is not null)`.as("times"),
      })
      .from(leadsBySource)
      .where(ownedBy(contacts, userId, everySource, leadArrivedIn(range), answeredByHolder(userId)))
      .groupBy(contacts.source);
  const [first, ...rest] = ranges.map(part);
  if (!first) throw new Error("leadsArrived needs a range");
  return rest.reduce((all, next) => all.unionAll(next) as unknown as typeof first, first);
}

/**
 * Leads per source and month that arrived in [lo, hi): the same leads leadsArrived counts, with `month` the index of the
 * month among `starts` (each month's first instant in the agent's timezone, bucketOf). One seek down contacts_user_lead,
 * which holds every column read, so no contact row is loaded.
 */
export function leadsByMonth(db: Db, userId: UserId, range: Range, starts: readonly number[]) {
  return db
    .select({ source: contacts.source, month: sql<number>`${bucketOf("lead_at", starts)}`.as("month"), n: sql<number>`count(*)`.as("n") })
    .from(contacts)
    .where(ownedBy(contacts, userId, leadArrivedIn(range), answeredByHolder(userId)))
    .groupBy(contacts.source, sql`month`);
}

/**
 * leadsArrived for several agents at once (a team view; `userIds` come from the visibility rule): the same leads, each
 * counted for the agent who holds it, per agent and source, a seek per agent and source (leadsBySource).
 */
export function teamLeadsArrived(db: Db, userIds: readonly UserId[], range: Range) {
  return db
    .select({
      userId: sql<UserId>`${contacts.userId}`.as("user_id"),
      source: sourceColumn.as("source"),
      n: sql<number>`count(*)`.as("n"),
      times: sql<string>`json_group_array(${responseMs}) filter (where ${contacts.firstResponseAt} is not null)`.as("times"),
    })
    .from(leadsBySource)
    .where(ownedByAny(contacts, userIds, everySource, leadArrivedIn(range), answeredByHolder(contacts.userId)))
    .groupBy(contacts.userId, contacts.source);
}

/**
 * Of the leads teamLeadsArrived counts, the deals each agent has in `stages` for them (the won stages of any of their
 * pipelines; the caller keeps those won in the agent's own), per agent, source and stage, with their sale prices
 * added up. The deals are sought by agent and stage, so only won deals' contacts are read.
 */
export function teamLeadDeals(db: Db, userIds: readonly UserId[], range: Range, stages: readonly string[]) {
  return db
    .select({
      userId: contacts.userId,
      source: contacts.source,
      stage: deals.stage,
      n: sql<number>`count(*)`.as("n"),
      valueCents: sql<number>`sum(${deals.dealValueCents})`.as("value_cents"),
    })
    .from(contacts)
    .innerJoin(deals, and(eq(deals.contactId, contacts.id), eq(deals.userId, contacts.userId)))
    .where(ownedByAny(contacts, userIds, inArray(deals.stage, stages), leadArrivedIn(range), answeredByHolder(contacts.userId)))
    .groupBy(contacts.userId, contacts.source, deals.stage);
}

/** A JSON array of numbers from SQL, sorted ascending. */
export function sortedTimes(json: string | null | undefined): number[] {
  const values = JSON.parse(json ?? "[]") as number[];
  return ascending(values.filter((v) => typeof v === "number"));
}

export interface LeadTotals {
  /** Leads that arrived in the range. */
  leads: number;
  /** Response times (ms, ascending) of those answered. */
  times: number[];
  /** Those still waiting: leads − answered. */
  waiting: number;
}

/** The rows of leadsArrived for one range (and one source, when given), added up. */
export function leadTotals(
  rows: readonly { source: string; range: number; n: number; times: string | number[] }[],
  range = 0,
  source?: string,
): LeadTotals {
  const mine = rows.filter((r) => r.range === range && (source === undefined || r.source === source));
  const times = ascending(mine.flatMap((r) => (typeof r.times === "string" ? sortedTimes(r.times) : r.times)));
  const leads = mine.reduce((sum, r) => sum + r.n, 0);
  return { leads, times, waiting: leads - times.length };
}

/** The leads that arrived in [lo, hi) and are still waiting, oldest first: the dashboard's timers, Reports' list, the digest. */
export function waitingLeads(db: Db, userId: UserId, range: Range, limit: number) {
  return db
    .select({
      contactId: contacts.id,
      name: contacts.name,
      phone: contacts.phone,
      email: contacts.email,
      source: contacts.source,
      arrivedAt: contacts.leadAt,
    })
    .from(contacts)
    .where(ownedBy(contacts, userId, leadArrivedIn(range), isNull(contacts.firstResponseAt)))
    .orderBy(asc(contacts.leadAt), asc(contacts.id))
    .limit(limit);
}

/** How many leads that arrived in [lo, hi) are still waiting. */
function waitingCount(db: Db, userId: UserId, range: Range) {
  return db
    .select({ n: count().as("n") })
    .from(contacts)
    .where(ownedBy(contacts, userId, leadArrivedIn(range), isNull(contacts.firstResponseAt)));
}

const loggedConditions = (range: Range) =>
  [
    inArray(crmActivities.type, LOGGED_TYPES),
    gte(crmActivities.occurredAt, new Date(range.lo)),
    lt(crmActivities.occurredAt, new Date(range.hi)),
  ] as const;

/** Logged activities dated in [lo, hi): read per type in time order off crm_activities_user_type_time. */
export const loggedIn = (userId: UserId, range: Range): SQL => ownedBy(crmActivities, userId, ...loggedConditions(range));

/** Parameters a team statement of logged activities binds besides the agents' ids (D1 binds at most 100). */
export const LOGGED_PARAMS = LOGGED_TYPES.length + 2;

/** The activities each of several agents logged in [lo, hi), per agent and type. */
export function teamLoggedByType(db: Db, userIds: readonly UserId[], range: Range) {
  return db
    .select({ userId: crmActivities.userId, type: crmActivities.type, n: count().as("n") })
    .from(crmActivities)
    .where(ownedByAny(crmActivities, userIds, ...loggedConditions(range)))
    .groupBy(crmActivities.userId, crmActivities.type);
}

/** How many activities the agent logged in [lo, hi). */
export function loggedActivities(db: Db, userId: UserId, range: Range) {
  return db
    .select({ n: count().as("n") })
    .from(crmActivities)
    .where(loggedIn(userId, range));
}

/** Whether the lead in `contactId` has had its first answer (the reminder's test, on lead_alerts rows). */
export const leadAnswered = (contactId: SQL | AnySQLiteColumn): SQL =>
  sql`exists (select 1 from ${contacts} where ${contacts.id} = ${contactId} and ${contacts.firstResponseAt} is not null)`;

/** The dashboard lists at most this many waiting leads (and says how many more wait); the digest lists fewer. */
export const WAITING_LEADS_SHOWN = 20;

export interface WaitingLead {
  contactId: string;
  name: string;
  phone: string | null;
  email: string | null;
  /** Epoch ms. */
  arrivedAt: number;
}

/**
 * The leads of the last LEAD_WAIT_SHOWN_HOURS still waiting at `now`, oldest first (the first `limit`), and how many
 * wait in all: the dashboard's timers and the daily digest.
 */
export async function leadsWaitingNow(
  context: Pick<RequestContext, "db">,
  userId: UserId,
  now = Date.now(),
  limit = WAITING_LEADS_SHOWN,
): Promise<{ leads: WaitingLead[]; count: number }> {
  const range = { lo: now - LEAD_WAIT_SHOWN_HOURS * 3_600_000, hi: OPEN_END };
  const [rows, [total]] = await context.db.batch([waitingLeads(context.db, userId, range, limit), waitingCount(context.db, userId, range)]);
  return {
    leads: rows.map(({ source: _source, arrivedAt, ...lead }) => ({ ...lead, arrivedAt: arrivedAt!.getTime() })),
    count: total?.n ?? rows.length,
  };
}
