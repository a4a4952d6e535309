import { subscribers, type Plan, type SubscriptionStatus } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";

export type SubscriptionState =
  | { known: true; status: SubscriptionStatus | null; plan: Plan | null }
  | { known: false; error: string };

/** The signed-in user's subscription status, once per request. A failed read is reported, not thrown. */
export function getSubscription(context: RequestContext, userId: UserId): Promise<SubscriptionState> {
  return memoize(context, `subscription:${userId}`, async () => {
    try {
      const row = await context.db
        .select({ status: subscribers.subscriptionStatus, plan: subscribers.plan })
        .from(subscribers)
        .where(ownedBy(subscribers, userId))
        .get();
      return { known: true, status: row?.status ?? null, plan: row?.plan ?? null };
    } catch (error) {
      return { known: false, error: error instanceof Error ? error.message : String(error) };
    }
  });
}
