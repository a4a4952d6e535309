import { and, asc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { commissionPlans, teamCommissionPlans, teamMembers } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { fieldErrors } from "~/lib/schema-fields";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { DEFAULT_PLAN, PlanInputSchema, type CommissionPlan } from "./plan.schema";

// An agent's commission plan: their own (commission_plans), else their team's default (team_commission_plans, set by
// the team's owner and admins: ADR 0035), else the defaults. One query gives both candidates, own first, so
// the dashboard and Reports read it inside their one batch.

/** Where an agent's plan comes from. */
export type PlanSource = "own" | "team" | "default";

const columns = (t: typeof commissionPlans | typeof teamCommissionPlans) => ({
  defaultRate: t.defaultRate,
  referralFeePct: t.referralFeePct,
  brokerageSplitPct: t.brokerageSplitPct,
  brokerageCapCents: t.brokerageCapCents,
  capYearStart: t.capYearStart,
  teamSplitPct: t.teamSplitPct,
  transactionFeeCents: t.transactionFeeCents,
  eoFeeCents: t.eoFeeCents,
  franchiseFeePct: t.franchiseFeePct,
});

// An ISA has no part in the team's commissions (ADR 0080): the team's plan is not theirs, nor shown to them.
const TEAM_PLAN_APPLIES = ne(teamMembers.role, "isa");

/** The agent's own plan row and their team's default, as rows with a `source`, own first (planFromRows reads them). */
export function planQuery(db: Db, userId: UserId) {
  const own = db
    .select({ source: sql<PlanSource>`'own'`.as("source"), ...columns(commissionPlans) })
    .from(commissionPlans)
    .where(ownedBy(commissionPlans, userId));
  const team = db
    .select({ source: sql<PlanSource>`'team'`.as("source"), ...columns(teamCommissionPlans) })
    .from(teamMembers)
    .innerJoin(teamCommissionPlans, eq(teamCommissionPlans.teamId, teamMembers.teamId))
    .where(and(eq(teamMembers.userId, userId), TEAM_PLAN_APPLIES));
  return own.unionAll(team).orderBy(asc(sql`source`));
}

export type PlanRow = Awaited<ReturnType<typeof planQuery>>[number];

/** planQuery for several agents at once (a team view's batch), each row with its agent: keepPlans reads them. */
export function plansQuery(db: Db, userIds: readonly UserId[]) {
  const own = db
    .select({ userId: commissionPlans.userId, source: sql<PlanSource>`'own'`.as("source"), ...columns(commissionPlans) })
    .from(commissionPlans)
    .where(inArray(commissionPlans.userId, [...userIds]));
  const team = db
    .select({ userId: teamMembers.userId, source: sql<PlanSource>`'team'`.as("source"), ...columns(teamCommissionPlans) })
    .from(teamMembers)
    .innerJoin(teamCommissionPlans, eq(teamCommissionPlans.teamId, teamMembers.teamId))
    .where(and(inArray(teamMembers.userId, [...userIds]), TEAM_PLAN_APPLIES));
  return own.unionAll(team);
}

/** Keeps each agent's plan from plansQuery's rows for the request (getPlanWithSource then reads nothing). */
export function keepPlans(context: RequestContext, userIds: readonly UserId[], rows: Awaited<ReturnType<typeof plansQuery>>) {
  for (const id of userIds) {
    const mine = rows.filter((r) => r.userId === id).map(({ userId: _, ...row }) => row);
    context.memo.set(`plan:${id}`, Promise.resolve(planFromRows(mine)));
  }
}

/** The plan the rows of planQuery give: the agent's own, else the team's, else the defaults. */
export function planFromRows(rows: readonly PlanRow[]): { plan: CommissionPlan; source: PlanSource } {
  const row = rows.find((r) => r.source === "own") ?? rows.find((r) => r.source === "team");
  if (!row) return { plan: { ...DEFAULT_PLAN }, source: "default" };
  const { source, ...plan } = row;
  return { plan, source };
}

/** The agent's plan and where it comes from, once per request. */
export function getPlanWithSource(context: RequestContext, userId: UserId): Promise<{ plan: CommissionPlan; source: PlanSource }> {
  return memoize(context, `plan:${userId}`, async () => planFromRows(await planQuery(context.db, userId)));
}

export async function getPlan(context: RequestContext, userId: UserId): Promise<CommissionPlan> {
  return (await getPlanWithSource(context, userId)).plan;
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

/** Drops the agent's own plan: they are priced by their team's default again. */
export async function dropOwnPlan(context: RequestContext, userId: UserId): Promise<void> {
  await context.db.delete(commissionPlans).where(ownedBy(commissionPlans, userId));
  context.memo.delete(`plan:${userId}`);
}

/** The team's default plan, or null when it has none. */
export async function getTeamPlan(db: Db, teamId: string): Promise<CommissionPlan | null> {
  const row = await db.select(columns(teamCommissionPlans)).from(teamCommissionPlans).where(eq(teamCommissionPlans.teamId, teamId)).get();
  return row ?? null;
}

/** Sets the team's default plan (the caller checks the role). */
export async function saveTeamPlan(db: Db, teamId: string, input: unknown): Promise<SavePlanResult> {
  const parsed = PlanInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, fieldErrors: fieldErrors(parsed.error) };
  const plan = parsed.data;
  await db
    .insert(teamCommissionPlans)
    .values({ teamId, ...plan })
    .onConflictDoUpdate({ target: teamCommissionPlans.teamId, set: { ...plan, updatedAt: new Date() } });
  return { ok: true, plan };
}
