import { and, gte, isNotNull, lt, sql, type SQL, type Subquery } from "drizzle-orm";
import { contacts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

// Speed to lead, one definition for Reports and the dashboard (issue 16): a contact's response time is from
// when it was added to contacts.first_response_at (kept by migration 0012's triggers), never below zero.

/** Milliseconds from a contact being added to its first answer (null while unanswered). */
export const responseMs = sql<number>`max(0, ${contacts.firstResponseAt} - ${contacts.createdAt})`;

/**
 * Nearest-rank median and 90th percentile of `v` per (grp, current), in SQL: the value at rank ⌈p·n⌉ of each
 * group in ascending order (so of an even count the median is the lower middle value).
 */
export function percentiles(db: RequestContext["db"], rows: { as(alias: string): Subquery<string, Record<string, unknown>> }) {
  const base = rows.as("base") as unknown as Record<"grp" | "current" | "v", SQL.Aliased>;
  const ranked = db
    .select({
      grp: sql<string>`${base.grp}`.as("grp"),
      current: sql<number>`${base.current}`.as("current"),
      v: sql<number>`${base.v}`.as("v"),
      rn: sql<number>`row_number() over (partition by ${base.grp}, ${base.current} order by ${base.v})`.as("rn"),
      n: sql<number>`count(*) over (partition by ${base.grp}, ${base.current})`.as("n"),
    })
    .from(base as unknown as Subquery)
    .as("ranked");
  return db
    .select({
      grp: ranked.grp,
      current: ranked.current,
      n: sql<number>`max(${ranked.n})`.as("n_all"),
      p50: sql<number>`min(case when ${ranked.rn} * 100 >= ${ranked.n} * 50 then ${ranked.v} end)`.as("p50"),
      p90: sql<number>`min(case when ${ranked.rn} * 100 >= ${ranked.n} * 90 then ${ranked.v} end)`.as("p90"),
    })
    .from(ranked)
    .groupBy(sql`${ranked.grp}`, sql`${ranked.current}`);
}

/** Median and 90th percentile response time (ms) of the contacts added in [lo, hi), as one batchable statement. */
export function responseTimes(db: RequestContext["db"], userId: UserId, lo: number, hi: number) {
  return percentiles(
    db,
    db
      .select({ grp: sql<string>`'*'`.as("grp"), current: sql<number>`1`.as("current"), v: responseMs.as("v") })
      .from(contacts)
      .where(ownedBy(contacts, userId, gte(contacts.createdAt, new Date(lo)), lt(contacts.createdAt, new Date(hi)), isNotNull(contacts.firstResponseAt))),
  );
}


