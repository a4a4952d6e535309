import { and, asc, count, desc, eq, gte, like, lte, sql, type SQL } from "drizzle-orm";
import type { AuditWhere } from "~/modules/audit/audit.server";
import { plansOnStage } from "~/modules/plans/plans.server";
import type { BatchItem } from "drizzle-orm/batch";
import { generateKeyBetween } from "fractional-indexing";
import { contacts, crmActivities, deals, type Deal, type DealStage, type NewDeal } from "~/db/schema";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { isoDateIn } from "~/lib/format";
import { ownedBy } from "~/lib/tenancy.server";
import { stageChangeInsert } from "~/modules/activities/activities.server";
import type { UserId } from "~/modules/auth/session.server";
import { getPlan } from "~/modules/commissions/plans.server";
import { stageByKey } from "~/modules/pipeline/stages";
import type { ColumnTotals } from "~/modules/pipeline/board";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { DEAL_MESSAGES, type DealStageState } from "./deal.messages";
import { LIST_LIMIT, type DealInput, type DealMove, type DealSort } from "./deal.schema";
import { moveToTrash } from "~/modules/trash/trash.server";

export type DealWithContact = Deal & { contactName: string | null };
export type DealResult =
  | { ok: true; deal: Deal; from?: DealStageState | null }
  | { ok: false; status: 400 | 404 | 409; error: string; fieldErrors: Record<string, string> };

const fail = (fieldErrors: Record<string, string>, status: 400 | 404 | 409 = 400): DealResult => ({
  ok: false,
  status,
  error: Object.values(fieldErrors)[0] ?? DEAL_MESSAGES.saveFailed,
  fieldErrors,
});

/** Deals with their contact's name; the join repeats the owner test, so only the owner's contact can show. */
function dealsWithContact(context: RequestContext, userId: UserId) {
  return context.db
    .select({ deal: deals, contactName: contacts.name })
    .from(deals)
    .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)));
}
const flatten = (row: { deal: Deal; contactName: string | null }): DealWithContact => ({ ...row.deal, contactName: row.contactName });

async function today(context: RequestContext, userId: UserId) {
  return isoDateIn(new Date(), (await getDisplayPreferences(context, userId)).timezone);
}

async function ownedContact(context: RequestContext, userId: UserId, contactId: string | null) {
  if (!contactId) return true;
  return Boolean(
    await context.db
      .select({ id: contacts.id })
      .from(contacts)
      .where(ownedBy(contacts, userId, eq(contacts.id, contactId)))
      .get(),
  );
}

async function lastPosition(context: RequestContext, userId: UserId, stage: string): Promise<string | null> {
  const row = await context.db
    .select({ position: deals.position })
    .from(deals)
    .where(ownedBy(deals, userId, eq(deals.stage, stage)))
    .orderBy(desc(deals.position))
    .limit(1)
    .get();
  return row?.position ?? null;
}

/** Stage-dependent fields when a deal is (or stays) in `stage`: closed date and lost reason follow its kind. */
function stageFields(
  stage: DealStage,
  input: { closedDate: string | null; lostReason: string | null },
  previous: { closedDate: string | null } | null,
  day: string,
) {
  return {
    closedDate: stage.kind === "open" ? null : (input.closedDate ?? previous?.closedDate ?? day),
    lostReason: stage.kind === "lost" ? input.lostReason : null,
  };
}

export async function getDeal(context: RequestContext, userId: UserId, id: string): Promise<DealWithContact | null> {
  const row = await dealsWithContact(context, userId)
    .where(ownedBy(deals, userId, eq(deals.id, id)))
    .get();
  return row ? flatten(row) : null;
}

/** What create and update both check: the stage exists, a lost deal says why, the contact is the user's. */
async function checkDealInput(
  context: RequestContext,
  userId: UserId,
  input: DealInput,
): Promise<{ refused: DealResult } | { stage: DealStage; stages: DealStage[]; plan: Awaited<ReturnType<typeof getPlan>>; day: string }> {
  const [stages, plan, day] = await Promise.all([getStages(context, userId), getPlan(context, userId), today(context, userId)]);
  const stage = stageByKey(stages, input.stage);
  if (!stage) return { refused: fail({ stage: DEAL_MESSAGES.stageUnknown }) };
  if (stage.kind === "lost" && !input.lostReason) return { refused: fail({ lostReason: DEAL_MESSAGES.lostReasonRequired }) };
  if (!(await ownedContact(context, userId, input.contactId))) return { refused: fail({ contactId: DEAL_MESSAGES.contactUnknown }) };
  return { stage, stages, plan, day };
}

/** `id`: the row id, derived from a submission key when the form sent one (ADR 0051), so a retry cannot add it twice. */
export async function createDeal(context: RequestContext, userId: UserId, input: DealInput, id = newId()): Promise<DealResult> {
  const checked = await checkDealInput(context, userId, input);
  if ("refused" in checked) return checked.refused;
  const { stage, plan, day } = checked;
  const now = new Date();
  const row: NewDeal = {
    ...input,
    id,
    userId,
    createdAt: now,
    updatedAt: now,
    stageChangedAt: now,
    commissionRate: input.commissionRate ?? plan.defaultRate,
    probability: input.probability ?? stage.probability,
    probabilitySet: input.probability !== null,
    position: generateKeyBetween(await lastPosition(context, userId, stage.key), null),
    ...stageFields(stage, input, null, day),
  };
  const [deal] = await context.db.insert(deals).values(row).returning();
  return { ok: true, deal: deal! };
}

export async function updateDeal(context: RequestContext, userId: UserId, id: string, input: DealInput): Promise<DealResult> {
  const existing = await context.db
    .select()
    .from(deals)
    .where(ownedBy(deals, userId, eq(deals.id, id)))
    .get();
  if (!existing) return fail({ form: DEAL_MESSAGES.notFound }, 404);
  const checked = await checkDealInput(context, userId, input);
  if ("refused" in checked) return checked.refused;
  const { stage, stages, plan, day } = checked;
  const moved = stage.key !== existing.stage;
  const now = new Date();
  const patch: Partial<NewDeal> = {
    ...input,
    commissionRate: input.commissionRate ?? plan.defaultRate,
    probability: input.probability ?? stage.probability,
    probabilitySet: input.probability !== null,
    ...stageFields(stage, input, moved ? null : existing, day),
    ...(moved ? { stage: stage.key, position: generateKeyBetween(await lastPosition(context, userId, stage.key), null), stageChangedAt: now } : {}),
    updatedAt: now,
  };
  const update = context.db
    .update(deals)
    .set(patch)
    .where(ownedBy(deals, userId, eq(deals.id, id)))
    .returning();
  const from = stageByKey(stages, existing.stage);
  const statements: BatchItem<"sqlite">[] = [update];
  if (moved)
    statements.push(
      stageChangeInsert(
        context,
        userId,
        {
          dealId: id,
          contactId: input.contactId,
          from: { key: existing.stage, name: from?.name ?? existing.stage },
          to: { key: stage.key, name: stage.name },
          lostReason: patch.lostReason,
        },
        now,
      ),
    );
  const [updated] = (await context.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as [Deal[]];
  if (moved) await plansOnStage(context.db, userId, updated[0]!.contactId, stage.key, stage.name, now);
  return { ok: true, deal: updated[0]! };
}

/**
 * A move on the board: into `stage`, between the cards `afterId` (above) and `beforeId` (below). Entering
 * a stage sets its default probability unless the user chose one, dates a close (the day the agent gave, or today in
 * their timezone), asks a lost reason, and records the change (naming `by`, a teammate who made the move for the
 * agent on the team pipeline). With `fromStage`, the deal must still be in that stage (an Undo). Answers the stage
 * the deal left, with its close date and lost reason, for an Undo. `requires` is a teammate's relationship to the
 * deal when they make the move, re-checked inside the move's batch (write-guard.server.ts).
 */
export async function moveDeal(
  context: RequestContext,
  userId: UserId,
  id: string,
  move: Pick<DealMove, "stage" | "afterId" | "beforeId" | "lostReason"> & Partial<Pick<DealMove, "closedDate" | "fromStage">>,
  by: string | null = null,
  requires?: SQL,
): Promise<DealResult> {
  const existing = await context.db
    .select()
    .from(deals)
    .where(ownedBy(deals, userId, eq(deals.id, id)))
    .get();
  if (!existing) return fail({ form: DEAL_MESSAGES.notFound }, 404);
  if (move.fromStage && existing.stage !== move.fromStage) return fail({ form: DEAL_MESSAGES.movedSince }, 409);
  const stages = await getStages(context, userId);
  const stage = stageByKey(stages, move.stage);
  if (!stage) return fail({ stage: DEAL_MESSAGES.stageUnknown });
  const moved = stage.key !== existing.stage;
  if (moved && stage.kind === "lost" && !move.lostReason) return fail({ lostReason: DEAL_MESSAGES.lostReasonRequired });

  // Neighbours only count if they are the user's, in that stage, and not the deal itself.
  const neighbour = async (neighbourId: string | null) =>
    neighbourId && neighbourId !== id
      ? ((
          await context.db
            .select({ position: deals.position })
            .from(deals)
            .where(ownedBy(deals, userId, eq(deals.id, neighbourId), eq(deals.stage, stage.key)))
            .get()
        )?.position ?? null)
      : null;
  const [above, below] = await Promise.all([neighbour(move.afterId), neighbour(move.beforeId)]);
  // No usable neighbour (an empty column, or a stale board naming cards that moved away): the end.
  const atEnd = async () => generateKeyBetween(await lastPosition(context, userId, stage.key), null);
  let position: string;
  try {
    position = above === null && below === null ? await atEnd() : generateKeyBetween(above, below);
  } catch {
    position = await atEnd(); // two cards with the same key: no room between them
  }

  const now = new Date();
  const patch: Partial<NewDeal> = { position, updatedAt: now };
  const statements: BatchItem<"sqlite">[] = [];
  if (moved) {
    Object.assign(patch, {
      stage: stage.key,
      stageChangedAt: now,
      ...(existing.probabilitySet ? {} : { probability: stage.probability }),
      ...stageFields(stage, { closedDate: move.closedDate ?? null, lostReason: move.lostReason }, null, await today(context, userId)),
    });
    const from = stageByKey(stages, existing.stage);
    statements.push(
      stageChangeInsert(
        context,
        userId,
        {
          dealId: id,
          contactId: existing.contactId,
          from: { key: existing.stage, name: from?.name ?? existing.stage },
          to: { key: stage.key, name: stage.name },
          lostReason: patch.lostReason,
          by,
        },
        now,
      ),
    );
  }
  const update = context.db
    .update(deals)
    .set(patch)
    .where(ownedBy(deals, userId, eq(deals.id, id)))
    .returning();
  const left = moved ? { stage: existing.stage, closedDate: existing.closedDate, lostReason: existing.lostReason } : null;
  if (requires) {
    const done = await guardedBatch(() =>
      context.db.batch([requireInBatch(context.db, requires), update, ...statements] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]),
    );
    if (!done.ok) return fail({ form: DEAL_MESSAGES.notFound }, 404);
    const deal = (done.results as unknown as [unknown, Deal[]])[1][0]!;
    if (moved) await plansOnStage(context.db, userId, deal.contactId, stage.key, stage.name, now);
    return { ok: true, deal, from: left };
  }
  const [updated] = (await context.db.batch([update, ...statements] as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]])) as [Deal[]];
  // The contact's action plans that stop at this stage stop, and those that start here start (ADR 0072).
  if (moved) await plansOnStage(context.db, userId, updated[0]!.contactId, stage.key, stage.name, now);
  return { ok: true, deal: updated[0]!, from: left };
}

/**
 * Deletes the user's deal: it moves to the trash for 30 days with its activities and stage history, and its
 * tasks are unlinked (ADR 0028). Returns the trash item's id for an Undo, or null when there is no such deal.
 */
export async function trashDeal(context: RequestContext, userId: UserId, id: string, where: AuditWhere): Promise<string | null> {
  return (await moveToTrash(context.cloudflare.env.DB, userId, "deal", [id], Date.now(), where)).trashIds[0] ?? null;
}

/** Deletes (to the trash) the user's deal; false when there is no such deal of theirs. */
export async function deleteDeal(context: RequestContext, userId: UserId, id: string, where: AuditWhere): Promise<boolean> {
  return (await trashDeal(context, userId, id, where)) !== null;
}

/** The stage changes of a deal, newest first (the deal page's stage history, beside its timeline). */
export async function stageHistory(context: RequestContext, userId: UserId, dealId: string) {
  return context.db
    .select({ id: crmActivities.id, occurredAt: crmActivities.occurredAt, meta: crmActivities.meta })
    .from(crmActivities)
    .where(ownedBy(crmActivities, userId, eq(crmActivities.dealId, dealId), eq(crmActivities.type, "stage_change")))
    .orderBy(desc(crmActivities.occurredAt))
    .limit(50);
}

// ---- The board and the list ---------------------------------------------------------------------------

/** Cards each column shows before "Show all": two to three phone screens. */
const CARDS_PER_COLUMN = 12;

/** Per stage: how many deals, their total value and weighted value (value x probability, to the cent). */
/** A column's totals as SQL aggregates: how many, their value, value x probability (each deal rounded to the cent). */
export const stageTotalColumns = () => ({
  count: count(),
  valueCents: sql<number>`coalesce(sum(${deals.dealValueCents}), 0)`,
  weightedCents: sql<number>`coalesce(sum((${deals.dealValueCents} * ${deals.probability} + 50) / 100), 0)`,
});

export async function columnTotals(context: RequestContext, userId: UserId): Promise<Record<string, ColumnTotals>> {
  const rows = await context.db
    .select({ stage: deals.stage, ...stageTotalColumns() })
    .from(deals)
    .where(ownedBy(deals, userId))
    .groupBy(deals.stage);
  return Object.fromEntries(rows.map(({ stage, ...totals }) => [stage, totals]));
}

/** The first cards of every column (or all of one stage), in board order. */
export async function boardCards(
  context: RequestContext,
  userId: UserId,
  options: { stage?: string; perColumn?: number } = {},
): Promise<DealWithContact[]> {
  if (options.stage) {
    return (
      await dealsWithContact(context, userId)
        .where(ownedBy(deals, userId, eq(deals.stage, options.stage)))
        .orderBy(asc(deals.position), asc(deals.id))
        .limit(2_000)
    ).map(flatten);
  }
  // One statement per stage, each reading its first cards straight off the (user, stage, position, id)
  // index, all in one round trip: 140 rows read for a board of 2,000 deals.
  const stages = await getStages(context, userId);
  const perColumn = options.perColumn ?? CARDS_PER_COLUMN;
  const reads = stages.map((stage) =>
    dealsWithContact(context, userId)
      .where(ownedBy(deals, userId, eq(deals.stage, stage.key)))
      .orderBy(asc(deals.position), asc(deals.id))
      .limit(perColumn),
  );
  if (reads.length === 0) return [];
  const columns = await context.db.batch(reads as [(typeof reads)[number], ...(typeof reads)[number][]]);
  return columns.flat().map(flatten);
}

export interface DealFilters {
  stage?: string;
  /** "YYYY-MM": closes in that month (the day a closed deal closed, else its expected close). */
  month?: string;
  contactId?: string;
  minCents?: number;
  maxCents?: number;
}

/** The day a deal closes, as the list shows it: the day it closed once closed, else the day it is expected to. */
const closeDay = sql`coalesce(${deals.closedDate}, ${deals.expectedCloseDate})`;

/** The list view: filtered and sorted, at most LIST_LIMIT rows, with the full count. */
export async function listDeals(context: RequestContext, userId: UserId, filters: DealFilters, sort: DealSort = "close") {
  const conditions: (SQL | undefined)[] = [
    filters.stage ? eq(deals.stage, filters.stage) : undefined,
    filters.month ? like(closeDay, `${filters.month}-%`) : undefined,
    filters.contactId ? eq(deals.contactId, filters.contactId) : undefined,
    filters.minCents != null ? gte(deals.dealValueCents, filters.minCents) : undefined,
    filters.maxCents != null ? lte(deals.dealValueCents, filters.maxCents) : undefined,
  ];
  const where = ownedBy(deals, userId, ...conditions);
  const order: Record<DealSort, SQL[]> = {
    close: [sql`${closeDay} is null`, asc(closeDay), asc(deals.id)],
    value: [desc(deals.dealValueCents), asc(deals.id)],
    title: [sql`${deals.title} collate nocase`, asc(deals.id)],
    newest: [desc(deals.createdAt), desc(deals.id)],
    probability: [desc(deals.probability), asc(deals.id)],
  };
  const [rows, total] = await Promise.all([
    dealsWithContact(context, userId)
      .where(where)
      .orderBy(...order[sort])
      .limit(LIST_LIMIT),
    context.db.select({ n: count() }).from(deals).where(where).get(),
  ]);
  return { deals: rows.map(flatten), total: total?.n ?? 0 };
}

/** A contact's deals, newest first (the contact profile's Deals section). */
export async function dealsForContact(context: RequestContext, userId: UserId, contactId: string): Promise<Deal[]> {
  return context.db
    .select()
    .from(deals)
    .where(ownedBy(deals, userId, eq(deals.contactId, contactId)))
    .orderBy(desc(deals.createdAt))
    .limit(100);
}
