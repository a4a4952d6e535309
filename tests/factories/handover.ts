import { env } from "cloudflare:workers";
import { and, eq, sql } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import {
  contacts,
  contactSourceDays,
  contactStatusCounts,
  contactTagCounts,
  contactTags,
  crmActivities,
  crmTasks,
  deals,
  insightVersions,
  leadAlerts,
  properties,
  teamLeads,
} from "~/db/schema";
import { dayFromToday } from "./dates";
import { deal } from "./teams";

// A member's book and the figures kept of it, for the handover's tests (ADR 0039, ADR 0058).

const db = () => createDb(env.DB);
const DAY = 86_400_000;

/** Every trigger-kept counter of a user, next to the same figures counted from the rows themselves. */
export async function countersOf(userId: string) {
  const [statusKept, statusCounted, tagsKept, tagsCounted, daysKept, daysCounted] = await Promise.all([
    db()
      .select({ k: contactStatusCounts.status, n: contactStatusCounts.n })
      .from(contactStatusCounts)
      .where(and(eq(contactStatusCounts.userId, userId), sql`${contactStatusCounts.n} > 0`)),
    db().select({ k: contacts.status, n: sql<number>`count(*)` }).from(contacts).where(eq(contacts.userId, userId)).groupBy(contacts.status),
    db()
      .select({ k: contactTagCounts.tag, n: contactTagCounts.n })
      .from(contactTagCounts)
      .where(and(eq(contactTagCounts.userId, userId), sql`${contactTagCounts.n} > 0`)),
    db()
      .select({ k: contactTags.tag, n: sql<number>`count(*)` })
      .from(contactTags)
      .innerJoin(contacts, eq(contacts.id, contactTags.contactId))
      .where(eq(contacts.userId, userId))
      .groupBy(contactTags.tag),
    db()
      .select({ k: sql<string>`${contactSourceDays.source} || ${contactSourceDays.day}`, n: contactSourceDays.n })
      .from(contactSourceDays)
      .where(and(eq(contactSourceDays.userId, userId), sql`${contactSourceDays.n} > 0`)),
    db()
      .select({
        k: sql<string>`${contacts.source} || (${contacts.createdAt} - ((${contacts.createdAt} % 86400000) + 86400000) % 86400000)`,
        n: sql<number>`count(*)`,
      })
      .from(contacts)
      .where(eq(contacts.userId, userId))
      .groupBy(sql`1`),
  ]);
  const sorted = (rows: { k: string; n: number }[]) => Object.fromEntries(rows.map((r) => [r.k, r.n]).sort());
  return {
    kept: { status: sorted(statusKept), tags: sorted(tagsKept), days: sorted(daysKept) },
    counted: { status: sorted(statusCounted), tags: sorted(tagsCounted), days: sorted(daysCounted) },
  };
}

export const version = async (userId: string) =>
  (await db().select().from(insightVersions).where(eq(insightVersions.userId, userId)).get())?.version ?? 0;

/** An agent's book: two contacts (tagged, one a lead the team assigned), a deal with its history, a task, a call. */
export async function bookOf(userId: string, teamId: string, name: string) {
  const now = Date.now();
  const [hot, warm] = [crypto.randomUUID(), crypto.randomUUID()];
  const dealId = crypto.randomUUID();
  await db().batch([
    db()
      .insert(contacts)
      .values([
        {
          id: hot,
          userId,
          name: `${name} Buyer`,
          email: `${hot}@example.com`,
          status: "hot",
          source: "website",
          tags: ["relocation", "vip"],
          createdAt: new Date(now - 3 * DAY),
          lastActivity: new Date(now - DAY),
        },
        {
          id: warm,
          userId,
          name: `${name} Seller`,
          status: "warm",
          source: "referral",
          tags: ["vip"],
          createdAt: new Date(now - 10 * DAY),
          lastActivity: new Date(now - 2 * DAY),
        },
      ]),
    db()
      .insert(deals)
      .values(
        deal(userId, { id: dealId, title: `${name}'s listing`, stage: "showing", contactId: warm, dealValueCents: 45_000_000, probability: 40 }),
      ),
    db()
      .insert(crmTasks)
      .values({ id: crypto.randomUUID(), userId, contactId: hot, title: `Call ${name} Buyer back`, dueDate: dayFromToday(0) }),
    db()
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId, contactId: hot, type: "call", occurredAt: new Date(now - DAY), notes: "Wants a yard" }),
    db()
      .insert(leadAlerts)
      .values({ contactId: hot, userId, arrivedAt: now - 3 * DAY }),
    db().insert(properties).values({ id: crypto.randomUUID(), userId, contactId: hot, address: "12 Oak St, Austin, TX 78704", source: "zillow" }),
    db()
      .insert(teamLeads)
      .values({
        id: crypto.randomUUID(),
        teamId,
        name: `${name} Buyer`,
        source: "website",
        state: "assigned",
        assignedTo: userId,
        heldBy: userId,
        assignedAt: new Date(now - 3 * DAY),
        assignedHow: "round robin",
        contactId: hot,
      }),
  ]);
  return { hot, warm, dealId };
}
