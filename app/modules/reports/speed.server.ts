import { and, eq, gte, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { contacts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

// Speed to lead, one definition for Reports, the dashboard and the leaderboard: a contact's response time is from
// when it was added to contacts.first_response_at (kept by triggers), never below zero, and it is the speed of the
// agent who gave that answer (contacts.answered_by): a contact handed to a teammate later keeps counting for whoever
// answered it, not for the teammate who holds it now.
// SQL hands over each group's times as one JSON array (read off the contacts_user_answered index); the
// percentiles are taken from the sorted values (definitions.ts responseSummary). Ranking them in SQL with
// window functions cost ten times as much on the bench's large account.

/** Milliseconds from a contact being added to its first answer (null while unanswered). */
export const responseMs = sql<number>`max(0, ${contacts.firstResponseAt} - ${contacts.createdAt})`;

/** Answered, by the agent themselves. */
const answeredBy = (userId: UserId) => and(isNotNull(contacts.firstResponseAt), eq(contacts.answeredBy, userId));

/** The response times (ms) of the answered contacts matching `where`, as a JSON array per group. */
export function responseTimesBy(db: RequestContext["db"], userId: UserId, where: SQL | undefined, current: SQL<number>) {
  return db
    .select({ source: contacts.source, current: current.as("current"), times: sql<string>`json_group_array(${responseMs})`.as("times") })
    .from(contacts)
    .where(ownedBy(contacts, userId, where, answeredBy(userId)))
    .groupBy(contacts.source, sql`current`);
}

/** The response times (ms) of the answered contacts added in [lo, hi), as one JSON array. */
export function responseTimes(db: RequestContext["db"], userId: UserId, lo: number, hi: number) {
  return db
    .select({ times: sql<string>`json_group_array(${responseMs})`.as("times") })
    .from(contacts)
    .where(ownedBy(contacts, userId, and(gte(contacts.createdAt, new Date(lo)), lt(contacts.createdAt, new Date(hi))), answeredBy(userId)));
}

/** A JSON array of numbers from SQL, sorted ascending. */
export function sortedTimes(json: string | null | undefined): number[] {
  const values = JSON.parse(json ?? "[]") as number[];
  return values.filter((v) => typeof v === "number").sort((a, b) => a - b);
}
