import { addDays, DAY_MS } from "~/lib/dates";
import { startOfDayIn } from "~/lib/dates/zones";
import { and, asc, count, eq, gte, isNotNull, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { bucketOf } from "~/lib/instant-buckets";
import { CONTACT_SOURCES, type ActivityType, type ContactSource } from "~/db/enums";
import { contacts, crmActivities, crmConfig, crmTasks, dealStageHistory, deals, leadSourceCosts, userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { isoDateIn } from "~/lib/format";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { FORECAST_COLUMNS, forecastOf } from "~/modules/commissions/commissions.server";
import { sharedDealsQuery, toSharedDeals } from "~/modules/deals/shares.server";
import { planFromRows, planQuery } from "~/modules/commissions/plans.server";
import { followUpDue } from "~/modules/dashboard/dashboard.server";
import { toReviewByMonth } from "~/modules/intake/intake.server";

import { readStages } from "~/modules/pipeline/stages";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { nearestRank, REPORT_LIST_SIZE, REPORT_MONTHS } from "./definitions";
import { monthsOf, parsePeriod, type DayRange } from "./periods";
import { contactsAddedBy } from "./added.server";
import { leadsArrived, leadsByMonth, loggedIn, sortedTimes, waitingLeads } from "./figures.server";
import { followUpEmails, followUpRuns } from "./follow-up.server";
import { buildReports, type ReportInputs, type Reports } from "./build.server";

// /reports in one D1 batch (docs/decisions/0023-reports.md). Everything is read for the period and
// the one it is compared with at once. Counts and sums are taken in SQL; percentiles from each group's values.
// Leads, their answers and logged activities are read through figures.server.ts, as the dashboard and the digest read
// them; agent net is priced deal by deal through the forecast (commissions.server.ts forecastOf),
// the one definition the deal pages use. The display preferences come first: the period's days begin at
// midnight in the agent's timezone. They are memoised per request.

/** Instants [lo, hi) of a range of the agent's days. */
export function instants(range: DayRange, timezone: string) {
  return { lo: startOfDayIn(range.from, timezone), hi: startOfDayIn(addDays(range.to, 1), timezone) };
}

/** Weeks (Monday to Sunday in the agent's timezone) touching a range: each one's first day and first instant. */
function weeksOf(range: DayRange, timezone: string): { day: string; start: number }[] {
  const weekday = (new Date(`${range.from}T12:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  const weeks: { day: string; start: number }[] = [];
  for (let day = addDays(range.from, -weekday); day <= range.to; day = addDays(day, 7)) weeks.push({ day, start: startOfDayIn(day, timezone) });
  return weeks;
}

/**
 * The calendar months a period touches, the last REPORT_MONTHS of them, each one's first instant in the agent's timezone,
 * and the instants to count: the period's, cut to the months shown.
 */
function leadMonthsOf(range: DayRange, timezone: string, period: { lo: number; hi: number }) {
  const all = monthsOf(range);
  const shown = all.slice(-REPORT_MONTHS);
  const starts = shown.map((month) => startOfDayIn(`${month}-01`, timezone));
  return { shown, spanned: all.length, starts, range: { lo: Math.max(period.lo, starts[0]!), hi: period.hi } };
}

export async function loadReports(context: RequestContext, userId: UserId, params: URLSearchParams, now = new Date()): Promise<Reports> {
  const db = context.db;
  const prefs = await getDisplayPreferences(context, userId);
  const today = isoDateIn(now, prefs.timezone);
  const period = parsePeriod(params, today);
  const cur = instants(period, prefs.timezone);
  const prev = instants(period.previous, prefs.timezone);
  const weeks = weeksOf(period, prefs.timezone);
  const months = leadMonthsOf(period, prefs.timezone, cur);

  // A time column inside either range, and 1 when inside the current one (0 in the comparison period).
  const inRanges = (column: AnySQLiteColumn) =>
    and(gte(column, new Date(prev.lo)), lt(column, new Date(cur.hi)), or(lt(column, new Date(prev.hi)), gte(column, new Date(cur.lo))));
  const isCurrent = (column: AnySQLiteColumn) => sql<number>`(${column} >= ${cur.lo})`;
  const inCurrent = (column: AnySQLiteColumn) => and(gte(column, new Date(cur.lo)), lt(column, new Date(cur.hi)));
  const n = () => count().as("n");
  // The week an activity falls in, by the weeks' first instants.
  const weekCase = bucketOf(
    "occurred_at",
    weeks.map((w) => w.start),
  );

  const statements = [
    db.select({ incomeGoalCents: userPreferences.incomeGoalCents }).from(userPreferences).where(ownedBy(userPreferences, userId)),
    planQuery(db, userId),
    db.select({ stages: crmConfig.dealStages }).from(crmConfig).where(ownedBy(crmConfig, userId)),
    // Every deal, priced by the forecast; with its contact's source and day added, for lead sources.
    db
      .select({ ...FORECAST_COLUMNS, contactId: deals.contactId, source: contacts.source, contactCreatedAt: contacts.createdAt })
      .from(deals)
      .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
      .where(ownedBy(deals, userId)),
    // Contacts added in each period, by source (whole UTC days from the kept counts, the edges from contacts).
    ...contactsAddedBy(db, userId, prev, cur),
    // Of the contacts added, how many have a deal that has been in each stage. Read from the deals side:
    // an agent has far fewer deals than contacts.
    db
      .select({ source: contacts.source, stage: dealStageHistory.stage, n: sql<number>`count(distinct ${contacts.id})`.as("n") })
      .from(deals)
      .innerJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
      .innerJoin(dealStageHistory, and(eq(dealStageHistory.dealId, deals.id), eq(dealStageHistory.userId, userId)))
      .where(ownedBy(deals, userId, inCurrent(contacts.createdAt)))
      .groupBy(contacts.source, dealStageHistory.stage),
    // Leads that arrived in each period (range 0: the comparison period, 1: this one), per source, with the response
    // times of those answered; and the ones still waiting, oldest first.
    leadsArrived(db, userId, [prev, cur]),
    waitingLeads(db, userId, cur, REPORT_LIST_SIZE),
    // The same leads by source and month, and the lead e-mails of those months still to review.
    leadsByMonth(db, userId, months.range, months.starts),
    toReviewByMonth(db, userId, months.range, months.starts),
    // Stays in each stage that began in either period, by where the deal went next.
    db
      .select({
        stage: dealStageHistory.stage,
        nextStage: dealStageHistory.nextStage,
        current: isCurrent(dealStageHistory.enteredAt).as("current"),
        n: n(),
      })
      .from(dealStageHistory)
      .where(ownedBy(dealStageHistory, userId, inRanges(dealStageHistory.enteredAt)))
      .groupBy(dealStageHistory.stage, dealStageHistory.nextStage, sql`current`),
    // How long the stays that began in the period and have ended lasted (ms), per stage, for the median.
    db
      .select({
        stage: dealStageHistory.stage,
        times: sql<string>`json_group_array(${dealStageHistory.leftAt} - ${dealStageHistory.enteredAt})`.as("times"),
      })
      .from(dealStageHistory)
      .where(ownedBy(dealStageHistory, userId, inCurrent(dealStageHistory.enteredAt), isNotNull(dealStageHistory.leftAt)))
      .groupBy(dealStageHistory.stage),
    // Lost reasons of deals that entered their present stage in the period (the stage's kind is checked after).
    db
      .select({ stage: deals.stage, reason: deals.lostReason, n: n() })
      .from(dealStageHistory)
      .innerJoin(deals, and(eq(deals.id, dealStageHistory.dealId), eq(deals.userId, userId), eq(deals.stage, dealStageHistory.stage)))
      .where(
        ownedBy(
          dealStageHistory,
          userId,
          inCurrent(dealStageHistory.enteredAt),
          isNull(dealStageHistory.leftAt),
          isNotNull(deals.lostReason),
          ne(deals.lostReason, ""),
        ),
      )
      .groupBy(deals.stage, deals.lostReason),
    // Activities by type and week (the comparison period's all in week -1), read per type in time order off
    // crm_activities_user_type_time: the listed types let SQLite seek each one's range, no table row is read.
    db
      .select({
        type: crmActivities.type,
        week: sql<number>`case when ${crmActivities.occurredAt} >= ${cur.lo} then ${weekCase} else -1 end`.as("week"),
        n: n(),
      })
      .from(crmActivities)
      .where(
        and(
          loggedIn(userId, { lo: prev.lo, hi: cur.hi }),
          or(lt(crmActivities.occurredAt, new Date(prev.hi)), gte(crmActivities.occurredAt, new Date(cur.lo))),
        ),
      )
      .groupBy(crmActivities.type, sql`week`),
    // Tasks due in each period.
    db
      .select({
        current: sql<number>`(${crmTasks.dueDate} >= ${period.from})`.as("current"),
        n: n(),
        completed: sql<number>`count(*) filter (where ${crmTasks.status} = 'completed')`.as("completed"),
        overdue: sql<number>`count(*) filter (where ${crmTasks.status} = 'open' and ${crmTasks.dueDate} < ${today})`.as("overdue"),
      })
      .from(crmTasks)
      .where(
        ownedBy(
          crmTasks,
          userId,
          or(
            and(gte(crmTasks.dueDate, period.previous.from), lte(crmTasks.dueDate, period.previous.to)),
            and(gte(crmTasks.dueDate, period.from), lte(crmTasks.dueDate, period.to)),
          ),
        ),
      )
      .groupBy(sql`current`),
    db.select({ n: n() }).from(contacts).where(followUpDue(userId, now)),
    db
      .select({ id: contacts.id, name: contacts.name, status: contacts.status, lastActivity: contacts.lastActivity })
      .from(contacts)
      .where(followUpDue(userId, now))
      .orderBy(asc(contacts.lastActivity), asc(contacts.id))
      .limit(REPORT_LIST_SIZE),
    db
      .select({ source: leadSourceCosts.source, month: leadSourceCosts.month, costCents: leadSourceCosts.costCents })
      .from(leadSourceCosts)
      .where(
        ownedBy(
          leadSourceCosts,
          userId,
          gte(leadSourceCosts.month, period.previous.from.slice(0, 7)),
          lte(leadSourceCosts.month, period.to.slice(0, 7)),
        ),
      ),
    // Deals teammates share with the agent: their share counts in the agent's net and forecast.
    sharedDealsQuery(db, userId),
    // Follow-up e-mail: the period's e-mails sent by template and plan, and its plan runs.
    followUpEmails(db, userId, cur),
    followUpRuns(db, userId, cur),
  ] as const;
  const [
    goalRows,
    planRows,
    stageRows,
    dealRows,
    addedDayRows,
    addedEdgeRows,
    reachRows,
    speedRows,
    waitingRows,
    leadMonthRows,
    reviewMonthRows,
    stayRows,
    stayDayRows,
    lostRows,
    activityRows,
    taskRows,
    followUpCount,
    followUpRows,
    costRows,
    sharedRows,
    followUpEmailRows,
    followUpRunRows,
  ] = await db.batch(statements);
  const shared = toSharedDeals(sharedRows);

  const { plan } = planFromRows(planRows);
  const stages = readStages(stageRows[0]?.stages);
  // The agent's share of deals teammates share with them counts in their net and forecast.
  const forecast = forecastOf({ plan, stages, rows: dealRows, shared, today });

  const inputs: ReportInputs = {
    prefs,
    now: now.getTime(),
    today,
    period,
    weeks: weeks.map((w) => w.day),
    plan,
    stages,
    incomeGoalCents: goalRows[0]?.incomeGoalCents ?? null,
    forecast,
    shared: shared.map((d) => ({ id: d.id, kind: d.kind, dealValueCents: d.dealValueCents, closedDate: d.closedDate })),
    deals: dealRows.map((d) => ({
      id: d.id,
      stage: d.stage,
      valueCents: d.dealValueCents,
      closedDate: d.closedDate,
      // A deal's contact counts only when it is the agent's own (the join repeats the owner test).
      contactId: d.source === null ? null : d.contactId,
      source: d.source as ContactSource | null,
      contactAddedAt: d.contactCreatedAt ? d.contactCreatedAt.getTime() : null,
    })),
    added: [...addedDayRows, ...addedEdgeRows].map((r) => ({ source: r.source, current: r.current === 1, n: r.n })),
    reach: reachRows,
    leads: speedRows.map((r) => ({ source: r.source, current: r.range === 1, n: r.n, times: sortedTimes(r.times) })),
    leadMonths: { months: months.shown, spanned: months.spanned, leads: leadMonthRows, toReview: reviewMonthRows },
    waiting: waitingRows.map((c) => ({ id: c.contactId, name: c.name, source: c.source, arrivedAt: c.arrivedAt!.getTime() })),
    stays: stayRows.map((r) => ({ ...r, current: r.current === 1 })),
    stayDays: stayDayRows.map((r) => ({ stage: r.stage, medianDays: nearestRank(sortedTimes(r.times), 50)! / DAY_MS })),
    lostReasons: lostRows.filter((r): r is typeof r & { reason: string } => r.reason !== null),
    activities: activityRows.map((r) => ({ type: r.type as ActivityType, week: r.week, n: r.n })),
    tasks: taskRows.map((r) => ({ ...r, current: r.current === 1 })),
    followUps: { count: followUpCount[0]?.n ?? 0, contacts: followUpRows.map((c) => ({ ...c, lastActivity: c.lastActivity.getTime() })) },
    costs: costRows.filter((r) => (CONTACT_SOURCES as readonly string[]).includes(r.source)),
    followUp: { emails: followUpEmailRows.map((r) => ({ ...r, times: sortedTimes(r.times) })), runs: followUpRunRows },
  };
  return buildReports(inputs);
}
