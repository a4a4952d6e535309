import { DAY_MS } from "~/lib/dates";
import { ascending } from "./definitions";
import { and, asc, count, eq, gte, inArray, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { CONTACT_SOURCES, type ContactSource } from "~/db/enums";
import { contacts, crmActivities, deals, LEAD_INDEXES, leadSourceDays } from "~/db/schema";
import { D1_LIMITS } from "~/lib/d1-limits";
import { splitByUtcDay } from "./added.server";
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
 * Counting a period's leads per source (ADR 0081): how many arrived comes from lead_source_days (kept by triggers,
 * migration 0060) for the period's whole UTC days, and from the contacts for its two edge days (an agent's day starts
 * at her midnight, rarely a UTC one), as contact_source_days does for contacts added. The response times come from
 * contacts_user_answered_lead, which holds only answered leads: one seek per agent and source, each group already in
 * order. SQLite's planner would take contacts_user_lead (by arrival) and sort, so the statement names the index
 * (INDEXED BY) and spells every source out, which is always true and gives the seek its source.
 */
const answeredLeads = sql`${contacts} indexed by ${sql.raw(LEAD_INDEXES.answeredBySource)}`;
/** A number the server computed, written into the statement (periods' bounds): a statement binds only the agents' ids. */
const literal = (v: number): SQL => sql.raw(String(Math.trunc(v)));
/** Columns read from answeredLeads, which drizzle does not know as the contacts table. */
const sourceColumn = sql<ContactSource>`${contacts.source}`;
const SOURCES_SQL = sql.raw(CONTACT_SOURCES.map((s) => `'${s}'`).join(", "));
const everySource: SQL = sql`${contacts.source} in (${SOURCES_SQL})`;
/** Milliseconds from a lead arriving to its first answer (null while it waits). */
const responseMs = sql<number>`max(0, ${contacts.firstResponseAt} - ${contacts.leadAt})`;
/** Ranges of instants, each with the index a row of it carries. */
type Indexed = Range & { index: number };

/**
 * Which of `ranges` an instant in `column` falls in (their index), as SQL: null outside them all.
 */
function rangeIndex(column: SQL | AnySQLiteColumn, ranges: readonly Indexed[]): SQL<number | null> {
  const n = literal;
  if (ranges.length === 0) return sql<null>`null`;
  // One index (one range, or its two edges): a constant, grouped by nothing (inRanges keeps the rows to the ranges).
  if (oneIndex(ranges)) return sql<number>`${n(ranges[0]!.index)}`;
  return sql<number | null>`case ${sql.join(
    ranges.map((r) => sql`when ${column} >= ${n(r.lo)} and ${column} < ${n(r.hi)} then ${n(r.index)}`),
    sql` `,
  )} end`;
}
const oneIndex = (ranges: readonly Indexed[]) => new Set(ranges.map((r) => r.index)).size <= 1;
/** The GROUP BY's range: none where every row has the same, so the groups keep the index's order. */
const byRange = (ranges: readonly Indexed[]): SQL[] => (oneIndex(ranges) ? [] : [sql`"range"`]);
/** Rows in one of `ranges`: the span from the first to the last (for the index's seek), then the ranges themselves. */
function inRanges(column: SQL | AnySQLiteColumn, ranges: readonly Indexed[]): SQL {
  if (ranges.length === 0) return sql`0`;
  const n = literal;
  const lo = Math.min(...ranges.map((r) => r.lo));
  const hi = Math.max(...ranges.map((r) => r.hi));
  const each = ranges.map((r) => sql`(${column} >= ${n(r.lo)} and ${column} < ${n(r.hi)})`);
  return sql`${column} >= ${n(lo)} and ${column} < ${n(hi)} and (${sql.join(each, sql` or `)})`;
}

/** A period's edge to count from the contacts: +1 for leads in it, -1 for leads its day's counter holds but it doesn't. */
type Edge = Indexed & { sign: 1 | -1 };

/**
 * A period as whole UTC days (from lead_source_days) and edges (from the contacts). Its start edge, from its first
 * instant to the next UTC midnight, is counted. Its end is read as the whole of its last UTC day less the rest of that
 * day after the period: when the period runs to now, that rest lies in the future and holds nothing, where the end
 * edge itself would be all of today's leads.
 */
function periodPieces(range: Range, index: number): { days: Indexed | null; edges: Edge[] } {
  const { days, edges } = splitByUtcDay(range.lo, range.hi);
  if (!days) return { days: null, edges: edges.map((e) => ({ ...e, index, sign: 1 })) };
  const start = edges.find((e) => e.hi === days.lo);
  const end = edges.find((e) => e.lo === days.hi);
  const through = end ? days.hi + DAY_MS : days.hi;
  return {
    days: { lo: days.lo, hi: through, index },
    edges: [...(start ? [{ ...start, index, sign: 1 as const }] : []), ...(end ? [{ lo: range.hi, hi: through, index, sign: -1 as const }] : [])],
  };
}

/**
 * The leads of `owner` (one agent, or several: a team view) that arrived in each of `ranges` and that each counts for
 * its holder, per agent, source and range, as the three parts of one UNION ALL: counts from the ranges' whole UTC
 * days, counts from their edges, and the answered ones' response times (ms, a JSON array). A caller adds up a
 * source's rows.
 */
function leadParts(db: Db, owner: Owner, ranges: readonly Range[]) {
  const pieces = ranges.map((r, index) => periodPieces({ lo: r.lo, hi: Math.min(r.hi, OPEN_END) }, index));
  const days: Indexed[] = pieces.flatMap((p) => (p.days ? [p.days] : []));
  const edges: Edge[] = pieces.flatMap((p) => p.edges);
  const whole: Indexed[] = ranges.map((r, index) => ({ lo: r.lo, hi: Math.min(r.hi, OPEN_END), index }));
  const dayCounts = db
    .select({
      userId: sql<UserId>`${leadSourceDays.userId}`.as("user_id"),
      source: sql<ContactSource>`${leadSourceDays.source}`.as("source"),
      range: sql<number>`${rangeIndex(leadSourceDays.day, days)}`.as("range"),
      n: sql<number>`sum(${leadSourceDays.n})`.as("n"),
      times: sql<string>`'[]'`.as("times"),
    })
    .from(leadSourceDays)
    .where(and(owner.of(leadSourceDays), sql`${leadSourceDays.source} in (${SOURCES_SQL})`, inRanges(leadSourceDays.day, days)))
    .groupBy(leadSourceDays.userId, leadSourceDays.source, ...byRange(days));
  const leadAt = sql`${contacts.leadAt}`;
  // One seek down contacts_user_lead per edge (a VALUES row each, read first: CROSS JOIN keeps that order), each row
  // counted with its edge's sign.
  const n = literal;
  const rows = (edges.length > 0 ? edges : [{ lo: 0, hi: 0, index: 0, sign: 1 }]).map(
    (e) => sql`(${n(e.lo)}, ${n(e.hi)}, ${n(e.index)}, ${n(e.sign)})`,
  );
  const edgeCounts = db
    .select({
      userId: sql<UserId>`${contacts.userId}`.as("user_id"),
      source: sourceColumn.as("source"),
      range: sql<number>`edge.column3`.as("range"),
      n: sql<number>`sum(edge.column4)`.as("n"),
      times: sql<string>`'[]'`.as("times"),
    })
    .from(sql`(values ${sql.join(rows, sql`, `)}) as edge cross join ${contacts} indexed by ${sql.raw(LEAD_INDEXES.byArrival)}`)
    .where(
      and(
        owner.of(contacts),
        isNotNull(contacts.leadAt),
        sql`${leadAt} >= edge.column1 and ${leadAt} < edge.column2`,
        answeredByHolder(contacts.userId),
      ),
    )
    .groupBy(contacts.userId, contacts.source, sql`"range"`);
  const answered = db
    .select({
      userId: sql<UserId>`${contacts.userId}`.as("user_id"),
      source: sourceColumn.as("source"),
      range: sql<number>`${rangeIndex(leadAt, whole)}`.as("range"),
      n: sql<number>`0`.as("n"),
      times: sql<string>`json_group_array(${responseMs})`.as("times"),
    })
    .from(answeredLeads)
    .where(
      and(
        owner.of(contacts),
        everySource,
        isNotNull(contacts.leadAt),
        isNotNull(contacts.firstResponseAt),
        inRanges(leadAt, whole),
        answeredByHolder(contacts.userId),
      ),
    )
    .groupBy(contacts.userId, contacts.source, ...byRange(whole));
  return dayCounts.unionAll(edgeCounts).unionAll(answered);
}

/** Whose leads a statement reads: one agent, or several at once (their ids from the visibility rule). */
interface Owner {
  of(table: typeof contacts | typeof leadSourceDays): SQL;
}
const oneAgent = (userId: UserId): Owner => ({ of: (table) => ownedBy(table, userId) });
const agents = (userIds: readonly UserId[]): Owner => ({ of: (table) => ownedByAny(table, userIds) });

/**
 * Leads per source that arrived in each of `ranges` (rows carry the range's index; the ranges don't overlap), with the
 * response times (ms) of the answered ones as a JSON array: several rows a source, to add up (leadTotals).
 */
export function leadsArrived(db: Db, userId: UserId, ranges: readonly Range[]) {
  return leadParts(db, oneAgent(userId), ranges);
}

/**
 * leadsArrived for several agents at once (a team view; `userIds` come from the visibility rule): the same leads, each
 * counted for the agent who holds it, per agent and source, to add up. Each statement names the ids in its three
 * parts, so a large team is read in groups that fit D1's bound parameters.
 */
export function teamLeadsArrived(db: Db, userIds: readonly UserId[], range: Range) {
  const size = Math.max(1, Math.floor(D1_LIMITS.boundParameters / 3));
  const statements: ReturnType<typeof leadParts>[] = [];
  for (let i = 0; i < userIds.length; i += size) statements.push(leadParts(db, agents(userIds.slice(i, i + size)), [range]));
  return statements;
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
