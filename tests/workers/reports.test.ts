import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import {
  commissionPlans,
  contacts,
  contactSourceDays,
  leadSourceDays,
  crmActivities,
  crmTasks,
  dealStageHistory,
  deals,
  leadSourceCosts,
  userPreferences,
  type NewContact,
  type NewDeal,
} from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { reportTables, type Reports } from "~/modules/reports/build.server";
import { nearestRank, responseSummary } from "~/modules/reports/definitions";
import { contactsAddedBy, splitByUtcDay } from "~/modules/reports/added.server";
import { leadsArrived, leadTotals, OPEN_END } from "~/modules/reports/figures.server";
import { loadReports } from "~/modules/reports/reports.server";
import { changeRow, csvRows, type ReportTable } from "~/modules/reports/table";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// Every figure of /reports on an account whose numbers were worked out by hand (below, in the
// comments), with another agent's rows in the same days that must never count, and period edges at midnight
// in New York, Los Angeles and Tokyo. The clock is passed in: nothing here depends on the day the suite runs.

const db = createDb(env.DB);
const users = new Map<string, Awaited<ReturnType<typeof createUser>>>();
const owner = async () => {
  const user = await createUser(env.DB);
  users.set(user.id, user);
  return user.id as UserId;
};
/** A signed-in browser for an account made by owner(). */
const browserFor = (userId: string) => signInAs(users.get(userId)!);
const MIN = 60_000;
const at = (iso: string) => new Date(iso);
let seq = 0;
const id = (prefix: string) => `${prefix}-${++seq}-${crypto.randomUUID().slice(0, 8)}`;

/** A contact that arrived as a new lead when it was added (figures.server.ts), unless `leadAt` says otherwise. */
function contact(userId: string, fields: Partial<NewContact> & { createdAt: Date }): NewContact {
  return {
    id: id("c"),
    userId,
    name: `Contact ${seq}`,
    status: "cold",
    source: "other",
    lastActivity: fields.createdAt,
    leadAt: fields.createdAt,
    ...fields,
  };
}
function deal(userId: string, fields: Partial<NewDeal> & { stage: string; dealValueCents: number; stageChangedAt: Date }): NewDeal {
  return { id: id("d"), userId, title: `Deal ${seq}`, position: `a${seq}`, commissionRate: 3, probability: 10, ...fields };
}
/** Moves a deal as the pipeline does (stage and stage_changed_at together), so the history triggers record it. */
async function move(dealId: string, stage: string, when: string, extra: Partial<NewDeal> = {}) {
  await db
    .update(deals)
    .set({ stage, stageChangedAt: at(when), ...extra })
    .where(eq(deals.id, dealId));
}
async function activity(userId: string, contactId: string | null, type: NewActivityType, when: Date | string, dealId: string | null = null) {
  const row = { id: id("a"), userId, contactId, dealId, type, occurredAt: typeof when === "string" ? at(when) : when };
  await db.insert(crmActivities).values(row);
  return row.id;
}
type NewActivityType = (typeof crmActivities.$inferInsert)["type"];

const rowOf = (table: ReportTable, key: string) => {
  const row = table.rows.find((r) => r.key === key);
  if (!row) throw new Error(`${table.id} has no row ${key}: ${table.rows.map((r) => r.key).join(", ")}`);
  return Object.fromEntries(table.columns.map((c, i) => [c.label, row.cells[i]!.value]));
};
const totalOf = (table: ReportTable) => Object.fromEntries(table.columns.map((c, i) => [c.label, table.total![i]!.value]));
const previousOf = (table: ReportTable) => Object.fromEntries(table.columns.map((c, i) => [c.label, table.previous![i]!.value]));
const changeOf = (table: ReportTable) => Object.fromEntries(table.columns.map((c, i) => [c.label, changeRow(table)![i]!.value]));
const summaryOf = (reports: Reports, key: string) => reports.summary.find((s) => s.key === key)!;

/** Another agent with a contact, a won deal, costs, tasks and activities on the same days. */
async function stranger() {
  const other = await owner();
  const theirs = contact(other, { name: "Not Yours", status: "hot", source: "website", createdAt: at("2026-06-02T14:00:00Z") });
  await db.insert(contacts).values(theirs);
  const theirDeal = deal(other, {
    stage: "closed_won",
    dealValueCents: 99_900_000,
    closedDate: "2026-06-03",
    contactId: theirs.id,
    stageChangedAt: at("2026-06-03T14:00:00Z"),
  });
  await db.insert(deals).values(theirDeal);
  await activity(other, theirs.id, "call", "2026-06-02T14:01:00Z", theirDeal.id);
  await db.insert(leadSourceCosts).values({ userId: other, source: "website", month: "2026-06", costCents: 9_999_900 });
  await db.insert(crmTasks).values({ id: id("t"), userId: other, title: "Their task", dueDate: "2026-06-05" });
  return { other, theirs, theirDeal };
}

describe("reports", () => {
  // Noon in New York on Monday 15 June 2026 (EDT, UTC−4): This month is 1–15 June, compared with 1–15 May.
  const now = at("2026-06-15T16:00:00Z");

  async function account() {
    const userId = await owner();
    const them = await stranger();
    await db.update(userPreferences).set({ incomeGoalCents: 10_000_000 }).where(eq(userPreferences.userId, userId));
    // 3 %, 30 % brokerage split capped at $10,000 a calendar year, $395 a transaction.
    await db
      .insert(commissionPlans)
      .values({ userId, defaultRate: 3, brokerageSplitPct: 30, brokerageCapCents: 1_000_000, capYearStart: "01-01", transactionFeeCents: 39_500 });

    const A = contact(userId, { name: "Avery Past", source: "referral", createdAt: at("2026-02-01T15:00:00Z") });
    const B = contact(userId, { name: "Blake May", source: "website", createdAt: at("2026-04-20T15:00:00Z") });
    // Midnight in New York on 1 June: the first moment of the period.
    const C = contact(userId, { name: "Casey First", source: "website", createdAt: at("2026-06-01T04:00:00Z") });
    const D = contact(userId, { name: "Dana Lost", source: "open_house", createdAt: at("2026-06-03T14:00:00Z") });
    const E = contact(userId, { name: "Emery Open", source: "website", createdAt: at("2026-06-04T14:00:00Z") });
    const F = contact(userId, { name: "Frankie Waiting", status: "hot", source: "referral", createdAt: at("2026-06-05T14:00:00Z") });
    // 23:59:59.999 on 31 May in New York: in neither period.
    const G = contact(userId, { name: "Gray Late May", source: "website", createdAt: at("2026-06-01T03:59:59.999Z") });
    const H = contact(userId, { name: "Harper Before", source: "website", createdAt: at("2026-05-10T14:00:00Z") });
    const K = contact(userId, {
      name: "Kai Quiet",
      status: "warm",
      source: "other",
      createdAt: at("2026-01-05T15:00:00Z"),
      lastActivity: at("2026-05-20T15:00:00Z"),
    });
    await db.insert(contacts).values([A, B, C, D, E]);
    await db.insert(contacts).values([F, G, H, K]);

    // Won deals, in closed-date order through the cap:
    //   W1 $400,000 on 10 Mar: gross 12,000; split 3,600; net 12,000 − 3,600 − 395 = 8,005
    //   W2 $500,000 on 5 May, 25 % referral: gross 15,000; referral 3,750; split 3,375; net 7,480
    //   W3 $600,000 on 2 Jun: gross 18,000; split 5,400 but 3,025 left of the cap; net 18,000 − 3,025 − 395 = 14,580
    //   W4 $300,000 on 10 Jun, no contact: gross 9,000; cap reached, no split; net 8,605
    const W1 = deal(userId, {
      stage: "closed_won",
      dealValueCents: 40_000_000,
      closedDate: "2026-03-10",
      contactId: A.id,
      stageChangedAt: at("2026-03-10T15:00:00Z"),
    });
    const W2 = deal(userId, {
      stage: "closed_won",
      dealValueCents: 50_000_000,
      closedDate: "2026-05-05",
      contactId: B.id,
      referralFeePct: 25,
      stageChangedAt: at("2026-05-05T15:00:00Z"),
    });
    const W3 = deal(userId, { stage: "offer", dealValueCents: 60_000_000, contactId: C.id, stageChangedAt: at("2026-05-25T15:00:00Z") });
    const W4 = deal(userId, {
      stage: "closed_won",
      dealValueCents: 30_000_000,
      closedDate: "2026-06-10",
      stageChangedAt: at("2026-06-10T15:00:00Z"),
    });
    const L1 = deal(userId, { stage: "lead", dealValueCents: 25_000_000, contactId: D.id, stageChangedAt: at("2026-06-04T15:00:00Z") });
    const O1 = deal(userId, {
      stage: "lead",
      dealValueCents: 45_000_000,
      probability: 60,
      expectedCloseDate: "2026-07-20",
      contactId: E.id,
      stageChangedAt: at("2026-06-05T15:00:00Z"),
    });
    await db.insert(deals).values([W1, W2, W3]);
    await db.insert(deals).values([W4, L1, O1]);
    await move(W3.id, "under_contract", "2026-05-28T15:00:00Z");
    await move(W3.id, "closed_won", "2026-06-02T15:00:00Z", { closedDate: "2026-06-02" });
    await move(L1.id, "closed_lost", "2026-06-08T15:00:00Z", { closedDate: "2026-06-08", lostReason: "Went with another agent" });
    await move(O1.id, "qualified", "2026-06-07T15:00:00Z");
    await move(O1.id, "offer", "2026-06-12T15:00:00Z");

    // First answers: C after 3 minutes, D after 45, E after 2 hours (a note a minute in does not count), F never; H (May) after 10.
    await activity(userId, C.id, "call", new Date(C.createdAt!.getTime() + 3 * MIN));
    await activity(userId, D.id, "text", new Date(D.createdAt!.getTime() + 45 * MIN));
    await activity(userId, E.id, "note", new Date(E.createdAt!.getTime() + 1 * MIN));
    await activity(userId, E.id, "email_sent", new Date(E.createdAt!.getTime() + 120 * MIN));
    await activity(userId, H.id, "call", new Date(H.createdAt!.getTime() + 10 * MIN));
    // Week edges in New York: 23:30 on Sunday 7 June is the first week's, midnight on Monday 8 June the second's.
    await activity(userId, A.id, "showing", "2026-06-08T03:30:00Z");
    await activity(userId, A.id, "meeting", "2026-06-08T04:00:00Z");
    // Stage changes are not activity the agent logged.
    await activity(userId, null, "stage_change", "2026-06-09T15:00:00Z", O1.id);

    await db.insert(crmTasks).values([
      { id: id("t"), userId, title: "Done on time", dueDate: "2026-06-03", status: "completed", completedAt: at("2026-06-03T15:00:00Z") },
      { id: id("t"), userId, title: "Late", dueDate: "2026-06-10" },
      { id: id("t"), userId, title: "Today", dueDate: "2026-06-15" },
      { id: id("t"), userId, title: "May", dueDate: "2026-05-05", status: "completed", completedAt: at("2026-05-05T15:00:00Z") },
    ]);
    await db.insert(leadSourceCosts).values([
      { userId, source: "website", month: "2026-06", costCents: 30_000 },
      { userId, source: "website", month: "2026-05", costCents: 31_000 },
    ]);
    return { userId, them, A, B, C, D, E, F, G, H, K, W1, W2, W3, W4, L1, O1 };
  }

  it("holds income, goal and cap to the commission code, with the cap crossed mid-year and a referral fee", async () => {
    const { userId } = await account();
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
    expect(reports.period).toMatchObject({
      key: "this-month",
      from: "2026-06-01",
      to: "2026-06-15",
      previous: { from: "2026-05-01", to: "2026-05-15" },
      problem: null,
    });
    expect(rowOf(reports.income.table, "2026-06")).toEqual({
      Month: "2026-06",
      "Deals closed": 2,
      "Closed volume": 900_000,
      GCI: 27_000,
      "Agent net": 23_185,
    });
    expect(summaryOf(reports, "net")).toMatchObject({ value: "$23,185", previous: "$7,480", changePct: 210 });
    expect(summaryOf(reports, "volume")).toMatchObject({ value: "$900,000", previous: "$500,000", changePct: 80 });
    // 1–15 May: W2 alone. The change row is in percent of the earlier figure.
    expect(previousOf(reports.income.table)).toEqual({
      Month: "Previous period, May 1, 2026 – May 15, 2026",
      "Deals closed": 1,
      "Closed volume": 500_000,
      GCI: 15_000,
      "Agent net": 7_480,
    });
    expect(changeOf(reports.income.table)).toEqual({ Month: "Change", "Deals closed": 100, "Closed volume": 80, GCI: 80, "Agent net": 210 });
    // Year to date 8,005 + 7,480 + 14,580 + 8,605 = 38,670 of 100,000; on pace: 100,000 × 166 / 365 days.
    expect(reports.income.goal).toEqual({ goalCents: 10_000_000, ytdNetCents: 3_867_000, pct: 39, paceCents: 4_547_945, year: "2026" });
    // 3,600 + 3,375 + 3,025 = the cap, reached by W3.
    expect(reports.income.cap).toMatchObject({
      capCents: 1_000_000,
      paidCents: 1_000_000,
      remainingCents: 0,
      reachedOn: "2026-06-02",
      yearStart: "2026-01-01",
      yearEnd: "2026-12-31",
    });

    // The dashboard's charts show the same months from the same code: the figures agree.
    const dashboard = await loadDashboard(requestContext(), userId, now);
    const june = dashboard.performance.months.find((m) => m.month === "2026-06")!;
    expect([june.deals, june.volumeCents / 100, june.netCents / 100]).toEqual([2, 900_000, 23_185]);

    const ytd = await loadReports(requestContext(), userId, new URLSearchParams("period=ytd"), now);
    expect(ytd.income.table.rows.map((r) => r.key)).toEqual(["2026-01", "2026-02", "2026-03", "2026-04", "2026-05", "2026-06"]);
    expect(rowOf(ytd.income.table, "2026-03")).toMatchObject({ "Agent net": 8_005 });
    expect(rowOf(ytd.income.table, "2026-05")).toMatchObject({ "Agent net": 7_480, GCI: 15_000 });
    expect(totalOf(ytd.income.table)).toMatchObject({ "Deals closed": 4, "Agent net": 38_670 });
    for (const month of ["2026-03", "2026-05"]) {
      const shown = dashboard.performance.months.find((m) => m.month === month)!;
      expect([shown.deals, shown.volumeCents / 100, shown.netCents / 100], month).toEqual([
        rowOf(ytd.income.table, month)["Deals closed"],
        rowOf(ytd.income.table, month)["Closed volume"],
        rowOf(ytd.income.table, month)["Agent net"],
      ]);
    }
  });

  it("attributes contacts, conversion, closed deals and costs to lead sources", async () => {
    const { userId } = await account();
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
    // Website: C and E added (G is 31 May in New York); C won W3 a day after being added; June's $300 cost counted for 15 of 30 days.
    expect(rowOf(reports.sources.table, "website")).toEqual({
      Source: "Website",
      "Contacts added": 2,
      Won: 1,
      Conversion: 50,
      "Deals closed": 1,
      "Days to close": 1,
      "Closed volume": 600_000,
      "Agent net": 14_580,
      Cost: 150,
      "Cost per lead": 75,
      "Cost per closed deal": 150,
      "Return on spend": 97.2,
    });
    expect(rowOf(reports.sources.table, "open_house")).toMatchObject({
      "Contacts added": 1,
      Won: 0,
      Conversion: 0,
      "Deals closed": 0,
      Cost: null,
      "Return on spend": null,
    });
    expect(rowOf(reports.sources.table, "none")).toMatchObject({ Source: "No contact", "Deals closed": 1, "Agent net": 8_605 });
    expect(reports.sources.table.rows.map((r) => r.key)).not.toContain("cold_call");
    // Reached: C's deal went offer → under contract → won; E's lead → qualified → offer; D's lead → lost.
    expect(rowOf(reports.sources.reach, "website")).toMatchObject({
      Lead: 1,
      Qualified: 1,
      Offer: 2,
      "Under Contract": 1,
      "Closed Won": 1,
      Showing: 0,
    });
    expect(rowOf(reports.sources.reach, "open_house")).toMatchObject({ Lead: 1, Offer: 0 });
    expect(summaryOf(reports, "added")).toMatchObject({ value: "4", previous: "1", changePct: 300 });
    // All sources: C, D, E and F added, C won; W3 (a day after C was added) and W4 (no contact) closed;
    // June's $150 of website spend.
    expect(totalOf(reports.sources.table)).toEqual({
      Source: "All sources",
      "Contacts added": 4,
      Won: 1,
      Conversion: 25,
      "Deals closed": 2,
      "Days to close": 1,
      "Closed volume": 900_000,
      "Agent net": 23_185,
      Cost: 150,
      "Cost per lead": 37.5,
      "Cost per closed deal": 75,
      "Return on spend": 154.57,
    });
    // 1–15 May: H added (not won); W2 closed 15 days after B was added (20 April); May's $310 for 15 of 31 days.
    expect(previousOf(reports.sources.table)).toEqual({
      Source: "Previous period, May 1, 2026 – May 15, 2026",
      "Contacts added": 1,
      Won: 0,
      Conversion: 0,
      "Deals closed": 1,
      "Days to close": 15,
      "Closed volume": 500_000,
      "Agent net": 7_480,
      Cost: 150,
      "Cost per lead": 150,
      "Cost per closed deal": 150,
      "Return on spend": 49.87,
    });
    // Shares change in points; nothing is a percent of zero.
    expect(changeOf(reports.sources.table)).toEqual({
      Source: "Change",
      "Contacts added": 300,
      Won: null,
      Conversion: 25,
      "Deals closed": 100,
      "Days to close": -93,
      "Closed volume": 80,
      "Agent net": 210,
      Cost: 0,
      "Cost per lead": -75,
      "Cost per closed deal": -50,
      "Return on spend": 210,
    });
  });

  it("measures speed to lead from the first call, text, e-mail or meeting, and lists who is still waiting", async () => {
    const { userId, F } = await account();
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
    // Answered in 3, 45 and 120 minutes; F not at all. Median (rank 2 of 3) 45, 90th percentile (rank 3) 120.
    expect(reports.speed).toMatchObject({
      leads: 4,
      answered: 3,
      median: "45 min",
      p90: "2 h",
      shares: { fast: 25, hour: 50, never: 25 },
      waitingCount: 1,
    });
    expect(totalOf(reports.speed.table)).toEqual({
      Source: "All sources",
      "New leads": 4,
      Answered: 3,
      Median: 45,
      "90th percentile": 120,
      "Within 5 minutes": 25,
      "Within an hour": 50,
      "Not answered": 25,
    });
    // Website: 3 and 120 minutes; the lower middle of an even count is the median.
    expect(rowOf(reports.speed.table, "website")).toMatchObject({
      Answered: 2,
      Median: 3,
      "90th percentile": 120,
      "Within 5 minutes": 50,
      "Not answered": 0,
    });
    expect(rowOf(reports.speed.table, "referral")).toMatchObject({ Answered: 0, Median: null, "Not answered": 100 });
    // 1–15 May: H, answered in 10 minutes.
    expect(previousOf(reports.speed.table)).toMatchObject({
      "New leads": 1,
      Answered: 1,
      Median: 10,
      "90th percentile": 10,
      "Within 5 minutes": 0,
      "Within an hour": 100,
      "Not answered": 0,
    });
    expect(changeOf(reports.speed.table)).toEqual({
      Source: "Change",
      "New leads": 300,
      Answered: 200,
      Median: 350,
      "90th percentile": 1100,
      "Within 5 minutes": 25,
      "Within an hour": -50,
      "Not answered": 25,
    });
    expect(reports.speed.waiting.rows.map((r) => r.href)).toEqual([`/contacts/${F.id}`]);
    // The CSV says when each waiting lead arrived on the agent's clock (10:00 in New York, 14:00 UTC) and names the zone.
    const waitingCsv = csvRows(reports.speed.waiting);
    expect(waitingCsv[0]).toEqual(["Contact", "Source", "Arrived (America/New_York)", "Waiting (minutes)"]);
    expect(waitingCsv[1]!.slice(0, 3)).toEqual(["Frankie Waiting", "Referral", "2026-06-05 10:00"]);
    expect(summaryOf(reports, "speed")).toMatchObject({ value: "45 min", previous: "10 min", changePct: 350, higherIsBetter: false });
  });

  it("gives the dashboard's speed to lead the median Reports gives the same days", async () => {
    // At midnight in New York the dashboard's 30 × 24 hours are exactly the days 16 May – 14 June.
    const midnight = at("2026-06-15T04:00:00Z");
    const { userId } = await account();
    const dashboard = await loadDashboard(requestContext(), userId, midnight);
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=custom&from=2026-05-16&to=2026-06-14"), midnight);
    // C, D, E, F and G (31 May in New York) were added; C, D and E answered in 3, 45 and 120 minutes.
    expect(reports.speed).toMatchObject({ leads: 5, answered: 3, median: "45 min" });
    expect(dashboard.stats.speedToLead).toEqual({ leads: 5, answered: 3, medianMinutes: 45 });
  });

  it("keeps each contact's first answer as activities are logged, moved and deleted", async () => {
    const userId = await owner();
    const lead = contact(userId, { name: "Triggered", createdAt: at("2026-06-01T12:00:00Z") });
    await db.insert(contacts).values(lead);
    const first = () =>
      db
        .select({ at: contacts.firstResponseAt })
        .from(contacts)
        .where(eq(contacts.id, lead.id))
        .get()
        .then((r) => r?.at?.getTime() ?? null);
    await activity(userId, lead.id, "note", "2026-06-01T12:01:00Z");
    await activity(userId, lead.id, "showing", "2026-06-01T12:02:00Z");
    expect(await first()).toBeNull();
    const later = await activity(userId, lead.id, "call", "2026-06-01T13:00:00Z");
    const sooner = await activity(userId, lead.id, "text", "2026-06-01T12:30:00Z");
    expect(await first()).toBe(Date.parse("2026-06-01T12:30:00Z"));
    await db.delete(crmActivities).where(eq(crmActivities.id, sooner));
    expect(await first()).toBe(Date.parse("2026-06-01T13:00:00Z"));
    await db.update(crmActivities).set({ type: "note" }).where(eq(crmActivities.id, later));
    expect(await first()).toBeNull();
  });

  it("keeps the contacts added per source and UTC day as contacts are added, edited, merged and deleted", async () => {
    const userId = await owner();
    const other = await owner();
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
    const kept = async (who: UserId) =>
      (
        await db.select().from(contactSourceDays).where(eq(contactSourceDays.userId, who)).orderBy(contactSourceDays.day, contactSourceDays.source)
      ).map((r) => [r.source, r.day, r.n]);
    const a = contact(userId, { source: "website", createdAt: at("2026-06-01T23:59:59.999Z") });
    const b = contact(userId, { source: "website", createdAt: at("2026-06-01T00:00:00.000Z") });
    const c = contact(userId, { source: "referral", createdAt: at("2026-06-02T00:00:00.000Z") });
    // Before 1970 the day still starts at the midnight before (the stored day floors toward the past).
    const old = contact(userId, { source: "other", createdAt: at("1969-12-31T23:00:00.000Z") });
    await db.insert(contacts).values([a, b, c, old, contact(other, { source: "website", createdAt: at("2026-06-01T12:00:00Z") })]);
    expect(await kept(userId)).toEqual([
      ["other", day("1969-12-31"), 1],
      ["website", day("2026-06-01"), 2],
      ["referral", day("2026-06-02"), 1],
    ]);
    await db.update(contacts).set({ source: "referral" }).where(eq(contacts.id, a.id));
    // A merge keeps the earliest day the contacts were added (modules/contacts/duplicates.server.ts).
    await db
      .update(contacts)
      .set({ createdAt: at("2026-05-30T08:00:00Z") })
      .where(eq(contacts.id, c.id));
    await db.delete(contacts).where(eq(contacts.id, old.id));
    expect(await kept(userId)).toEqual([
      ["referral", day("2026-05-30"), 1],
      ["referral", day("2026-06-01"), 1],
      ["website", day("2026-06-01"), 1],
    ]);
    expect(await kept(other)).toEqual([["website", day("2026-06-01"), 1]]);
  });

  it("counts the leads of any period exactly as the contacts hold them: whole days from the counters, edges from the contacts", async () => {
    const userId = await owner();
    const mate = await owner();
    // Leads every 5 hours 13 minutes over 12 days, some answered by the holder, some by a teammate (not counted).
    const start = Date.parse("2026-03-01T00:00:00Z");
    const leads = Array.from({ length: 56 }, (_, i) => {
      const arrived = start + i * (5 * 3_600_000 + 13 * 60_000);
      const answered = i % 3 === 0 ? userId : i % 7 === 0 ? mate : null;
      return contact(userId, {
        source: (["zillow", "referral", "website"] as const)[i % 3],
        createdAt: at("2026-02-01T00:00:00Z"),
        leadAt: new Date(arrived),
        firstResponseAt: answered ? new Date(arrived + (i + 1) * 60_000) : null,
        answeredBy: answered,
      });
    });
    // One row a statement: D1 binds at most 100 parameters.
    const inserts = leads.map((l) => db.insert(contacts).values(l));
    await db.batch(inserts as [(typeof inserts)[number], ...(typeof inserts)[number][]]);
    const expected = (range: { lo: number; hi: number }) =>
      leads.filter((l) => l.leadAt!.getTime() >= range.lo && l.leadAt!.getTime() < range.hi && l.answeredBy !== mate);
    const h = 3_600_000;
    const ranges = [
      { lo: start + 7 * h + 5, hi: start + 9 * 24 * h + 3 * h },
      { lo: start - 24 * h, hi: start + 30 * 24 * h },
      { lo: start + 2 * 24 * h, hi: start + 4 * 24 * h },
      { lo: start + 30 * 60_000, hi: start + 20 * h },
      { lo: start + 5 * 24 * h + 17 * h, hi: OPEN_END },
    ];
    for (const [i, range] of ranges.entries()) {
      const totals = leadTotals(await leadsArrived(db, userId, [range]));
      const want = expected(range);
      expect({ i, leads: totals.leads, answered: totals.times.length }).toEqual({
        i,
        leads: want.length,
        answered: want.filter((l) => l.answeredBy === userId).length,
      });
    }
    // Two periods side by side, as Reports reads this one and the one before.
    const before = { lo: start + 7 * h + 5, hi: start + 4 * 24 * h + 11 * h };
    const after = { lo: before.hi, hi: start + 9 * 24 * h + 3 * h };
    const rows = await leadsArrived(db, userId, [before, after]);
    expect([leadTotals(rows, 0).leads, leadTotals(rows, 1).leads]).toEqual([expected(before).length, expected(after).length]);
    expect(leadTotals(rows, 1).times.length).toBe(expected(after).filter((l) => l.answeredBy === userId).length);
  });

  it("keeps the leads per source and UTC day of arrival for their holder as they arrive, are answered, move and go", async () => {
    const userId = await owner();
    const mate = await owner();
    const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
    const kept = async (who: UserId) =>
      (await db.select().from(leadSourceDays).where(eq(leadSourceDays.userId, who)).orderBy(leadSourceDays.day, leadSourceDays.source))
        .filter((r) => r.n !== 0)
        .map((r) => [r.source, r.day, r.n]);
    // What the counters must equal: the leads each holds, counted from the contacts themselves.
    const recount = async (who: UserId) =>
      (
        await env.DB.prepare(
          `select source, lead_at - ((lead_at % 86400000) + 86400000) % 86400000 as day, count(*) as n from contacts
           where user_id = ? and lead_at is not null and (answered_by is null or answered_by = user_id)
           group by source, day order by day, source`,
        )
          .bind(who)
          .all<{ source: string; day: number; n: number }>()
      ).results.map((r) => [r.source, r.day, r.n]);
    const a = contact(userId, { source: "zillow", createdAt: at("2026-05-01T00:00:00Z"), leadAt: at("2026-06-01T23:59:59.999Z") });
    const b = contact(userId, { source: "zillow", createdAt: at("2026-05-01T00:00:00Z"), leadAt: at("2026-06-01T00:00:00.000Z") });
    const c = contact(userId, { source: "referral", createdAt: at("2026-05-01T00:00:00Z"), leadAt: at("2026-06-02T08:00:00.000Z") });
    const notLead = contact(userId, { source: "zillow", createdAt: at("2026-05-01T00:00:00Z"), leadAt: null });
    await db.insert(contacts).values([a, b, c, notLead]);
    expect(await kept(userId)).toEqual([
      ["zillow", day("2026-06-01"), 2],
      ["referral", day("2026-06-02"), 1],
    ]);
    // Answered by the holder: still theirs. Answered by a teammate, then handed to another: in nobody's count.
    await db
      .update(contacts)
      .set({ answeredBy: userId, firstResponseAt: at("2026-06-01T01:00:00Z") })
      .where(eq(contacts.id, b.id));
    await db
      .update(contacts)
      .set({ answeredBy: mate, firstResponseAt: at("2026-06-02T09:00:00Z") })
      .where(eq(contacts.id, c.id));
    expect(await kept(userId)).toEqual([["zillow", day("2026-06-01"), 2]]);
    // Handed to the teammate who answered it: theirs now. A handoff that clears the answer counts for the new holder.
    await db.update(contacts).set({ userId: mate }).where(eq(contacts.id, c.id));
    await db.update(contacts).set({ userId: mate, answeredBy: null, firstResponseAt: null }).where(eq(contacts.id, a.id));
    // A lead's source or arrival edited, a contact becoming a lead, and a lead deleted.
    await db
      .update(contacts)
      .set({ source: "website", leadAt: at("2026-05-31T10:00:00Z") })
      .where(eq(contacts.id, b.id));
    await db
      .update(contacts)
      .set({ leadAt: at("2026-06-03T10:00:00Z") })
      .where(eq(contacts.id, notLead.id));
    expect(await kept(userId)).toEqual([
      ["website", day("2026-05-31"), 1],
      ["zillow", day("2026-06-03"), 1],
    ]);
    expect(await kept(mate)).toEqual([
      ["zillow", day("2026-06-01"), 1],
      ["referral", day("2026-06-02"), 1],
    ]);
    await db.delete(contacts).where(eq(contacts.id, a.id));
    for (const who of [userId, mate]) expect(await kept(who)).toEqual(await recount(who));
    expect(await kept(mate)).toEqual([["referral", day("2026-06-02"), 1]]);
  });

  it("counts contacts added in any range from the kept days and the edges exactly as from the contacts", async () => {
    const userId = await owner();
    const sources = ["website", "referral", "open_house"] as const;
    // 240 contacts over ten days, at minutes chosen so some sit on UTC and local midnights.
    const base = Date.parse("2026-03-05T00:00:00Z");
    const rows = Array.from({ length: 240 }, (_, i) =>
      contact(userId, { source: sources[i % 3], createdAt: new Date(base + ((i * 3_617_003) % (10 * 86_400_000)) - (i % 7 === 0 ? 0 : 1)) }),
    );
    // Ten a statement: D1 binds at most 100 values to one.
    for (let i = 0; i < rows.length; i += 10) await db.insert(contacts).values(rows.slice(i, i + 10));
    await db.insert(contacts).values(contact((await owner()) as string, { source: "website", createdAt: new Date(base + 86_400_000) }));
    const direct = (lo: number, hi: number) => {
      const counts = new Map<string, number>();
      for (const r of rows) if (r.createdAt!.getTime() >= lo && r.createdAt!.getTime() < hi) counts.set(r.source!, (counts.get(r.source!) ?? 0) + 1);
      return counts;
    };
    const ranges = [
      [base - 5 * 3_600_000, base + 3 * 86_400_000 + 7 * 3_600_000], // Tokyo-like edges around three whole days
      [base + 8 * 3_600_000, base + 86_400_000 + 8 * 3_600_000], // one day in Los Angeles: no whole UTC day inside
      [base, base + 10 * 86_400_000], // whole UTC days only
      [base + 1_000, base + 2_000], // a sliver
    ] as const;
    for (const [lo, hi] of ranges) {
      const previous = { lo: lo - 86_400_000 * 2, hi: lo - 3_600_000 };
      const [days, edges] = contactsAddedBy(db, userId, previous, { lo, hi });
      const got = { current: new Map<string, number>(), previous: new Map<string, number>() };
      for (const r of [...(await days), ...(await edges)]) {
        const into = r.current === 1 ? got.current : got.previous;
        into.set(r.source, (into.get(r.source) ?? 0) + r.n);
      }
      const drop0 = (m: Map<string, number>) => new Map([...m].filter(([, n]) => n > 0));
      expect(drop0(got.current)).toEqual(direct(lo, hi));
      expect(drop0(got.previous)).toEqual(direct(previous.lo, previous.hi));
    }
    const DAY = 86_400_000;
    expect(splitByUtcDay(base + 1, base + 2 * DAY - 1)).toEqual({ days: null, edges: [{ lo: base + 1, hi: base + 2 * DAY - 1 }] });
    expect(splitByUtcDay(base - 1, base + DAY + 1)).toEqual({
      days: { lo: base, hi: base + DAY },
      edges: [
        { lo: base - 1, hi: base },
        { lo: base + DAY, hi: base + DAY + 1 },
      ],
    });
    expect(splitByUtcDay(base, base + DAY)).toEqual({ days: { lo: base, hi: base + DAY }, edges: [] });
  });

  it("builds the funnel from the recorded stage changes", async () => {
    const { userId, O1 } = await account();
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
    // Lead: L1 (4 days, then lost) and O1 (2 days, then qualified): median the lower middle, 2.
    expect(rowOf(reports.funnel.table, "lead")).toEqual({
      Stage: "Lead",
      Entered: 2,
      "Entered before": 0,
      "Moved on": 1,
      Lost: 1,
      "Median days in stage": 2,
    });
    expect(rowOf(reports.funnel.table, "qualified")).toEqual({
      Stage: "Qualified",
      Entered: 1,
      "Entered before": 0,
      "Moved on": 1,
      Lost: 0,
      "Median days in stage": 5,
    });
    expect(rowOf(reports.funnel.table, "offer")).toMatchObject({ Entered: 1, "Moved on": 0, "Median days in stage": null });
    // W3 entered Under Contract on 28 May: outside the period.
    expect(rowOf(reports.funnel.table, "under_contract")).toMatchObject({ Entered: 0 });
    // W2 was created won on 5 May: the one stage entered in the comparison period.
    expect(rowOf(reports.funnel.table, "closed_won")).toMatchObject({ Entered: 2, "Entered before": 1, "Moved on": null });
    expect(reports.funnel).toMatchObject({ won: { value: 2, previous: 1 }, lost: { value: 1, previous: 0 }, averageDealCents: 45_000_000 });
    expect(reports.funnel.lostReasons.rows.map((r) => r.cells.map((c) => c.value))).toEqual([["Went with another agent", 1]]);
    const history = await db.select().from(dealStageHistory).where(eq(dealStageHistory.dealId, O1.id)).orderBy(dealStageHistory.enteredAt);
    expect(history.map((h) => [h.stage, h.nextStage])).toEqual([
      ["lead", "qualified"],
      ["qualified", "offer"],
      ["offer", null],
    ]);
  });

  it("counts activities by week in the agent's timezone, tasks due, and follow-up gaps as the dashboard does", async () => {
    const { userId, K } = await account();
    const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
    // The week of 15 June has no activity: the table leaves it out, the chart has its (empty) bar.
    expect(reports.activity.table.rows.map((r) => r.key)).toEqual(["2026-06-01", "2026-06-08"]);
    expect(reports.activity.chart.bars.map((b) => [b.key, b.value, b.label])).toEqual([
      ["2026-06-01", 5, "Jun"],
      ["2026-06-08", 1, ""],
      ["2026-06-15", 0, ""],
    ]);
    // Week 1: call, text, note, e-mail and Sunday night's showing; week 2: Monday's meeting. Stage changes left out.
    expect(rowOf(reports.activity.table, "2026-06-01")).toMatchObject({
      Call: 1,
      "Text message": 1,
      "E-mail sent": 1,
      Note: 1,
      Showing: 1,
      Total: 5,
    });
    expect(rowOf(reports.activity.table, "2026-06-08")).toMatchObject({ Meeting: 1, Total: 1 });
    expect(reports.activity.table.columns.map((c) => c.label)).not.toContain("Stage change");
    expect(summaryOf(reports, "activities")).toMatchObject({ value: "6", previous: "1", changePct: 500 });
    // 1–15 May: H's call (June has C's, so the call column is there either way).
    expect(previousOf(reports.activity.table)).toMatchObject({ Call: 1, "Text message": 0, Total: 1 });
    expect(changeOf(reports.activity.table)).toMatchObject({ Call: 0, "Text message": null, Total: 500 });
    expect(rowOf(reports.activity.tasks, "current")).toMatchObject({ Due: 3, Completed: 1, Overdue: 1, "Completed share": 33 });
    expect(rowOf(reports.activity.tasks, "previous")).toMatchObject({ Due: 1, Completed: 1, Overdue: 0 });
    expect(reports.activity.followUps.rows.map((r) => r.href)).toEqual([`/contacts/${K.id}`]);
    // K's last activity, 15:00 UTC on 20 May, is 11:00 on the agent's New York clock, and the CSV says so.
    expect(csvRows(reports.activity.followUps)).toEqual([
      ["Contact", "Status", "Last activity (America/New_York)"],
      ["Kai Quiet", "Warm", "2026-05-20 11:00"],
    ]);
    const dashboard = await loadDashboard(requestContext(), userId, now);
    expect(reports.activity.followUpCount).toBe(dashboard.stats.followUp);
  });

  it("shows nothing of another agent's data in any report or table", async () => {
    const { userId, them } = await account();
    for (const period of ["this-month", "ytd", "last-12-months"]) {
      const reports = await loadReports(requestContext(), userId, new URLSearchParams({ period }), now);
      const text = JSON.stringify(reportTables(reports));
      expect(text).not.toContain(them.theirs.name);
      expect(text).not.toContain(them.theirs.id);
      expect(text).not.toContain("999,000");
      expect(text).not.toContain("99,999");
    }
    // Their own reports see their own deal and contact (the data exists; it is only not the owner's).
    const theirs = await loadReports(requestContext(), them.other as UserId, new URLSearchParams("period=this-month"), now);
    expect(rowOf(theirs.sources.table, "website")).toMatchObject({ "Contacts added": 1, "Deals closed": 1, "Closed volume": 999_000 });
  });

  it("starts the period at midnight in the agent's timezone, in Los Angeles and Tokyo", async () => {
    for (const [timezone, inside, outside] of [
      ["America/Los_Angeles", "2026-06-01T07:00:00.000Z", "2026-06-01T06:59:59.999Z"],
      ["Asia/Tokyo", "2026-05-31T15:00:00.000Z", "2026-05-31T14:59:59.999Z"],
    ] as const) {
      const userId = await owner();
      await db.update(userPreferences).set({ timezone }).where(eq(userPreferences.userId, userId));
      const first = contact(userId, { name: "First of June", source: "website", createdAt: at(inside) });
      const last = contact(userId, { name: "Last of May", source: "referral", createdAt: at(outside) });
      await db.insert(contacts).values([first, last]);
      await activity(userId, last.id, "call", at(inside));
      const reports = await loadReports(requestContext(), userId, new URLSearchParams("period=this-month"), now);
      expect(reports.period.from).toBe("2026-06-01");
      expect(reports.sources.table.rows.map((r) => r.key)).toEqual(["website"]);
      expect(reports.activity.table.rows[0]).toMatchObject({ key: "2026-06-01" });
      expect(totalOf(reports.activity.table)).toMatchObject({ Total: 1 });
    }
  });

  it("takes percentiles by nearest rank", () => {
    expect(nearestRank([], 50)).toBeNull();
    expect(nearestRank([7], 50)).toBe(7);
    expect(nearestRank([7], 90)).toBe(7);
    expect(nearestRank([1, 2], 50)).toBe(1);
    expect(nearestRank([1, 2, 3], 50)).toBe(2);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(nearestRank([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90)).toBe(10);
    expect(responseSummary([0, 5 * MIN, 5 * MIN + 1, 60 * MIN])).toEqual({ answered: 4, p50Minutes: 5, p90Minutes: 60, fast: 2, hour: 4 });
  });

  it("reads the period from the URL and says so when it cannot", async () => {
    const userId = await owner();
    const load = (query: string) => loadReports(requestContext(), userId, new URLSearchParams(query), now);
    expect((await load("period=last-month")).period).toMatchObject({
      from: "2026-05-01",
      to: "2026-05-31",
      previous: { from: "2026-04-01", to: "2026-04-30" },
    });
    expect((await load("period=this-quarter")).period).toMatchObject({
      from: "2026-04-01",
      to: "2026-06-15",
      previous: { from: "2026-01-01", to: "2026-03-15" },
    });
    expect((await load("period=ytd")).period).toMatchObject({
      from: "2026-01-01",
      to: "2026-06-15",
      previous: { from: "2025-01-01", to: "2025-06-15" },
    });
    expect((await load("period=last-12-months")).period).toMatchObject({
      from: "2025-06-16",
      to: "2026-06-15",
      previous: { from: "2024-06-16", to: "2025-06-15" },
    });
    expect((await load("period=custom&from=2026-03-01&to=2026-03-10")).period).toMatchObject({
      key: "custom",
      previous: { from: "2026-02-19", to: "2026-02-28" },
      problem: null,
    });
    for (const query of [
      "period=forever",
      "period=custom&from=2026-03-10&to=2026-03-01",
      "period=custom&from=2026-02-30&to=2026-03-01",
      "period=custom&from=2010-01-01&to=2026-01-01",
      "period=custom",
      "period=custom&from=9999-12-25&to=9999-12-31",
      "period=custom&from=0001-01-01&to=0001-01-05",
      "period=custom&from=+20000-01-01&to=2026-01-01",
    ]) {
      const reports = await load(query);
      expect(reports.period.key, query).toBe("this-month");
      expect(reports.period.problem, query).toMatch(/This month/);
    }
  });

  describe("the page, the CSV and Settings → Goals over HTTP", () => {
    it("shows the agent's own reports, every definition, and an empty state that says what to do", async () => {
      const { userId, them, C } = await account();
      const browser = await browserFor(userId);
      const response = await browser.get("/reports?period=ytd");
      expect(response.status).toBe(200);
      expect(response.headers.get("Server-Timing")).toMatch(/^reports;dur=\d+/);
      const html = await response.text();
      for (const heading of ["Income", "Lead sources", "Speed to lead", "Pipeline conversion", "Activity"])
        expect(html).toContain(`>${heading}</h2>`);
      expect(html).toContain("How Speed to lead is counted");
      expect(html).toContain('aria-current="page"');
      expect(html).toContain("Year to date · ");
      expect(html).not.toContain(them.theirs.name);
      expect(html).not.toContain(C.name); // contacts appear only in the waiting and quiet lists, and C was answered

      const fresh = await signInAs(await createUser(env.DB));
      const emptyHtml = await (await fresh.get("/reports")).text();
      expect(emptyHtml).toContain("No deal closed won in this period, of yours or shared with you.");
      expect(emptyHtml).toContain("No new lead arrived in this period");
      expect(emptyHtml).toContain("No annual goal set");
    });

    it("downloads exactly a table's rows as CSV, and nothing for a table that does not exist", async () => {
      const { userId, them } = await account();
      const browser = await browserFor(userId);
      const csv = await browser.get("/reports/sources.csv?period=custom&from=2026-06-01&to=2026-06-15");
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
      expect(csv.headers.get("Content-Disposition")).toBe('attachment; filename="porchlight-sources-2026-06-01-to-2026-06-15.csv"');
      const lines = (await csv.text())
        .replace(/^\uFEFF/, "")
        .trim()
        .split("\r\n");
      expect(lines[0]).toBe(
        "Source,Contacts added,Won,Conversion (%),Deals closed,Days to close,Closed volume (USD),Agent net (USD),Cost (USD),Cost per lead (USD),Cost per closed deal (USD),Return on spend (×)",
      );
      expect(lines).toContain("Website,2,1,50,1,1,600000,14580,150,75,150,97.2");
      expect(lines).toContain("No contact,,,,1,,300000,8605,,,,");
      // The footer as on the page: the totals, the 15 days before (G added; May's cost for 15 of 31 days), the change.
      expect(lines.slice(-3)).toEqual([
        "All sources,4,1,25,2,1,900000,23185,150,37.5,75,154.57",
        '"Previous period, May 17, 2026 – May 31, 2026",1,0,0,0,,0,0,150,150,,0',
        "Change,300,,25,,,,,0,-75,,",
      ]);
      for (const path of ["/reports/nothing.csv", "/reports/..%2Fcontacts.csv", "/reports/income.csv.csv"]) {
        const missing = await browser.get(path);
        expect(missing.status, path).toBe(404);
      }
      expect((await new TestBrowser().get("/reports/income.csv")).status).toBe(302);
      // Another agent's unanswered lead is in their file, never in this one.
      const theirs = await browserFor(them.other);
      await db.insert(contacts).values(contact(them.other, { name: "Their Waiting Lead", createdAt: at("2026-06-05T15:00:00Z") }));
      const range = "period=custom&from=2026-06-01&to=2026-06-15";
      expect(await (await browser.get(`/reports/waiting-leads.csv?${range}`)).text()).not.toContain("Their Waiting Lead");
      expect(await (await theirs.get(`/reports/waiting-leads.csv?${range}`)).text()).toContain("Their Waiting Lead");
    });

    it("answers odd periods with This month and a message, never an error", async () => {
      const { userId } = await account();
      const browser = await browserFor(userId);
      for (const query of [
        "period=%00",
        "period=custom&from=99999-01-01&to=2026-01-01",
        "period=custom&from=2026-01-01&to=%3Cscript%3E",
        "period=custom&to=2026-03-01",
      ]) {
        const response = await browser.get(`/reports?${query}`);
        expect(response.status, query).toBe(200);
        const html = await response.text();
        expect(html, query).toMatch(/<p role="alert"[^>]*>[^<]*so this shows This month\.<\/p>/);
        expect(html, query).not.toContain("<script>");
      }
      // Repeated or unrelated parameters: the first of each is read, the rest ignored.
      for (const query of ["period=custom&from=2026-01-01&from=2026-02-01&to=2026-03-01", "month=2026-13&period=ytd&period=forever"]) {
        const response = await browser.get(`/reports?${query}`);
        expect(response.status, query).toBe(200);
        expect(await response.text(), query).not.toContain('role="alert"');
      }
    });

    it("saves the income goal and a month's lead source costs, refuses bad amounts, and keeps each agent's own", async () => {
      const userId = await owner();
      const other = await owner();
      const browser = await browserFor(userId);
      const post = (fields: Record<string, string>) => browser.post("/settings?tab=goals", fields);
      expect((await post({ intent: "goal", incomeGoalCents: "150,000" })).status).toBe(302);
      const saved = await db.select({ goal: userPreferences.incomeGoalCents }).from(userPreferences).where(eq(userPreferences.userId, userId)).get();
      expect(saved?.goal).toBe(15_000_000);
      const bad = await post({ intent: "goal", incomeGoalCents: "lots" });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("Enter annual income goal as an amount");
      expect(
        (await db.select({ goal: userPreferences.incomeGoalCents }).from(userPreferences).where(eq(userPreferences.userId, userId)).get())?.goal,
      ).toBe(15_000_000);

      expect((await post({ intent: "costs", month: "2026-06", cost_website: "300", cost_referral: "", cost_open_house: "45.50" })).status).toBe(302);
      const costs = await db.select().from(leadSourceCosts).where(eq(leadSourceCosts.userId, userId)).orderBy(leadSourceCosts.source);
      expect(costs.map((c) => [c.source, c.month, c.costCents])).toEqual([
        ["open_house", "2026-06", 4_550],
        ["website", "2026-06", 30_000],
      ]);
      // Blank removes; a bad month or amount changes nothing.
      expect((await post({ intent: "costs", month: "2026-06", cost_website: "300" })).status).toBe(302);
      expect((await db.select().from(leadSourceCosts).where(eq(leadSourceCosts.userId, userId))).map((c) => c.source)).toEqual(["website"]);
      for (const fields of [
        { month: "2026-13", cost_website: "1" },
        { month: "2026-06", cost_website: "-5" },
        { month: "2026-06", cost_website: "1e12" },
      ]) {
        expect((await post({ intent: "costs", ...fields })).status, JSON.stringify(fields)).toBe(400);
      }
      expect((await db.select().from(leadSourceCosts).where(eq(leadSourceCosts.userId, userId))).map((c) => c.costCents)).toEqual([30_000]);
      expect(await db.select().from(leadSourceCosts).where(eq(leadSourceCosts.userId, other))).toEqual([]);
      const page = await (await browser.get("/settings?tab=goals&month=2026-06")).text();
      expect(page).toContain('value="300"');
      expect(page).toContain('value="150000"');
    });
  });
});
