import { commissionPlans } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { fieldErrors } from "~/lib/schema-fields";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { DEFAULT_PLAN, PlanInputSchema, type CommissionPlan } from "./plan.schema";

/** The plan stored in a commission_plans row, or the default plan when the agent has none. */
export function planFromRow(row: typeof commissionPlans.$inferSelect | undefined): CommissionPlan {
  if (!row) return { ...DEFAULT_PLAN };
  const { userId: _owner, updatedAt: _updated, ...plan } = row;
  return plan;
}

export function getPlan(context: RequestContext, userId: UserId): Promise<CommissionPlan> {
  return memoize(context, `plan:${userId}`, async () => planFromRow(await context.db.select().from(commissionPlans).where(ownedBy(commissionPlans, userId)).get()));
}

export type SavePlanResult = { ok: true; plan: CommissionPlan } | { ok: false; fieldErrors: Record<string, string> };

export async function savePlan(context: RequestContext, userId: UserId, input: unknown): Promise<SavePlanResult> {
  const parsed = PlanInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrors(parsed.error) };
  const plan = parsed.data;
  await context.db
    .insert(commissionPlans)
    .values({ userId, ...plan })
    .onConflictDoUpdate({ target: commissionPlans.userId, set: { ...plan, updatedAt: new Date() } });
  context.memo.delete(`plan:${userId}`);
  return { ok: true, plan };
}
