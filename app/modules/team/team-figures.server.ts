import { count, gte, lt } from "drizzle-orm";
import type { ActivityType, ContactSource, Currency } from "~/db/enums";
import { dealStageHistory, type DealStage } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { D1_LIMITS } from "~/lib/d1-limits";
import { ownedByAny } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { commissionsOfMembers, type CommissionContext } from "~/modules/commissions/commissions.server";
import { keepPlans, plansQuery } from "~/modules/commissions/plans.server";
import { keepSharedWith, keepSharesTouching, sharedDealsOfQuery, sharesTouchingQuery } from "~/modules/deals/shares.server";
import { keepStages, stagesQuery } from "~/modules/pipeline/stages.server";
import { LOGGED_PARAMS, sortedTimes, teamLeadDeals, teamLeadsArrived, teamLoggedByType, type Range } from "~/modules/reports/figures.server";
import { ascending } from "~/modules/reports/definitions";
import type { DayRange } from "~/modules/reports/periods";
import { displayPreferencesQuery, keepDisplayPreferences } from "~/modules/settings/preferences.server";
import type { MemberRow } from "./team.server";
import { seesNetOf, type Viewer } from "./visibility.server";

// Each member's figures over a period for the team's views (the leaderboard, Team reports), by the definitions the
// agent's own Reports use (ADR 0034, ADR 0077): leads and their answers and logged activities from figures.server.ts,
// won and lost from the stage history as Reports' pipeline conversion counts them, agent net from each agent's own
// plan and cap (loadCommissionContext). The reads go over the members' ids at once, grouped by agent, in one D1
// batch; the members' preferences, stages, plans and shares come from that batch too, and their won deals from one more
// statement, so pricing the members' deals reads nothing per agent.

interface Closed {
  closedVolumeCents: number;
  dealsWon: number;
  /** Null where the viewer may not see it (visibility.server.ts seesNetOf). */
  netCents: number | null;
}

export interface MemberFigures {
  member: MemberRow;
  currency: Currency;
  /** Leads that arrived in the range, per source, with the response times (ms, ascending) of those answered. */
  leads: { source: ContactSource; n: number; times: number[] }[];
  /** Logged activities per type. */
  activities: Partial<Record<ActivityType, number>>;
  /** Deals that entered a won and a lost stage of the agent's pipeline in the range. */
  enteredWon: number;
  enteredLost: number;
  /** Of the range's leads, the deals now in a won stage, per source, with their sale prices added up. */
  leadWins: { source: ContactSource; n: number; valueCents: number }[];
  closed: Closed;
}

/** Consecutive groups of ids that fit in one statement beside `reserved` other parameters. */
function idGroups(ids: readonly UserId[], reserved: number): UserId[][] {
  const size = D1_LIMITS.boundParameters - reserved;
  const groups: UserId[][] = [];
  for (let i = 0; i < ids.length; i += size) groups.push(ids.slice(i, i + size));
  return groups;
}

/** The rows of teamLeadsArrived added up per agent and source: the counts summed, the response times sorted. */
function leadsBySource(rows: readonly { userId: UserId; source: ContactSource; n: number; times: string }[]) {
  const byAgent = new Map<string, Map<ContactSource, { n: number; times: number[] }>>();
  for (const r of rows) {
    const mine = byAgent.get(r.userId) ?? byAgent.set(r.userId, new Map()).get(r.userId)!;
    const was = mine.get(r.source) ?? { n: 0, times: [] };
    const times = sortedTimes(r.times);
    mine.set(r.source, {
      n: was.n + r.n,
      times: was.times.length === 0 ? times : times.length === 0 ? was.times : ascending([...was.times, ...times]),
    });
  }
  return new Map([...byAgent].map(([id, sources]) => [id, [...sources].map(([source, v]) => ({ source, ...v }))]));
}

/** Deals that entered each stage in [lo, hi), per agent: Reports' pipeline conversion, off deal_stage_history_user_entered. */
function stageEntries(db: RequestContext["db"], userIds: readonly UserId[], range: Range) {
  return db
    .select({ userId: dealStageHistory.userId, stage: dealStageHistory.stage, n: count().as("n") })
    .from(dealStageHistory)
    .where(
      ownedByAny(dealStageHistory, userIds, gte(dealStageHistory.enteredAt, new Date(range.lo)), lt(dealStageHistory.enteredAt, new Date(range.hi))),
    )
    .groupBy(dealStageHistory.userId, dealStageHistory.stage);
}

/**
 * Volume, deals won and agent net of an agent's deals closed won in `period` (on their closed date, today when they
 * have none): a deal counts once, for its own agent; a co-agent's share counts in their net.
 */
function closedIn(commissions: CommissionContext, period: DayRange, withNet: boolean): Closed {
  const won = commissions.wonDeals.filter((deal) => {
    const day = deal.closedDate ?? commissions.today;
    return day >= period.from && day <= period.to;
  });
  const own = won.filter((deal) => deal.coAgentPct == null);
  return {
    closedVolumeCents: own.reduce((sum, deal) => sum + deal.dealValueCents, 0),
    dealsWon: own.length,
    netCents: withNet ? won.reduce((sum, deal) => sum + commissions.breakdownFor(deal).netCents, 0) : null,
  };
}

/** The figures of `members` (from the visibility rule) over `period`, whose instants are `range`. */
export async function loadMemberFigures(
  context: RequestContext,
  viewer: Viewer,
  members: readonly MemberRow[],
  period: DayRange,
  range: Range,
): Promise<MemberFigures[]> {
  if (members.length === 0) return [];
  const db = context.db;
  const ids = members.map((m) => m.userId as UserId);
  // Plans and shares name each id twice (a union, an either-way match): half the parameters for the ids.
  const groups = idGroups(ids, Math.max(LOGGED_PARAMS, Math.ceil(D1_LIMITS.boundParameters / 2)));
  const kinds = [
    (g: UserId[]) => displayPreferencesQuery(db, g),
    (g: UserId[]) => stagesQuery(db, g),
    (g: UserId[]) => teamLoggedByType(db, g, range),
    (g: UserId[]) => stageEntries(db, g, range),
    (g: UserId[]) => plansQuery(db, g),
    (g: UserId[]) => sharesTouchingQuery(db, g),
    (g: UserId[]) => sharedDealsOfQuery(db, g),
  ] as const;
  // The leads come in their own groups of ids (each statement names them four times), after the kinds above.
  const leadStatements = teamLeadsArrived(db, ids, range);
  const statements = [...kinds.flatMap((kind) => groups.map((g) => kind(g))), ...leadStatements];
  const results = (await db.batch(statements as unknown as [(typeof statements)[number], ...(typeof statements)[number][]])) as unknown[][];
  const part = <T>(k: number) => results.slice(k * groups.length, (k + 1) * groups.length).flat() as T[];
  type Rows<K extends number> = Awaited<ReturnType<ReturnType<(typeof kinds)[K]>["all"]>>[number];
  type LeadRow = Awaited<ReturnType<(typeof leadStatements)[number]["all"]>>[number];
  const prefs = keepDisplayPreferences(context, ids, part<Rows<0>>(0));
  const stages = keepStages(context, ids, part<Rows<1>>(1));
  const logged = part<Rows<2>>(2);
  const entries = part<Rows<3>>(3);
  keepPlans(context, ids, part<Rows<4>>(4));
  keepSharesTouching(context, ids, part<Rows<5>>(5));
  keepSharedWith(context, ids, part<Rows<6>>(6), new Map(members.map((m) => [m.userId, m.name])));
  const leads = leadsBySource(results.slice(kinds.length * groups.length).flat() as LeadRow[]);

  // Now that their stages are known, one more batch: every member's won deals (their plans, stages, preferences and
  // shares are kept above, so pricing reads nothing more), and the range's leads that became won deals.
  const priced = await commissionsOfMembers(context, ids);
  const wonGroups = idGroups(ids, 2 + priced.anyWon.length);
  const second = [...wonGroups.map((g) => priced.wonDeals(g)), ...wonGroups.map((g) => teamLeadDeals(db, g, range, priced.anyWon))];
  const secondResults = (await db.batch(second as unknown as [(typeof second)[number], ...(typeof second)[number][]])) as unknown[][];
  type WonRow = Awaited<ReturnType<ReturnType<typeof priced.wonDeals>["all"]>>[number];
  type LeadDealRow = Awaited<ReturnType<ReturnType<typeof teamLeadDeals>["all"]>>[number];
  const commissions = await priced.contexts(secondResults.slice(0, wonGroups.length).flat() as WonRow[]);
  const leadDeals = secondResults.slice(wonGroups.length).flat() as LeadDealRow[];
  return members.map((member, i): MemberFigures => {
    const id = member.userId;
    const kindOf = new Map((stages.get(id) ?? ([] as DealStage[])).map((s) => [s.key, s.kind]));
    const entered = (kind: DealStage["kind"]) =>
      entries.filter((r) => r.userId === id && kindOf.get(r.stage) === kind).reduce((sum, r) => sum + r.n, 0);
    const wins = new Map<ContactSource, { n: number; valueCents: number }>();
    for (const r of leadDeals.filter((r) => r.userId === id && kindOf.get(r.stage) === "won")) {
      const was = wins.get(r.source) ?? { n: 0, valueCents: 0 };
      wins.set(r.source, { n: was.n + r.n, valueCents: was.valueCents + (r.valueCents ?? 0) });
    }
    return {
      member,
      currency: prefs.get(id)!.currency,
      leads: leads.get(id) ?? [],
      activities: Object.fromEntries(logged.filter((r) => r.userId === id).map((r) => [r.type, r.n])),
      enteredWon: entered("won"),
      enteredLost: entered("lost"),
      leadWins: [...wins].map(([source, w]) => ({ source, ...w })),
      closed: closedIn(commissions[i]!, period, seesNetOf(viewer, id)),
    };
  });
}
