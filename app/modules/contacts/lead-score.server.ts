import { DAY_MS } from "~/lib/dates";
import { and, asc, eq, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { SYSTEM_ACTIVITY_SQL } from "~/db/enums";
import type { Db } from "~/db/client.server";
import { contacts, type Contact, type LeadScoreFactor } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { ENGAGEMENT_WINDOW_DAYS, scoreLead } from "./lead-score";

// Lead scores in storage (the formula is lead-score.ts). A score is written with the row on create and import;
// afterwards triggers (migration 0010) set lead_scored_at to NULL whenever an input changes, and these
// functions compute what is missing: on the next view of the list or profile (the signed-in user's rows), and
// from the cron (anyone's, bounded per run), which also recomputes scores older than a day because recency
// and the 90-day window move with the clock.
//
// Writes are guarded so a change that lands while a score is being computed is never covered up: stale rows
// are first claimed with a marker of this run (a negative lead_scored_at, which the triggers reset to NULL
// like any value), and every write only lands where lead_scored_at still holds the value that was read.

/** Scores older than this are recomputed by the cron (recency counts whole days). */
const SCORE_MAX_AGE_MS = DAY_MS;

/** What a score is computed from: the contact's own fields and two owner-scoped counts. */
function inputColumns(now: number) {
  const since = now - ENGAGEMENT_WINDOW_DAYS * DAY_MS;
  return {
    id: contacts.id,
    userId: contacts.userId,
    status: contacts.status,
    budgetMin: contacts.budgetMin,
    budgetMax: contacts.budgetMax,
    lastActivity: contacts.lastActivity,
    createdAt: contacts.createdAt,
    source: contacts.source,
    email: contacts.email,
    phone: contacts.phone,
    leadScoredAt: contacts.leadScoredAt,
    // Stage changes are the deals' bookkeeping; open deals count on their own. The subqueries name the outer
    // table themselves: drizzle leaves a one-table select's columns unqualified, which in here would resolve
    // to the inner table's columns.
    activities:
      sql<number>`(select count(*) from crm_activities a where a.contact_id = contacts.id and a.user_id = contacts.user_id and a.occurred_at >= ${since} and a.type not in (${sql.raw(SYSTEM_ACTIVITY_SQL)}))`.as(
        "activities",
      ),
    // Open = not won or lost: the stage rules give every won or lost deal a closed date, and only those.
    openDeals:
      sql<number>`(select count(*) from deals d where d.contact_id = contacts.id and d.user_id = contacts.user_id and d.closed_date is null)`.as(
        "open_deals",
      ),
  };
}

type InputRow = {
  id: string;
  userId: string;
  status: Contact["status"];
  budgetMin: number | null;
  budgetMax: number | null;
  lastActivity: Date;
  createdAt: Date;
  source: Contact["source"];
  email: string | null;
  phone: string | null;
  leadScoredAt: Date | null;
  activities: number;
  openDeals: number;
};

interface ScoredContact {
  id: string;
  leadScore: number;
  leadScoreFactors: LeadScoreFactor[];
  leadScoredAt: Date;
}

function score(row: InputRow, now: number): ScoredContact {
  const { score, factors } = scoreLead(
    {
      status: row.status,
      budgetMin: row.budgetMin,
      budgetMax: row.budgetMax,
      lastActivity: row.lastActivity.getTime(),
      createdAt: row.createdAt.getTime(),
      activityCount90d: Number(row.activities),
      source: row.source,
      openDeals: Number(row.openDeals),
      hasEmail: Boolean(row.email),
      hasPhone: Boolean(row.phone),
    },
    now,
  );
  return { id: row.id, leadScore: score, leadScoreFactors: factors, leadScoredAt: new Date(now) };
}

// Each write statement carries its rows as one JSON parameter (D1: 100 bound parameters per statement), and
// all of them go in one batch. 200 rows of factors are about 150 KB, well under D1's 1 MB per value. The
// statement is plain SQL because drizzle's batch does not take raw queries.
const ROWS_PER_WRITE = 200;
const WRITE_SQL = `update contacts set lead_score = j.s, lead_score_factors = j.f, lead_scored_at = ?1
  from (select json_extract(value, '$.id') as id, json_extract(value, '$.u') as u, json_extract(value, '$.g') as g,
               json_extract(value, '$.s') as s, json_extract(value, '$.f') as f from json_each(?2)) as j
  where contacts.id = j.id and contacts.user_id = j.u and contacts.lead_scored_at = j.g
  returning id`;

/**
 * Computes and writes the scores of `rows`; a row whose lead_scored_at no longer holds the value read (or
 * claimed) is left alone: its inputs changed meanwhile and it is stale again. Returns the scores computed
 * and how many were written.
 */
async function writeScores(db: Db, rows: InputRow[], now: number): Promise<{ scored: ScoredContact[]; written: number }> {
  const scored = rows.map((row) => score(row, now));
  if (rows.length === 0) return { scored, written: 0 };
  const statements: D1PreparedStatement[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_WRITE) {
    const payload = rows.slice(i, i + ROWS_PER_WRITE).map((row, j) => {
      const { leadScore, leadScoreFactors } = scored[i + j]!;
      // g: the lead_scored_at the inputs were read under; the write lands only where it still holds.
      return { id: row.id, u: row.userId, g: row.leadScoredAt?.getTime() ?? null, s: leadScore, f: leadScoreFactors };
    });
    statements.push(db.$client.prepare(WRITE_SQL).bind(now, JSON.stringify(payload)));
  }
  const results = await db.$client.batch(statements);
  // Rows returned, not meta.changes: D1 counts the rows triggers write too (sync_log, migration 0023).
  return { scored, written: results.reduce((n, result) => n + (result.results?.length ?? 0), 0) };
}

/** A value no other run uses: stale rows claimed by this run carry it until their score is written. */
function claimMarker(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  // Negative, so it can never be mistaken for a time, and under 2^53.
  return -(1 + (high! % 0x100000) * 0x100000000 + low!);
}

/**
 * Up to `limit` stale contacts (never scored, or inputs changed since), the user's or with `userId` null anyone's, read
 * through contacts_user_unscored, the partial index that holds only them. The index is named: without statistics
 * SQLite's planner took another index on user_id for the same query and read every contact the user has (100,001 rows
 * on the bench's large account when none was stale, on each load of the list and of a contact's page).
 */
function staleSeqs(userId: UserId | null, limit: number): SQL {
  const owner = userId === null ? undefined : eq(contacts.userId, userId);
  return sql`select ${contacts.seq} from ${contacts} indexed by contacts_user_unscored where ${and(owner, isNull(contacts.leadScoredAt))} limit ${limit}`;
}

/**
 * Computes the missing (stale) scores of one user's contacts, or with `userId` null anyone's (the cron), at most
 * `limit`. When nothing is stale this costs one read of the partial index contacts_user_unscored.
 */
async function refreshStale(db: Db, userId: UserId | null, now: Date, limit: number): Promise<number> {
  const owner = userId === null ? undefined : eq(contacts.userId, userId);
  const any = await db.all<{ seq: number }>(staleSeqs(userId, 1));
  if (any.length === 0) return 0;
  const at = now.getTime();
  const marker = new Date(claimMarker());
  // Claim and read in one batch (one transaction): the rows read are exactly the rows claimed (found by their marker
  // through contacts_scored_at).
  const [, rows] = await db.batch([
    db
      .update(contacts)
      .set({ leadScoredAt: marker })
      .where(and(owner, isNull(contacts.leadScoredAt), inArray(contacts.seq, sql`(${staleSeqs(userId, limit)})`))),
    db
      .select(inputColumns(at))
      .from(contacts)
      .where(and(owner, eq(contacts.leadScoredAt, marker))),
  ]);
  return (await writeScores(db, rows, at)).written;
}

/**
 * Computes the scores of the user's contacts whose inputs changed since they were scored (at most `limit`
 * per call), so a change shows on the next view. Only `userId`'s rows are read or written.
 */
export async function refreshLeadScores(db: Db, userId: UserId, now = new Date(), limit = 500): Promise<number> {
  return refreshStale(db, userId, now, limit);
}

/** Any user's stale scores, at most `limit` (the cron's sweep behind the views). */
export async function refreshStaleScores(db: Db, now = new Date(), limit = 2_000): Promise<number> {
  return refreshStale(db, null, now, limit);
}

/** Recomputes scores computed more than a day ago, any user's, oldest first, at most `limit` (the cron). */
export async function rescoreAging(db: Db, now = new Date(), limit = 2_000): Promise<number> {
  const at = now.getTime();
  const rows = await db
    .select(inputColumns(at))
    .from(contacts)
    .where(lt(contacts.leadScoredAt, new Date(at - SCORE_MAX_AGE_MS)))
    .orderBy(asc(contacts.leadScoredAt))
    .limit(limit);
  return (await writeScores(db, rows, at)).written;
}

/**
 * The contact with its score brought up to date when it was computed more than a day ago (the profile shows
 * its reasons in days, and the cron may not have reached it yet). Otherwise the contact as it is.
 */
export async function withCurrentScore<T extends Pick<Contact, "id" | "leadScoredAt" | "leadScore" | "leadScoreFactors">>(
  db: Db,
  userId: UserId,
  contact: T,
  now = new Date(),
): Promise<T> {
  const at = now.getTime();
  if (contact.leadScoredAt && contact.leadScoredAt.getTime() >= at - SCORE_MAX_AGE_MS) return contact;
  const where: SQL = and(eq(contacts.userId, userId), eq(contacts.id, contact.id))!;
  const [row] = await db.select(inputColumns(at)).from(contacts).where(where);
  if (!row) return contact;
  // The write is guarded like the others; the page shows what was computed from the inputs just read.
  const [scored] = (await writeScores(db, [row], at)).scored;
  return { ...contact, leadScore: scored!.leadScore, leadScoreFactors: scored!.leadScoreFactors, leadScoredAt: scored!.leadScoredAt };
}

/**
 * The list's and profile's refresh before they read: a failure is logged and the page shows the scores as
 * they were, rather than failing the page over a score.
 */
export async function refreshScoresForView(context: { db: Db }, userId: UserId, now = new Date()): Promise<void> {
  try {
    await refreshLeadScores(context.db, userId, now);
  } catch (error) {
    console.error(JSON.stringify({ event: "lead_score_refresh_failed", message: String(error) }));
  }
}
