import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { deals, profiles, subscribers, teamMembers, teams } from "~/db/schema";
import { createUser } from "./users";

// Teams for the tests of team views: made straight in D1, the way the Team plan leaves them. The invitation
// flow that normally makes them has its own tests (tests/workers/team.test.ts).

/**
 * A team on the Team plan: an owner, an admin and two agents, each named, the agents on the team's subscription; in
 * the home database unless `d1` names another (a team's members live in its database).
 */
export async function team(name = "Okafor Group", d1: D1Database = env.DB) {
  const db = () => createDb(d1);
  const owner = await createUser(d1);
  const admin = await createUser(d1, { status: null });
  const agentA = await createUser(d1, { status: null });
  const agentB = await createUser(d1, { status: null });
  const teamId = crypto.randomUUID();
  const names = new Map([
    [owner.id, "Olu Okafor"],
    [admin.id, "Ada Admin"],
    [agentA.id, "Amara Agent"],
    [agentB.id, "Bea Agent"],
  ]);
  await db().batch([
    db().update(subscribers).set({ plan: "team", seats: 4 }).where(eq(subscribers.userId, owner.id)),
    db().insert(teams).values({ id: teamId, ownerId: owner.id, name }),
    db()
      .insert(teamMembers)
      .values([
        { teamId, userId: owner.id, role: "owner", joinedAt: new Date() },
        { teamId, userId: admin.id, role: "admin", joinedAt: new Date() },
        { teamId, userId: agentA.id, role: "agent", joinedAt: new Date() },
        { teamId, userId: agentB.id, role: "agent", joinedAt: new Date() },
      ]),
    ...[...names].map(([userId, fullName]) => db().update(profiles).set({ fullName }).where(eq(profiles.userId, userId))),
  ]);
  return { owner, admin, agentA, agentB, teamId };
}

/** A deal row for `userId`: closed won at 3% unless `fields` say otherwise. */
export const deal = (userId: string, fields: Partial<typeof deals.$inferInsert>) =>
  ({
    id: crypto.randomUUID(),
    userId,
    title: "Deal",
    stage: "closed_won",
    position: "a0",
    dealValueCents: 0,
    commissionRate: 3,
    probability: 100,
    ...fields,
  }) satisfies typeof deals.$inferInsert;
