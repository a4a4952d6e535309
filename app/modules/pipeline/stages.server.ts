import { count, notInArray } from "drizzle-orm";
import { crmConfig, deals, type DealStage } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { ownedBy, ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { readStages, STAGE_MESSAGES, StagesSchema } from "./stages";

const memoKey = (userId: string) => `stages:${userId}`;

/** The user's stages in order (the defaults until they change them). Memoised per request. */
export function getStages(context: RequestContext, userId: UserId): Promise<DealStage[]> {
  return memoize(context, memoKey(userId), async () => {
    const row = await context.db.select({ stages: crmConfig.dealStages }).from(crmConfig).where(ownedBy(crmConfig, userId)).get();
    return readStages(row?.stages);
  });
}

/** The stages of several users in one read (a team view). */
export function stagesQuery(db: RequestContext["db"], userIds: readonly UserId[]) {
  return db.select({ userId: crmConfig.userId, stages: crmConfig.dealStages }).from(crmConfig).where(ownedByAny(crmConfig, userIds));
}

/** Keeps the rows of stagesQuery for the request, as getStages keeps them; returns them by user. */
export function keepStages(context: RequestContext, userIds: readonly UserId[], rows: Awaited<ReturnType<typeof stagesQuery>>) {
  const byUser = new Map<string, DealStage[]>();
  for (const id of userIds) {
    const stages = readStages(rows.find((r) => r.userId === id)?.stages);
    byUser.set(id, stages);
    context.memo.set(memoKey(id), Promise.resolve(stages));
  }
  return byUser;
}

export type SaveStagesResult = { ok: true; stages: DealStage[] } | { ok: false; error: string };

/**
 * Replaces the pipeline: renames, colours, probabilities, order, new stages. A stage can only go once no
 * deal is in it, so no deal is ever left in a stage that does not exist.
 */
export async function saveStages(context: RequestContext, userId: UserId, input: unknown): Promise<SaveStagesResult> {
  const parsed = StagesSchema.safeParse(input);
  if (!parsed.success) return { ok: false, error: parsed.error.issues[0]?.message ?? "Those stages are not valid." };
  const stages = parsed.data;
  const current = await getStages(context, userId);
  // won/lost keep their meaning: a stage cannot change kind, so closed deals keep counting the same way.
  for (const stage of stages) {
    const before = current.find((s) => s.key === stage.key);
    if (before && before.kind !== stage.kind) return { ok: false, error: "A stage cannot change between open, won and lost." };
  }
  const orphaned = await context.db
    .select({ stage: deals.stage, n: count() })
    .from(deals)
    .where(
      ownedBy(
        deals,
        userId,
        notInArray(
          deals.stage,
          stages.map((s) => s.key),
        ),
      ),
    )
    .groupBy(deals.stage);
  if (orphaned.length > 0) {
    const name = current.find((s) => s.key === orphaned[0]!.stage)?.name ?? orphaned[0]!.stage;
    return { ok: false, error: `${name}: ${STAGE_MESSAGES.notEmpty(orphaned[0]!.n)}` };
  }
  await context.db
    .insert(crmConfig)
    .values({ userId, dealStages: stages })
    .onConflictDoUpdate({ target: crmConfig.userId, set: { dealStages: stages, updatedAt: new Date() } });
  context.memo.delete(memoKey(userId));
  return { ok: true, stages };
}

/** Deals per stage key, for the settings screen ("3 deals"). */
export async function dealCountsByStage(context: RequestContext, userId: UserId): Promise<Record<string, number>> {
  const rows = await context.db.select({ stage: deals.stage, n: count() }).from(deals).where(ownedBy(deals, userId)).groupBy(deals.stage);
  return Object.fromEntries(rows.map((r) => [r.stage, r.n]));
}
