import { addDays, DAY_MS, possibleTodays, timezoneOr } from "~/lib/dates";
import { startOfDayIn } from "~/lib/dates/zones";
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import { contacts, contactStatusCounts, crmActivities, crmConfig, crmTasks, deals, userPreferences, type ContactStatus } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { DEFAULT_DISPLAY_PREFERENCES, isoDateIn, type DisplayPreferences } from "~/lib/format";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { DEAL_TERM_COLUMNS } from "~/modules/commissions/commissions.server";
import { sharedDealsQuery, toSharedDeals } from "~/modules/deals/shares.server";
import { planFromRows, planQuery } from "~/modules/commissions/plans.server";
import { onboardingDue } from "~/modules/onboarding/onboarding";
import { readStages } from "~/modules/pipeline/stages";
import { barPercents, columnChart } from "./charts";
import {
  chartMonths,
  FOLLOW_UP_DAYS,
  leadSources,
  LIST_SIZES,
  RECENT_ACTIVITY_DAYS,
  sphereGrowth,
  SPHERE_DAYS,
  upcomingFrom,
  type Dashboard,
} from "./metrics";
import { responseSummary } from "~/modules/reports/definitions";
import { leadsArrived, leadTotals, loggedActivities, OPEN_END } from "~/modules/reports/figures.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { contactsPerSource } from "~/modules/reports/added.server";
import { closedDealsFrom, closedPerformance, type ClosedDealRow, type PerformanceMonth } from "./performance";

// The dashboard in one round trip (ADR 0016): every figure is one owner-scoped statement in a single D1 batch,
// aggregated in SQL. The user's timezone arrives in that same batch, so figures that depend on "today" are
// asked for each date today can be on Earth (UTC yesterday, today, tomorrow) and picked afterwards. New leads this
// month are the exception: counted by the function Reports uses (figures.server.ts) once the month's first instant
// in the agent's timezone is known, alongside the batch.

/** Hot and warm contacts with no activity in the last FOLLOW_UP_DAYS days (the dashboard's follow-ups, and Reports' follow-up gaps). */
export function followUpDue(userId: UserId, now: Date): SQL {
  return ownedBy(
    contacts,
    userId,
    inArray(contacts.status, ["hot", "warm"]),
    lt(contacts.lastActivity, new Date(now.getTime() - FOLLOW_UP_DAYS * DAY_MS)),
  );
}

const monthLabel = new Intl.DateTimeFormat("en-US", { month: "short", timeZone: "UTC" });

export async function loadDashboard(context: RequestContext, userId: UserId, now = new Date()): Promise<Dashboard> {
  const db = context.db;
  const at = now.getTime();
  const todays = possibleTodays(now);
  // Open tasks due on or before each of these: today's "due" and "overdue" are two of them, whichever today is.
  const dueBounds = [addDays(todays[0], -1), ...todays];
  const firstMonth = chartMonths(todays[0])[0]!;
  const followUpSince = new Date(at - FOLLOW_UP_DAYS * DAY_MS);
  const followUpWhere = followUpDue(userId, now);
  const closeOn = sql<string | null>`coalesce(${deals.closingDate}, ${deals.expectedCloseDate})`;
  // D1 returns rows keyed by column name: every computed column gets a name of its own, joined ones too.
  const n = () => count().as("n");
  // Open deals have no closed date (the stage rules clear it); the stage's kind is checked again below.
  const closings = (on: SQL) =>
    db
      .select({
        ...DEAL_TERM_COLUMNS,
        title: deals.title,
        expectedCloseDate: deals.expectedCloseDate,
        closeOn: closeOn.as("close_on"),
        contactId: deals.contactId,
        contactName: contacts.name,
      })
      .from(deals)
      .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
      .where(ownedBy(deals, userId, isNull(deals.closedDate), on))
      .orderBy(asc(closeOn), asc(deals.id))
      .limit(LIST_SIZES.closings);
  const openTaskDue = (day: string, name: string) =>
    sql<number>`count(*) filter (where ${crmTasks.status} = 'open' and ${crmTasks.dueDate} <= ${day})`.as(name);

  const statements = [
    db
      .select({
        dateFormat: userPreferences.dateFormat,
        timeFormat: userPreferences.timeFormat,
        timezone: userPreferences.timezone,
        currency: userPreferences.currency,
        onboardingCompleted: userPreferences.onboardingCompleted,
        onboardingSkipped: userPreferences.onboardingSkipped,
      })
      .from(userPreferences)
      .where(ownedBy(userPreferences, userId)),
    db.select({ stages: crmConfig.dealStages }).from(crmConfig).where(ownedBy(crmConfig, userId)),
    planQuery(db, userId),
    // Contacts per status: kept by triggers, so the totals never count 100,000 rows.
    db.select({ status: contactStatusCounts.status, n: contactStatusCounts.n }).from(contactStatusCounts).where(ownedBy(contactStatusCounts, userId)),
    // Sphere growth: the contacts added in the last 60 days, split at 30 (one pass over the (user, created) index).
    db
      .select({
        added: sql<number>`count(*) filter (where ${contacts.createdAt} >= ${at - SPHERE_DAYS * DAY_MS})`.as("added"),
        before: sql<number>`count(*) filter (where ${contacts.createdAt} < ${at - SPHERE_DAYS * DAY_MS})`.as("before"),
      })
      .from(contacts)
      .where(ownedBy(contacts, userId, gte(contacts.createdAt, new Date(at - 2 * SPHERE_DAYS * DAY_MS)))),
    // Follow-up = hot and warm (the kept counts above) less those active in the window: the active side is the
    // one to count, it is the smaller in any CRM that has been in use for a while.
    db
      .select({ n: n() })
      .from(contacts)
      .where(ownedBy(contacts, userId, inArray(contacts.status, ["hot", "warm"]), gte(contacts.lastActivity, followUpSince))),
    db
      .select({ id: contacts.id, name: contacts.name, status: contacts.status, lastActivity: contacts.lastActivity })
      .from(contacts)
      .where(followUpWhere)
      .orderBy(asc(contacts.lastActivity), asc(contacts.id))
      .limit(LIST_SIZES.followUps),
    contactsPerSource(db, userId),
    db
      .select({
        stage: deals.stage,
        count: count().as("count"),
        valueCents: sql<number>`coalesce(sum(${deals.dealValueCents}), 0)`.as("value_cents"),
        weightedCents: sql<number>`coalesce(sum((${deals.dealValueCents} * ${deals.probability} + 50) / 100), 0)`.as("weighted_cents"),
      })
      .from(deals)
      .where(ownedBy(deals, userId))
      .groupBy(deals.stage),
    db
      .select({ ...DEAL_TERM_COLUMNS, closedDate: deals.closedDate })
      .from(deals)
      .where(ownedBy(deals, userId, gte(deals.closedDate, closedDealsFrom(firstMonth)))),
    // Upcoming closings from each possible today: three disjoint ranges, each its first few.
    closings(sql`${closeOn} = ${todays[0]}`),
    closings(sql`${closeOn} = ${todays[1]}`),
    closings(sql`${closeOn} >= ${todays[2]}`),
    db
      .select({
        total: count().as("total"),
        due0: openTaskDue(dueBounds[0]!, "due0"),
        due1: openTaskDue(dueBounds[1]!, "due1"),
        due2: openTaskDue(dueBounds[2]!, "due2"),
        due3: openTaskDue(dueBounds[3]!, "due3"),
      })
      .from(crmTasks)
      .where(ownedBy(crmTasks, userId)),
    db
      .select({
        id: crmTasks.id,
        title: crmTasks.title,
        type: crmTasks.type,
        priority: crmTasks.priority,
        dueDate: crmTasks.dueDate,
        dueTime: crmTasks.dueTime,
        contactId: crmTasks.contactId,
        contactName: contacts.name,
        dealId: crmTasks.dealId,
        dealTitle: sql<string | null>`${deals.title}`.as("deal_title"),
      })
      .from(crmTasks)
      .leftJoin(contacts, and(eq(contacts.id, crmTasks.contactId), eq(contacts.userId, userId)))
      .leftJoin(deals, and(eq(deals.id, crmTasks.dealId), eq(deals.userId, userId)))
      .where(ownedBy(crmTasks, userId, eq(crmTasks.status, "open")))
      .orderBy(asc(crmTasks.dueDate), asc(crmTasks.dueTime), asc(crmTasks.id))
      .limit(LIST_SIZES.tasks),
    // Recent activity: what the agent logged (figures.server.ts, as Reports counts it) in the last days.
    loggedActivities(db, userId, { lo: at - RECENT_ACTIVITY_DAYS * DAY_MS, hi: OPEN_END }),
    db
      .select({
        id: crmActivities.id,
        type: crmActivities.type,
        occurredAt: crmActivities.occurredAt,
        outcome: crmActivities.outcome,
        notes: sql<string | null>`substr(${crmActivities.notes}, 1, 160)`.as("notes"),
        meta: crmActivities.meta,
        contactId: crmActivities.contactId,
        contactName: contacts.name,
        dealId: crmActivities.dealId,
        dealTitle: deals.title,
      })
      .from(crmActivities)
      .leftJoin(contacts, and(eq(contacts.id, crmActivities.contactId), eq(contacts.userId, userId)))
      .leftJoin(deals, and(eq(deals.id, crmActivities.dealId), eq(deals.userId, userId)))
      .where(ownedBy(crmActivities, userId))
      .orderBy(desc(crmActivities.occurredAt), desc(crmActivities.id))
      .limit(LIST_SIZES.activities),
    // Speed to lead over the new leads of the sphere-growth window (figures.server.ts, as Reports reads it).
    leadsArrived(db, userId, [{ lo: at - SPHERE_DAYS * DAY_MS, hi: OPEN_END }]),
    // Deals teammates share with the agent: their share of the side counts in the agent net chart.
    sharedDealsQuery(db, userId),
  ] as const;
  // New leads this month, from the month's first instant in the agent's timezone (memoised per request).
  const monthLeads = getDisplayPreferences(context, userId).then(async (p) => {
    const month = isoDateIn(now, p.timezone).slice(0, 7);
    return leadTotals(await leadsArrived(db, userId, [{ lo: startOfDayIn(`${month}-01`, zoneOrDefault(p.timezone)), hi: OPEN_END }])).leads;
  });
  const [results, newLeads] = await Promise.all([db.batch(statements), monthLeads]);
  const [
    prefsRows,
    stageRows,
    planRows,
    statusRows,
    sphereRows,
    activeHotWarm,
    followUpRows,
    sourceRows,
    stageTotals,
    closedRows,
    closingsA,
    closingsB,
    closingsC,
    taskCounts,
    taskRows,
    activityCount,
    activityRows,
    speedRows,
    sharedRows,
  ] = results;

  const pref = prefsRows[0];
  const prefs: DisplayPreferences = pref
    ? { dateFormat: pref.dateFormat, timeFormat: pref.timeFormat, timezone: pref.timezone, currency: pref.currency }
    : DEFAULT_DISPLAY_PREFERENCES;
  const today = isoDateIn(now, prefs.timezone);
  const dayIndex = Math.max(0, todays.indexOf(today));

  const stages = readStages(stageRows[0]?.stages);
  const openStages = stages.filter((s) => s.kind === "open");
  const openKeys = new Set(openStages.map((s) => s.key));
  const { plan } = planFromRows(planRows);

  const byStatus: Record<ContactStatus, number> = { hot: 0, warm: 0, cold: 0 };
  for (const row of statusRows) byStatus[row.status] = row.n;
  const totalContacts = byStatus.hot + byStatus.warm + byStatus.cold;

  const totals = new Map(stageTotals.map((t) => [t.stage, t]));
  const pipelineRows = openStages.map((s) => ({
    key: s.key,
    name: s.name,
    color: s.color,
    count: totals.get(s.key)?.count ?? 0,
    valueCents: totals.get(s.key)?.valueCents ?? 0,
    weightedCents: totals.get(s.key)?.weightedCents ?? 0,
  }));
  const percents = barPercents(pipelineRows.map((r) => r.valueCents));
  const dealCount = stageTotals.reduce((sum, t) => sum + t.count, 0);

  const months = chartMonths(today);
  const performance = closedPerformance({ months, stages, plan, closed: closedRows as ClosedDealRow[], shared: toSharedDeals(sharedRows) });
  const stageName = new Map(stages.map((s) => [s.key, s.name]));
  const upcoming = upcomingFrom(
    [...closingsA, ...closingsB, ...closingsC].filter((d) => openKeys.has(d.stage)),
    today,
    LIST_SIZES.closings,
  );

  const windows = sphereRows[0] ?? { added: 0, before: 0 };

  const tasks = taskCounts[0] ?? { total: 0, due0: 0, due1: 0, due2: 0, due3: 0 };
  const dueUpTo = [tasks.due0, tasks.due1, tasks.due2, tasks.due3];
  const sources = leadSources(sourceRows);
  const sourcePercents = barPercents(sources.map((s) => s.count));
  const columns = (pick: (m: PerformanceMonth) => number) =>
    performance.months.map((m) => ({ key: m.month, label: monthLabel.format(new Date(`${m.month}-15T12:00:00Z`)), value: pick(m) / 100 }));

  return {
    prefs,
    today,
    onboarding: onboardingDue({ contacts: totalContacts, deals: dealCount, tasks: tasks.total }, pref),
    // A deal a teammate shares with the agent is something to show too (its net is in the charts).
    empty: totalContacts === 0 && dealCount === 0 && tasks.total === 0 && activityRows.length === 0 && sharedRows.length === 0,
    stats: {
      totalContacts,
      byStatus,
      activeDeals: { count: pipelineRows.reduce((sum, r) => sum + r.count, 0), valueCents: pipelineRows.reduce((sum, r) => sum + r.valueCents, 0) },
      tasksDue: { due: dueUpTo[dayIndex + 1]!, overdue: dueUpTo[dayIndex]! },
      recentActivity: activityCount[0]?.n ?? 0,
      newLeads,
      followUp: byStatus.hot + byStatus.warm - (activeHotWarm[0]?.n ?? 0),
      hotProspects: byStatus.hot,
      sphere: sphereGrowth(windows.added, windows.before),
      speedToLead: speedToLead(leadTotals(speedRows)),
    },
    pipeline: pipelineRows.map((r, i) => ({ ...r, barPct: percents[i]! })),
    closings: upcoming.map((d) => ({
      id: d.id,
      title: d.title,
      closeOn: d.closeOn,
      dealValueCents: d.dealValueCents,
      netCents: performance.openBreakdown(d, today).netCents,
      stageName: stageName.get(d.stage) ?? d.stage,
      contactId: d.contactName === null ? null : d.contactId,
      contactName: d.contactName,
    })),
    // A link only to the owner's own contact or deal (the joins repeat the owner test).
    tasks: taskRows.map((t) => ({ ...t, contactId: t.contactName === null ? null : t.contactId, dealId: t.dealTitle === null ? null : t.dealId })),
    activities: activityRows.map(({ meta, occurredAt, ...a }) => ({
      ...a,
      contactId: a.contactName === null ? null : a.contactId,
      dealId: a.dealTitle === null ? null : a.dealId,
      occurredAt: occurredAt.getTime(),
      from: a.type === "stage_change" && meta?.fromName ? String(meta.fromName) : null,
      to: a.type === "stage_change" && meta?.toName ? String(meta.toName) : null,
    })),
    followUps: followUpRows.map((c) => ({ ...c, lastActivity: c.lastActivity.getTime() })),
    performance: {
      months: performance.months,
      volumeChart: columnChart(columns((m) => m.volumeCents)),
      netChart: columnChart(columns((m) => m.netCents)),
    },
    sources: sources.map((s, i) => ({ ...s, barPct: sourcePercents[i]! })),
  };
}

/** Speed to lead over the sphere-growth window: the new leads, how many were answered, and the median. */
function speedToLead(leads: { leads: number; times: number[] }): Dashboard["stats"]["speedToLead"] {
  const summary = responseSummary(leads.times);
  return { leads: leads.leads, answered: summary.answered, medianMinutes: summary.p50Minutes };
}

/** The timezone if this runtime knows it, else the default one (as the date formatting falls back). */
function zoneOrDefault(timezone: string): string {
  return timezoneOr(timezone, DEFAULT_DISPLAY_PREFERENCES.timezone);
}
