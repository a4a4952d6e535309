import { and, asc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import * as z from "zod";
import type { Db } from "~/db/client.server";
import { crmConfig, dealShares, deals, type DealStage } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { percent } from "~/lib/schema-fields";
import { ownedBy } from "~/lib/tenancy.server";
import type { SessionUser, UserId } from "~/modules/auth/session.server";
import { readStages } from "~/modules/pipeline/stages";
import { teamOf } from "~/modules/team/guard.server";
import { getMembership, isMemberSql, isSellerRole, listMembers, SELLER_ROLES, sellsOnTeam } from "~/modules/team/team.server";
import { guardedBatch, requireInBatch } from "~/db/write-guard.server";

// Shared deals (ADR 0037). The deal stays its agent's (deals.user_id): only they edit it, and it sits on
// their board in their stages. A co-agent is a teammate with a share of the side: the commission math gives them
// that % of the gross before their own plan and cap (commission.ts), and the deal's agent keeps the rest. A co-agent
// sees the deal on their Pipeline (in "Shared with you"), and its net counts in their forecast, cap and leaderboard.

const MAX_CO_AGENTS = 4;

export const SHARE_MESSAGES = {
  teamOnly: "Sharing a deal needs the Team plan: co-agents are members of your team.",
  notTeammate: "Choose a member of your team.",
  notYourself: "You are the deal's agent already.",
  isa: "An inside sales agent (ISA) has no part in the team's deals: choose an agent.",
  youAreIsa: "As the team's inside sales agent (ISA) you do not share deals: hand the lead to an agent instead.",
  tooMany: `A deal can have at most ${MAX_CO_AGENTS} co-agents.`,
  overHundred: (left: number) => `The co-agents' shares must leave you part of the side: at most ${left} % is left to share.`,
  shareRange: "Share of the side is a percentage above 0 and below 100, e.g. 25.",
};

/** A deal shared with the viewer, priced as theirs: the deal's rate and referral fee, their share, their own plan. */
export interface SharedDeal {
  id: string;
  title: string;
  ownerId: UserId;
  /** The deal's agent's stage key and its name and kind in the deal's agent's pipeline. */
  stage: string;
  stageName: string;
  kind: DealStage["kind"];
  dealValueCents: number;
  commissionRate: number;
  referralFeePct: number | null;
  /** The deal's agent's overrides of their own plan do not apply to a co-agent: their own plan does. */
  brokerageSplitPct: null;
  teamSplitPct: null;
  transactionFeeCents: null;
  eoFeeCents: null;
  franchiseFeePct: null;
  probability: number;
  expectedCloseDate: string | null;
  closedDate: string | null;
  coAgentPct: number;
  ownerName: string;
}

/**
 * The deals shared with `userId`, oldest first, with their agent's stages: one statement, so the dashboard and Reports
 * run it inside their single batch (toSharedDeals reads the rows).
 */
export function sharedDealsQuery(db: Db, userId: UserId) {
  return sharedDeals(db, {}, eq(dealShares.agentId, userId));
}

const SHARED_COLUMNS = {
  id: deals.id,
  title: deals.title,
  ownerId: deals.userId,
  stage: deals.stage,
  dealValueCents: deals.dealValueCents,
  commissionRate: deals.commissionRate,
  referralFeePct: deals.referralFeePct,
  probability: deals.probability,
  expectedCloseDate: deals.expectedCloseDate,
  closedDate: deals.closedDate,
  coAgentPct: dealShares.sharePct,
  ownerStages: crmConfig.dealStages,
};

function sharedDeals<Extra extends Record<string, typeof dealShares.agentId>>(db: Db, extra: Extra, where: SQL) {
  return (
    db
      .select({ ...SHARED_COLUMNS, ...extra })
      .from(dealShares)
      // The share's owner must be the deal's agent (a share row never outlives a change of either).
      .innerJoin(deals, and(eq(deals.id, dealShares.dealId), eq(deals.userId, dealShares.ownerId)))
      .leftJoin(crmConfig, eq(crmConfig.userId, dealShares.ownerId))
      .where(where)
      .orderBy(asc(dealShares.createdAt), asc(deals.id))
  );
}

/** sharedDealsQuery for several agents at once (a team view's batch), each row with its co-agent: keepSharedWith. */
export function sharedDealsOfQuery(db: Db, userIds: readonly UserId[]) {
  return sharedDeals(db, { agentId: dealShares.agentId }, inArray(dealShares.agentId, [...userIds]));
}

/** Keeps each agent's deals shared with them from sharedDealsOfQuery's rows, named by `names`, for the request. */
export function keepSharedWith(
  context: RequestContext,
  userIds: readonly UserId[],
  rows: Awaited<ReturnType<typeof sharedDealsOfQuery>>,
  names: ReadonlyMap<string, string>,
) {
  for (const id of userIds) {
    const mine = rows.filter((r) => r.agentId === id).map(({ agentId: _, ...row }) => row);
    context.memo.set(`shared-with:${id}`, Promise.resolve(toSharedDeals(mine, names)));
  }
}

/** The rows of sharedDealsQuery as SharedDeals: each deal's stage named and kinded by its own agent's pipeline. */
export function toSharedDeals(rows: Awaited<ReturnType<typeof sharedDealsQuery>>, names: ReadonlyMap<string, string> = new Map()): SharedDeal[] {
  const ownPlan = { brokerageSplitPct: null, teamSplitPct: null, transactionFeeCents: null, eoFeeCents: null, franchiseFeePct: null } as const;
  return rows.map(({ ownerStages, ...row }) => {
    const stage = readStages(ownerStages).find((s) => s.key === row.stage);
    return {
      ...row,
      ...ownPlan,
      ownerId: row.ownerId as UserId,
      ownerName: names.get(row.ownerId) ?? "Your teammate",
      stageName: stage?.name ?? row.stage,
      kind: stage?.kind ?? "open",
    };
  });
}

/**
 * Every share the agent is in, either way, in one indexed read per request: most agents have none, and then neither
 * sharedWith nor sharesOfOwner reads anything more.
 */
function sharesTouching(context: RequestContext, userId: UserId) {
  // (Awaited inside: a query builder runs again each time it is awaited.)
  return memoize(context, `shares-touching:${userId}`, async () => await sharesTouchingQuery(context.db, [userId]));
}

/** Every share any of `userIds` is in, either way: one statement of a team view's batch (keepSharesTouching). */
export function sharesTouchingQuery(db: RequestContext["db"], userIds: readonly UserId[]) {
  return db
    .select({ dealId: dealShares.dealId, ownerId: dealShares.ownerId, agentId: dealShares.agentId, pct: dealShares.sharePct })
    .from(dealShares)
    .where(or(inArray(dealShares.ownerId, [...userIds]), inArray(dealShares.agentId, [...userIds])));
}

/** Keeps each of `userIds`' shares from sharesTouchingQuery's rows for the request, so pricing them reads no more. */
export function keepSharesTouching(context: RequestContext, userIds: readonly UserId[], rows: Awaited<ReturnType<typeof sharesTouchingQuery>>) {
  for (const id of userIds) context.memo.set(`shares-touching:${id}`, Promise.resolve(rows.filter((r) => r.ownerId === id || r.agentId === id)));
}

/** The deals shared with `userId`, with their agents' names. Once per request. */
export function sharedWith(context: RequestContext, userId: UserId): Promise<SharedDeal[]> {
  return memoize(context, `shared-with:${userId}`, async () => {
    if (!(await sharesTouching(context, userId)).some((s) => s.agentId === userId)) return [];
    const rows = await sharedDealsQuery(context.db, userId);
    if (rows.length === 0) return [];
    const membership = await getMembership(context, userId);
    const members = membership ? await listMembers(context, membership.teamId) : [];
    return toSharedDeals(rows, new Map(members.map((m) => [m.userId, m.name])));
  });
}

/** The co-agents' shares of each of the owner's shared deals (deal id → percents). Once per request. */
export function sharesOfOwner(context: RequestContext, ownerId: UserId): Promise<Map<string, number[]>> {
  return memoize(context, `shares-of:${ownerId}`, async () => {
    const map = new Map<string, number[]>();
    for (const row of await sharesTouching(context, ownerId))
      if (row.ownerId === ownerId) map.set(row.dealId, [...(map.get(row.dealId) ?? []), row.pct]);
    return map;
  });
}

/** For the deal's agent: who shares the deal, with their names. */
export async function coAgentsOf(context: RequestContext, owner: SessionUser, dealId: string) {
  const team = await teamOf(context, owner);
  const [members, rows] = await Promise.all([
    team ? listMembers(context, team.teamId) : Promise.resolve([]),
    context.db
      .select({ agentId: dealShares.agentId, sharePct: dealShares.sharePct })
      .from(dealShares)
      .where(and(eq(dealShares.ownerId, owner.id), eq(dealShares.dealId, dealId)))
      .orderBy(asc(dealShares.createdAt)),
  ]);
  const names = new Map(members.map((m) => [m.userId, m.name]));
  return {
    onTeam: team !== null,
    coAgents: rows.map((r) => ({ ...r, name: names.get(r.agentId) ?? "A former teammate" })),
    /** Teammates who could be added. */
    candidates: members
      .filter((m) => m.userId !== owner.id && isSellerRole(m.role) && !rows.some((r) => r.agentId === m.userId))
      .map((m) => ({ userId: m.userId, name: m.name })),
  };
}

const ShareInput = z.object({
  agent: z.string().trim().min(1, SHARE_MESSAGES.notTeammate).max(64, SHARE_MESSAGES.notTeammate),
  sharePct: percent("Share of the side").refine((n) => n > 0 && n < 100, SHARE_MESSAGES.shareRange),
});

export type ShareResult = { ok: true } | { ok: false; status: 400 | 404; fieldErrors: Record<string, string> };

/**
 * The deal's agent adds a co-agent or changes their share. The deal must be theirs (404), the co-agent a member of
 * their team (they must be on the Team plan), and the shares must leave them part of the side.
 */
export async function saveShare(context: RequestContext, owner: SessionUser, dealId: string, form: FormData): Promise<ShareResult> {
  const deal = await context.db
    .select({ id: deals.id })
    .from(deals)
    .where(ownedBy(deals, owner.id, eq(deals.id, dealId)))
    .get();
  if (!deal) return { ok: false, status: 404, fieldErrors: {} };
  const team = await teamOf(context, owner);
  if (!team) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.teamOnly } };
  if (!sellsOnTeam(team)) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.youAreIsa } };
  const parsed = ShareInput.safeParse({ agent: form.get("agent") ?? "", sharePct: form.get("sharePct") ?? "" });
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
    return { ok: false, status: 400, fieldErrors: errors };
  }
  const { agent, sharePct } = parsed.data;
  if (agent === owner.id) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.notYourself } };
  const members = await listMembers(context, team.teamId);
  const coAgent = members.find((m) => m.userId === agent);
  if (!coAgent) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.notTeammate } };
  if (!isSellerRole(coAgent.role)) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.isa } };
  const others = (
    await context.db
      .select({ agentId: dealShares.agentId, pct: dealShares.sharePct })
      .from(dealShares)
      .where(and(eq(dealShares.ownerId, owner.id), eq(dealShares.dealId, dealId)))
  ).filter((r) => r.agentId !== agent);
  if (others.length >= MAX_CO_AGENTS) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.tooMany } };
  // In thousandths of a percent, so 33.333 + 33.333 + 33.333 is exact.
  const taken = others.reduce((sum, r) => sum + Math.round(r.pct * 1000), 0);
  if (taken + Math.round(sharePct * 1000) >= 100_000)
    return { ok: false, status: 400, fieldErrors: { sharePct: SHARE_MESSAGES.overHundred((100_000 - taken - 1) / 1000) } };
  // Checked again as it is written: the deal is still theirs and the co-agent still their teammate.
  const db = context.db;
  const done = await guardedBatch(() =>
    db.batch([
      requireInBatch(
        db,
        and(
          sql`exists (select 1 from ${deals} where ${and(eq(deals.id, dealId), eq(deals.userId, owner.id))})`,
          // Both still sell on the team: a role changed to ISA meanwhile shares nothing.
          isMemberSql(team.teamId, owner.id, SELLER_ROLES),
          isMemberSql(team.teamId, agent, SELLER_ROLES),
        )!,
      ),
      db
        .insert(dealShares)
        .values({ dealId, ownerId: owner.id, agentId: agent, sharePct })
        .onConflictDoUpdate({ target: [dealShares.dealId, dealShares.agentId], set: { sharePct } }),
    ]),
  );
  forget(context, owner.id, agent as UserId);
  if (!done.ok) return { ok: false, status: 400, fieldErrors: { agent: SHARE_MESSAGES.notTeammate } };
  return { ok: true };
}

/** The deal's agent takes a co-agent off the deal (their share goes back to the deal's agent). */
export async function removeShare(context: RequestContext, ownerId: UserId, dealId: string, agentId: string): Promise<boolean> {
  const removed = await context.db
    .delete(dealShares)
    .where(and(eq(dealShares.ownerId, ownerId), eq(dealShares.dealId, dealId), eq(dealShares.agentId, agentId)))
    .returning({ dealId: dealShares.dealId });
  forget(context, ownerId, agentId as UserId);
  return removed.length > 0;
}

function forget(context: RequestContext, ownerId: UserId, agentId: UserId) {
  for (const key of [`shares-of:${ownerId}`, `shared-with:${agentId}`, `shares-touching:${ownerId}`, `shares-touching:${agentId}`])
    context.memo.delete(key);
}

/** The co-agents' shares as the SQL column the dashboard and Reports batches read ("40,10"; null: not shared). */
export const coSharesColumn = () =>
  sql<string | null>`(select group_concat(${dealShares.sharePct}) from ${dealShares} where ${dealShares.dealId} = ${deals.id})`;
