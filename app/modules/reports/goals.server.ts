import { and, eq } from "drizzle-orm";
import { CONTACT_SOURCES, type ContactSource } from "~/db/enums";
import { leadSourceCosts, userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { IncomeGoalInput, SourceCostsInput } from "./goals.schema";

export interface Goals {
  incomeGoalCents: number | null;
  month: string;
  costs: Record<ContactSource, number | null>;
}

/** The income goal and one month's lead source costs. */
export async function getGoals(context: RequestContext, userId: UserId, month: string): Promise<Goals> {
  const [goal, costs] = await context.db.batch([
    context.db.select({ incomeGoalCents: userPreferences.incomeGoalCents }).from(userPreferences).where(ownedBy(userPreferences, userId)),
    context.db
      .select({ source: leadSourceCosts.source, costCents: leadSourceCosts.costCents })
      .from(leadSourceCosts)
      .where(ownedBy(leadSourceCosts, userId, eq(leadSourceCosts.month, month))),
  ]);
  const bySource = Object.fromEntries(CONTACT_SOURCES.map((source) => [source, costs.find((c) => c.source === source)?.costCents ?? null])) as Record<
    ContactSource,
    number | null
  >;
  return { incomeGoalCents: goal[0]?.incomeGoalCents ?? null, month, costs: bySource };
}

export async function saveIncomeGoal(context: RequestContext, userId: UserId, input: IncomeGoalInput) {
  await context.db
    .insert(userPreferences)
    .values({ userId, incomeGoalCents: input.incomeGoalCents })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { incomeGoalCents: input.incomeGoalCents, updatedAt: new Date() } });
}

/** A month's costs as entered: a blank source has no cost that month (its row goes). One batch, all or nothing. */
export async function saveSourceCosts(context: RequestContext, userId: UserId, input: SourceCostsInput) {
  const db = context.db;
  const statements = CONTACT_SOURCES.map((source) => {
    const cents = input[`cost_${source}`];
    return cents === null
      ? db
          .delete(leadSourceCosts)
          .where(ownedBy(leadSourceCosts, userId, and(eq(leadSourceCosts.month, input.month), eq(leadSourceCosts.source, source))))
      : db
          .insert(leadSourceCosts)
          .values({ userId, source, month: input.month, costCents: cents })
          .onConflictDoUpdate({
            target: [leadSourceCosts.userId, leadSourceCosts.month, leadSourceCosts.source],
            set: { costCents: cents, updatedAt: new Date() },
          });
  });
  await db.batch(statements as unknown as [(typeof statements)[number], ...(typeof statements)[number][]]);
}
