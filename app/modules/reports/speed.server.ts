import { and, gte, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { contacts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

// Speed to lead, one definition for Reports and the dashboard (issue 16): a contact's response time is from
// when it was added to contacts.first_response_at (kept by migration 0012's triggers), never below zero.
// SQL hands over each group's times as one JSON array (read off the contacts_user_answered index); the
// percentiles are taken from the sorted values (definitions.ts responseSummary). Ranking them in SQL with
// window functions cost ten times as much on the bench's large account.

/** Milliseconds from a contact being added to its first answer (null while unanswered). */
export const responseMs = sql<number>`max(0, ${contacts.firstResponseAt} - ${contacts.createdAt})`;

/** The response times (ms) of the answered contacts matching `where`, as a JSON array per group. */
export function responseTimesBy(db: RequestContext["db"], userId: UserId, where: SQL | undefined, current: SQL<number>) {
  return db
    .select({ source: contacts.source, current: current.as("current"), times: sql<string>`json_group_array(${responseMs})`.as("times") })
    .from(contacts)
    .where(ownedBy(contacts, userId, where, isNotNull(contacts.firstResponseAt)))
    .groupBy(contacts.source, sql`current`);
}

/** The response times (ms) of the answered contacts added in [lo, hi), as one JSON array. */
export function responseTimes(db: RequestContext["db"], userId: UserId, lo: number, hi: number) {
  return db
    .select({ times: sql<string>`json_group_array(${responseMs})`.as("times") })
    .from(contacts)
    .where(ownedBy(contacts, userId, and(gte(contacts.createdAt, new Date(lo)), lt(contacts.createdAt, new Date(hi))), isNotNull(contacts.firstResponseAt)));
}

/** A JSON array of numbers from SQL, sorted ascending. */
export function sortedTimes(json: string | null | undefined): number[] {
  const values = JSON.parse(json ?? "[]") as number[];
  return values.filter((v) => typeof v === "number").sort((a, b) => a - b);
}
