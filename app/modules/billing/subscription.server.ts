import { and, eq, ne } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { subscribers, teamMembers, teams, users, type Plan, type SubscriptionStatus } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";

export type SubscriptionState = { known: true; status: SubscriptionStatus | null; plan: Plan | null } | { known: false; error: string };

const teamSubscription = alias(subscribers, "team_subscription");
const live = (status: SubscriptionStatus | null | undefined) => status === "active" || status === "trialing";

/**
 * The signed-in user's subscription status, once per request. A failed read is reported, not thrown. A team member
 * (not the owner) works on the team's subscription, the owner's; if that one has lapsed, their own still
 * counts.
 */
export function getSubscription(context: RequestContext, userId: UserId): Promise<SubscriptionState> {
  return memoize(context, `subscription:${userId}`, async () => {
    try {
      const row = await context.db
        .select({
          status: subscribers.subscriptionStatus,
          plan: subscribers.plan,
          teamStatus: teamSubscription.subscriptionStatus,
          teamPlan: teamSubscription.plan,
        })
        .from(users)
        .leftJoin(subscribers, eq(subscribers.userId, users.id))
        .leftJoin(teamMembers, and(eq(teamMembers.userId, users.id), ne(teamMembers.role, "owner")))
        .leftJoin(teams, eq(teams.id, teamMembers.teamId))
        .leftJoin(teamSubscription, eq(teamSubscription.userId, teams.ownerId))
        .where(eq(users.id, userId))
        .get();
      const useTeam = row?.teamStatus != null && (live(row.teamStatus) || !live(row.status));
      if (useTeam) return { known: true, status: row!.teamStatus, plan: row!.teamPlan };
      return { known: true, status: row?.status ?? null, plan: row?.plan ?? null };
    } catch (error) {
      return { known: false, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
