import { DAY_MS } from "~/lib/dates";
import { gte, inArray, lt, sql } from "drizzle-orm";
import { CONTACT_SOURCES } from "~/db/enums";
import { contacts, contactSourceDays } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

// Contacts added per source, one definition for Reports and the dashboard. contact_source_days
// (migration 0013, kept by triggers on contacts) holds the count per source per UTC day. A range of instants
// is read as the whole UTC days inside it from there, and the slivers at its two ends (an agent's day starts
// at her midnight, which is rarely a UTC one) from the contacts themselves off contacts_user_source_created.
// A year on the bench's 100,000-contact account is then about 400 counter rows and two days of contacts,
// where counting the contacts read every one of them.

/** An instant range [lo, hi) split into whole UTC days [days.lo, days.hi) and the edges outside them. */
export function splitByUtcDay(lo: number, hi: number): { days: { lo: number; hi: number } | null; edges: { lo: number; hi: number }[] } {
  const first = Math.ceil(lo / DAY_MS) * DAY_MS;
  const last = Math.floor(hi / DAY_MS) * DAY_MS;
  if (first >= last) return { days: null, edges: hi > lo ? [{ lo, hi }] : [] };
  return {
    days: { lo: first, hi: last },
    edges: [
      { lo, hi: first },
      { lo: last, hi },
    ].filter((e) => e.hi > e.lo),
  };
}

type Range = { lo: number; hi: number };

/**
 * Contacts added per source in a period and the one it is compared with (ranges of instants, the current one
 * later), as two statements for a batch: the whole days from the counts, the edges from contacts. Each gives
 * rows of { source, current (1 or 0), n } to add up. Every range is its own part of a UNION ALL, so each is
 * one seek per source down its index (an OR of ranges would have SQLite read all of them).
 */
export function contactsAddedBy(db: RequestContext["db"], userId: UserId, previous: Range, current: Range) {
  const sources = [...CONTACT_SOURCES];
  const parts = [previous, current].map((r, i) => ({ ...splitByUtcDay(r.lo, r.hi), current: i }));
  const dayRanges = parts.flatMap((p) => (p.days ? [{ ...p.days, current: p.current }] : []));
  const edgeRanges = parts.flatMap((p) => p.edges.map((e) => ({ ...e, current: p.current })));
  const days = (r: Range & { current: number }) =>
    db
      .select({
        source: contactSourceDays.source,
        current: sql<number>`${r.current}`.as("current"),
        n: sql<number>`sum(${contactSourceDays.n})`.as("n"),
      })
      .from(contactSourceDays)
      .where(
        ownedBy(
          contactSourceDays,
          userId,
          inArray(contactSourceDays.source, sources),
          gte(contactSourceDays.day, r.lo),
          lt(contactSourceDays.day, r.hi),
        ),
      )
      .groupBy(contactSourceDays.source);
  const edges = (r: Range & { current: number }) =>
    db
      .select({ source: contacts.source, current: sql<number>`${r.current}`.as("current"), n: sql<number>`count(*)`.as("n") })
      .from(contacts)
      .where(
        ownedBy(contacts, userId, inArray(contacts.source, sources), gte(contacts.createdAt, new Date(r.lo)), lt(contacts.createdAt, new Date(r.hi))),
      )
      .groupBy(contacts.source);
  // A range with no whole day (or no edge) still has a statement in the batch: one that matches nothing.
  const none = { lo: 0, hi: 0, current: 0 };
  return [union(dayRanges.map(days), () => days(none)), union(edgeRanges.map(edges), () => edges(none))] as const;
}

/** The parts as one UNION ALL (or the one part, or the fallback when there are none). */
function union<Q extends { unionAll: (other: Q) => unknown }>(parts: Q[], fallback: () => Q): Q {
  const [first, ...rest] = parts;
  if (!first) return fallback();
  return rest.reduce((all, part) => all.unionAll(part) as Q, first);
}

/** Every contact the user has, per source (the dashboard's lead sources). */
export function contactsPerSource(db: RequestContext["db"], userId: UserId) {
  return db
    .select({ source: contactSourceDays.source, n: sql<number>`sum(${contactSourceDays.n})`.as("n") })
    .from(contactSourceDays)
    .where(ownedBy(contactSourceDays, userId))
    .groupBy(contactSourceDays.source);
}
