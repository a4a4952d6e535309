import { inArray } from "drizzle-orm";
import { deals, type Deal, type DealStage } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { isoDateIn } from "~/lib/format";
import { ownedBy, ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { coSharesColumn, sharedWith, sharesOfOwner, type SharedDeal } from "~/modules/deals/shares.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { allocateCap, capYearOf, computeCommission, type CommissionBreakdown } from "./commission";
import { buildForecast, type Forecast, type ForecastDeal } from "./forecast";
import { termsFor, type CommissionPlan, type DealShareColumns } from "./plan.schema";
import { getPlan } from "./plans.server";

/** The columns a deal's commission is computed from (its value, rate and overrides of the plan). */
export const DEAL_TERM_COLUMNS = {
  id: deals.id,
  stage: deals.stage,
  dealValueCents: deals.dealValueCents,
  commissionRate: deals.commissionRate,
  referralFeePct: deals.referralFeePct,
  brokerageSplitPct: deals.brokerageSplitPct,
  teamSplitPct: deals.teamSplitPct,
  transactionFeeCents: deals.transactionFeeCents,
  eoFeeCents: deals.eoFeeCents,
  franchiseFeePct: deals.franchiseFeePct,
  /** The co-agents' shares of a shared deal: the deal's agent keeps the rest. */
  coShares: coSharesColumn().as("co_shares"),
};
const TERM_COLUMNS = {
  ...DEAL_TERM_COLUMNS,
  title: deals.title,
  probability: deals.probability,
  expectedCloseDate: deals.expectedCloseDate,
  closedDate: deals.closedDate,
};
type DealTerms = Pick<Deal, Exclude<keyof typeof TERM_COLUMNS, "coShares">> & DealShareColumns;

/** The plan, the stages and the user's today: what every commission figure starts from. */
async function planAndStages(context: RequestContext, userId: UserId) {
  const [plan, stages, prefs] = await Promise.all([getPlan(context, userId), getStages(context, userId), getDisplayPreferences(context, userId)]);
  return { plan, stages, today: isoDateIn(new Date(), prefs.timezone) };
}

export interface CommissionContext {
  plan: CommissionPlan;
  stages: DealStage[];
  today: string;
  /** The won deals, with the columns they are priced from: the agent's own, then those shared with them. */
  wonDeals: readonly DealTerms[];
  /** The deals shared with the agent, priced through breakdownFor like their own. */
  shared: readonly SharedDeal[];
  /** The agent net breakdown of a deal: actual for won deals, "if it closed as planned" for the others. */
  breakdownFor(deal: DealTerms): CommissionBreakdown;
  /** What is left of the cap in the cap year holding `date` after closed deals (null: no cap). */
  capLeftOn(date: string): number | null;
}

/**
 * Everything needed to price any deal of the user: the plan, and the brokerage split already paid in each
 * cap year by won deals (in closed-date order, so the deal that crossed the cap splits only the part below).
 */
export async function loadCommissionContext(context: RequestContext, userId: UserId, ownWon?: readonly DealTerms[]): Promise<CommissionContext> {
  const { plan, stages, today } = await planAndStages(context, userId);
  const wonKeys = stages.filter((s) => s.kind === "won").map((s) => s.key);
  const [own, shared, shares] = await Promise.all([
    ownWon ??
      context.db
        .select(TERM_COLUMNS)
        .from(deals)
        .where(ownedBy(deals, userId, inArray(deals.stage, wonKeys))),
    sharedWith(context, userId),
    sharesOfOwner(context, userId),
  ]);
  // A deal is priced as this agent's part of it: their co-agents' shares off their own deals, their share of others'.
  const withShare = (deal: DealTerms): DealTerms =>
    deal.coAgentPct != null || !shares.has(deal.id) ? deal : { ...deal, coShares: shares.get(deal.id)! };
  const won: DealTerms[] = [...own.map(withShare), ...shared.filter((d) => d.kind === "won")];
  const ordered = won
    .map((d) => ({ id: d.id, priceCents: d.dealValueCents, terms: termsFor(plan, d), date: d.closedDate ?? today, probability: 100 }))
    .sort((a, b) => (a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1));
  const { breakdowns, paid } = allocateCap(ordered, plan);
  const capLeftOn = (date: string) =>
    plan.brokerageCapCents === null ? null : Math.max(0, plan.brokerageCapCents - (paid.get(capYearOf(date, plan.capYearStart)) ?? 0));
  const wonIds = new Set(won.map((d) => d.id));
  return {
    plan,
    stages,
    today,
    wonDeals: won,
    shared,
    capLeftOn,
    breakdownFor(deal) {
      const known = breakdowns.get(deal.id);
      if (known && wonIds.has(deal.id) && (deal.coAgentPct != null || wonKeys.includes(deal.stage))) return known;
      return computeCommission(
        deal.dealValueCents,
        termsFor(plan, withShare(deal)),
        capLeftOn(deal.expectedCloseDate && deal.expectedCloseDate > today ? deal.expectedCloseDate : today),
      );
    },
  };
}

/**
 * loadCommissionContext for several agents (a team view): their won deals in one statement per group of ids, instead
 * of one each, for the caller to run in its own batch. Their plans, stages, preferences and shares are best kept for
 * the request first (a team view's batch: keepPlans, keepStages, keepDisplayPreferences, keepSharesTouching,
 * keepSharedWith), so that pricing them reads nothing more.
 */
export async function commissionsOfMembers(context: RequestContext, userIds: readonly UserId[]) {
  const stages = await Promise.all(userIds.map((id) => getStages(context, id)));
  const wonKeys = stages.map((s) => new Set(s.filter((stage) => stage.kind === "won").map((stage) => stage.key)));
  const anyWon = [...new Set(wonKeys.flatMap((keys) => [...keys]))];
  return {
    /** The stage keys that are won in any of their pipelines (a key won in one may be open in another). */
    anyWon,
    /** The won deals of a group of them: binds the group's ids and anyWon. */
    wonDeals: (group: readonly UserId[]) =>
      context.db
        .select({ ...TERM_COLUMNS, userId: deals.userId })
        .from(deals)
        .where(ownedByAny(deals, group, inArray(deals.stage, anyWon))),
    /** Each one's context (in the order of userIds), from the rows of wonDeals over all the groups. */
    contexts: (rows: readonly (DealTerms & { userId: string })[]): Promise<CommissionContext[]> =>
      Promise.all(
        userIds.map((id, i) =>
          loadCommissionContext(
            context,
            id,
            rows.filter((r) => r.userId === id && wonKeys[i]!.has(r.stage)).map(({ userId: _, ...deal }) => deal),
          ),
        ),
      ),
  };
}

/** The columns the forecast reads of every deal (forecastOf). */
export const FORECAST_COLUMNS = TERM_COLUMNS;

/**
 * The forecast of a user's deals, given all of them: won deals count at their closed date, open ones at their
 * expected close. The forecast page and Reports both price deals through here (one definition of agent net).
 */
export function forecastOf(input: {
  plan: CommissionPlan;
  stages: readonly DealStage[];
  rows: readonly DealTerms[];
  shared?: readonly SharedDeal[];
  today: string;
}): Forecast {
  const { plan, today } = input;
  const ownKinds = new Map(input.stages.map((s) => [s.key, s.kind]));
  // A deal shared with the agent is in its own agent's stages: its kind is theirs.
  const sharedKinds = new Map((input.shared ?? []).map((d) => [d.id, d.kind]));
  const kinds = { get: (key: string, id: string) => sharedKinds.get(id) ?? ownKinds.get(key) };
  const rows = [...input.rows, ...(input.shared ?? [])];
  const toForecast = (d: DealTerms, date: string | null): ForecastDeal => ({
    id: d.id,
    title: d.title,
    priceCents: d.dealValueCents,
    terms: termsFor(plan, d),
    probability: d.probability,
    date,
  });
  return buildForecast({
    today,
    plan,
    closedWon: rows.filter((d) => kinds.get(d.stage, d.id) === "won").map((d) => toForecast(d, d.closedDate ?? today)),
    open: rows.filter((d) => kinds.get(d.stage, d.id) === "open").map((d) => toForecast(d, d.expectedCloseDate)),
  });
}

/** The forecast over all the user's deals. */
export async function loadForecast(context: RequestContext, userId: UserId): Promise<Forecast & { today: string; plan: CommissionPlan }> {
  const { plan, stages, today } = await planAndStages(context, userId);
  const [rows, shared] = await Promise.all([context.db.select(TERM_COLUMNS).from(deals).where(ownedBy(deals, userId)), sharedWith(context, userId)]);
  return { ...forecastOf({ plan, stages, rows, shared, today }), today, plan };
}
