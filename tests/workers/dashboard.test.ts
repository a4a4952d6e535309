import { DAY_MS } from "~/lib/dates";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { commissionPlans, contacts, crmActivities, crmTasks, deals, userPreferences, type NewContact, type NewDeal, type NewTask } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { METRIC_DEFINITIONS } from "~/modules/dashboard/metrics";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// Every figure of the dashboard on an account with known numbers, another agent's data present
// and never counted, and "today" in timezones either side of UTC around midnight.

const db = createDb(env.DB);
const owner = async () => (await createUser(env.DB)).id as UserId;
const HOUR = 3_600_000;

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
function deal(userId: string, fields: Partial<NewDeal> & { stage: string; dealValueCents: number }): NewDeal {
  return { id: id("d"), userId, title: `Deal ${seq}`, position: `a${seq}`, commissionRate: 3, probability: 10, ...fields };
}
function task(userId: string, fields: Partial<NewTask> & { dueDate: string }): NewTask {
  return { id: id("t"), userId, title: `Task ${seq}`, ...fields };
}
const at = (iso: string) => new Date(iso);
const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("'", "&#x27;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** Another agent with a bit of everything, dated so that each item would count if the owner filter slipped. */
async function strangerWithData(now: number) {
  const other = await owner();
  const theirs = contact(other, {
    name: "Not Yours",
    status: "hot",
    source: "website",
    createdAt: new Date(now - DAY_MS),
    lastActivity: new Date(now - 40 * DAY_MS),
  });
  const theirDeal = deal(other, {
    stage: "offer",
    dealValueCents: 99_900_000,
    closingDate: new Date(now).toISOString().slice(0, 10),
    contactId: theirs.id,
  });
  await db.insert(contacts).values(theirs);
  await db
    .insert(deals)
    .values([
      theirDeal,
      deal(other, { stage: "closed_won", dealValueCents: 88_800_000, closedDate: new Date(now - 3 * DAY_MS).toISOString().slice(0, 10) }),
    ]);
  await db.insert(crmTasks).values(task(other, { dueDate: "2020-01-01", title: "Their task" }));
  await db.insert(crmActivities).values({ id: id("a"), userId: other, type: "call", occurredAt: new Date(now - HOUR), contactId: theirs.id });
  return { other, theirs, theirDeal };
}

describe("dashboard figures", () => {
  it("counts every figure from the owner's rows only, as the definitions say", async () => {
    // Noon in New York on Monday 15 June 2026 (EDT, UTC−4).
    const now = Date.parse("2026-06-15T16:00:00Z");
    const userId = await owner();
    const stranger = await strangerWithData(now);
    const ago = (days: number) => new Date(now - days * DAY_MS);

    // Contacts: 3 hot, 3 warm, 2 cold.
    const c1 = contact(userId, { name: "Avery Hot", status: "hot", source: "referral", createdAt: ago(2), lastActivity: ago(1) });
    const c2 = contact(userId, { name: "Blake Quiet", status: "hot", source: "website", createdAt: ago(20), lastActivity: ago(20) });
    const c3 = contact(userId, { name: "Casey Warm", status: "warm", source: "website", createdAt: ago(40), lastActivity: ago(15) });
    const c4 = contact(userId, { name: "Dana Recent", status: "warm", source: "open_house", createdAt: ago(45), lastActivity: ago(13) });
    const c5 = contact(userId, { name: "Emerson Cold", status: "cold", source: "website", createdAt: ago(50), lastActivity: ago(100) });
    const c6 = contact(userId, { name: "Finley Old", status: "cold", source: "other", createdAt: ago(70) });
    // Midnight on 1 June in New York is 04:00 UTC: the first is this month's, the second (still 31 May there) is not.
    const c7 = contact(userId, { name: "Gray First", status: "hot", source: "referral", createdAt: at("2026-06-01T04:00:00.000Z") });
    const c8 = contact(userId, {
      name: "Harper Late",
      status: "warm",
      source: "referral",
      createdAt: at("2026-06-01T03:59:59.999Z"),
      lastActivity: ago(3),
    });
    await db.insert(contacts).values([c1, c2, c3, c4, c5, c6, c7, c8]);

    // Plan: 3 %, 30 % split capped at $10,000 a cap year starting 1 April, $395 per transaction.
    await db
      .insert(commissionPlans)
      .values({ userId, defaultRate: 3, brokerageSplitPct: 30, brokerageCapCents: 1_000_000, capYearStart: "04-01", transactionFeeCents: 39_500 });
    const d1 = deal(userId, {
      title: "Lead on Elm",
      stage: "lead",
      dealValueCents: 10_000_000,
      probability: 10,
      expectedCloseDate: "2026-06-20",
      contactId: c1.id,
    });
    const d2 = deal(userId, {
      title: "Offer on Oak",
      stage: "offer",
      dealValueCents: 50_000_000,
      probability: 60,
      expectedCloseDate: "2026-07-30",
      closingDate: "2026-06-15",
    });
    const d3 = deal(userId, {
      title: "Yesterday's",
      stage: "under_contract",
      dealValueCents: 30_000_000,
      probability: 90,
      expectedCloseDate: "2026-06-14",
    });
    const d4 = deal(userId, { title: "Undated", stage: "showing", dealValueCents: 25_000_000, probability: 40 });
    const d10 = deal(userId, {
      title: "Autumn close",
      stage: "qualified",
      dealValueCents: 20_000_000,
      probability: 25,
      expectedCloseDate: "2026-09-01",
      contactId: stranger.theirs.id,
    });
    // Won: d7 before the charts but in the cap year of d8, so d8 pays only what is left of the cap.
    const d7 = deal(userId, { stage: "closed_won", dealValueCents: 20_000_000, probability: 100, closedDate: "2025-06-20" });
    const d8 = deal(userId, { stage: "closed_won", dealValueCents: 100_000_000, probability: 100, closedDate: "2025-08-15" });
    const d5 = deal(userId, { stage: "closed_won", dealValueCents: 40_000_000, probability: 100, closedDate: "2026-05-10" });
    const d6 = deal(userId, { stage: "closed_won", dealValueCents: 60_000_000, probability: 100, closedDate: "2026-06-02" });
    const d9 = deal(userId, {
      stage: "closed_lost",
      dealValueCents: 30_000_000,
      probability: 0,
      closedDate: "2026-06-05",
      lostReason: "Went with another agent",
    });
    // Five rows a statement: D1 allows 100 bound parameters.
    for (const chunk of [
      [d1, d2, d3, d4, d5],
      [d6, d7, d8, d9, d10],
    ])
      await db.insert(deals).values(chunk);

    const t1 = task(userId, { title: "Send CMA", dueDate: "2026-06-10", contactId: c2.id });
    const t2 = task(userId, { title: "Call at nine", dueDate: "2026-06-15", dueTime: "09:00", dealId: d2.id, priority: "high" });
    const t3 = task(userId, { title: "All day today", dueDate: "2026-06-15" });
    const t4 = task(userId, { title: "Tomorrow", dueDate: "2026-06-16" });
    const t5 = task(userId, { title: "Done", dueDate: "2026-06-01", status: "completed", completedAt: ago(14) });
    const t6 = task(userId, { title: "July", dueDate: "2026-07-01" });
    const t7 = task(userId, {
      title: "Names a stranger's contact",
      dueDate: "2026-06-20",
      contactId: stranger.theirs.id,
      dealId: stranger.theirDeal.id,
    });
    await db.insert(crmTasks).values([t1, t2, t3, t4, t5, t6, t7]);

    const a1 = { id: id("a"), userId, type: "call" as const, occurredAt: ago(1), contactId: c1.id, outcome: "Left voicemail" };
    const a2 = {
      id: id("a"),
      userId,
      type: "stage_change" as const,
      occurredAt: ago(2),
      dealId: d2.id,
      meta: { from: "showing", fromName: "Showing", to: "offer", toName: "Offer", lostReason: null },
    };
    const a3 = { id: id("a"), userId, type: "note" as const, occurredAt: new Date(now - 7 * DAY_MS + HOUR), notes: "Prefers e-mail" };
    const a4 = { id: id("a"), userId, type: "email_sent" as const, occurredAt: ago(8) };
    const a5 = { id: id("a"), userId, type: "showing" as const, occurredAt: ago(30), contactId: c2.id };
    await db.insert(crmActivities).values([a1, a2, a3, a4, a5]);

    const d = await loadDashboard(requestContext(), userId, new Date(now));
    expect(d.today).toBe("2026-06-15");
    expect(d.onboarding).toBe(false);
    expect(d.empty).toBe(false);
    expect(d.stats).toEqual({
      totalContacts: 8,
      byStatus: { hot: 3, warm: 3, cold: 2 },
      // Lead 100,000 + Qualified 200,000 + Showing 250,000 + Offer 500,000 + Under Contract 300,000.
      activeDeals: { count: 5, valueCents: 135_000_000 },
      // Due today or earlier: Send CMA (10 June), Call at nine and All day today; overdue: Send CMA.
      tasksDue: { due: 3, overdue: 1 },
      // The call and the note (6 days 23 hours ago); not the stage change (Porchlight's record) nor the e-mail 8 days ago.
      recentActivity: 2,
      // Avery (13 June) and Gray (midnight 1 June, New York); not Harper (23:59 on 31 May there) or Blake (26 May).
      newLeads: 2,
      // Blake (20 days), Casey (15 days), Gray (added 14.5 days ago, nothing since); not Dana (13 days) nor the cold ones.
      followUp: 3,
      hotProspects: 3,
      // Last 30 days: Avery, Blake, Gray, Harper. The 30 before: Casey, Dana, Emerson. Finley (70 days) in neither.
      sphere: { added: 4, before: 3, changePct: 33 },
      // Of those four, only Avery was answered: the call a day after being added (the showing is not an answer).
      speedToLead: { leads: 4, answered: 1, medianMinutes: 1_440 },
    });
    expect(d.followUps.map((c) => c.name)).toEqual(["Blake Quiet", "Casey Warm", "Gray First"]);

    expect(d.pipeline.map((s) => [s.key, s.count, s.valueCents, s.weightedCents])).toEqual([
      ["lead", 1, 10_000_000, 1_000_000],
      ["qualified", 1, 20_000_000, 5_000_000],
      ["showing", 1, 25_000_000, 10_000_000],
      ["offer", 1, 50_000_000, 30_000_000],
      ["under_contract", 1, 30_000_000, 27_000_000],
    ]);
    expect(d.pipeline.find((s) => s.key === "offer")!.barPct).toBe(100);
    expect(d.pipeline.find((s) => s.key === "lead")!.barPct).toBe(20);

    // Cap year from 1 April 2026: May's won deal paid $3,600 of split, June's $5,400, so $1,000 is left.
    // Offer on Oak: gross $15,000, split $1,000 (the cap), fee $395 → $13,605. Lead on Elm: $3,000 − $900 − $395.
    expect(d.closings.map((c) => [c.title, c.closeOn, c.netCents, c.contactName])).toEqual([
      ["Offer on Oak", "2026-06-15", 1_360_500, null],
      ["Lead on Elm", "2026-06-20", 170_500, "Avery Hot"],
      ["Autumn close", "2026-09-01", 460_500, null],
    ]);
    // The stranger's contact is never named, and the link to it is gone.
    expect(d.closings[2]!.contactId).toBeNull();

    expect(d.tasks.map((t) => t.title)).toEqual(["Send CMA", "All day today", "Call at nine", "Tomorrow", "Names a stranger's contact", "July"]);
    expect(d.tasks[0]).toMatchObject({ contactId: c2.id, contactName: "Blake Quiet" });
    expect(d.tasks[2]).toMatchObject({ dealId: d2.id, dealTitle: "Offer on Oak", dueTime: "09:00", priority: "high" });
    expect(d.tasks[4]).toMatchObject({ contactId: null, contactName: null, dealId: null, dealTitle: null });

    expect(d.activities.map((a) => a.type)).toEqual(["call", "stage_change", "note", "email_sent", "showing"]);
    expect(d.activities[0]).toMatchObject({ contactName: "Avery Hot", outcome: "Left voicemail", occurredAt: now - DAY_MS });
    expect(d.activities[1]).toMatchObject({ from: "Showing", to: "Offer", dealTitle: "Offer on Oak" });

    // Charts: July 2025 to June 2026. August 2025: $1,000,000 whose split is held to $8,200 by June 2025's deal.
    const months = Object.fromEntries(d.performance.months.map((m) => [m.month, m]));
    expect(d.performance.months.map((m) => m.month)).toEqual([
      "2025-07",
      "2025-08",
      "2025-09",
      "2025-10",
      "2025-11",
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
    ]);
    expect(months["2025-08"]).toEqual({
      month: "2025-08",
      deals: 1,
      sharedDeals: 0,
      volumeCents: 100_000_000,
      gciCents: 3_000_000,
      netCents: 2_140_500,
    });
    expect(months["2026-05"]).toEqual({
      month: "2026-05",
      deals: 1,
      sharedDeals: 0,
      volumeCents: 40_000_000,
      gciCents: 1_200_000,
      netCents: 800_500,
    });
    // June: only the won deal; the lost one is not volume.
    expect(months["2026-06"]).toEqual({
      month: "2026-06",
      deals: 1,
      sharedDeals: 0,
      volumeCents: 60_000_000,
      gciCents: 1_800_000,
      netCents: 1_220_500,
    });
    expect(d.performance.months.reduce((sum, m) => sum + m.deals, 0)).toBe(3);
    expect(d.performance.volumeChart.bars.map((b) => b.value)).toEqual(d.performance.months.map((m) => m.volumeCents / 100));
    expect(d.performance.netChart.bars.find((b) => b.key === "2026-06")!.value).toBe(12_205);

    expect(d.sources.map((s) => [s.source, s.count])).toEqual([
      ["referral", 3],
      ["website", 3],
      ["open_house", 1],
      ["other", 1],
    ]);
  });

  it("an empty account shows no figures and offers onboarding until it is skipped", async () => {
    const userId = await owner();
    await strangerWithData(Date.now());
    const ctx = requestContext();
    const d = await loadDashboard(ctx, userId);
    expect(d).toMatchObject({ empty: true, onboarding: true, closings: [], tasks: [], activities: [], followUps: [], sources: [] });
    expect(d.stats).toMatchObject({
      totalContacts: 0,
      activeDeals: { count: 0, valueCents: 0 },
      tasksDue: { due: 0, overdue: 0 },
      recentActivity: 0,
      newLeads: 0,
      followUp: 0,
    });
    expect(d.performance.months.every((m) => m.deals === 0 && m.volumeCents === 0 && m.netCents === 0)).toBe(true);

    await db.update(userPreferences).set({ onboardingSkipped: true }).where(eq(userPreferences.userId, userId));
    expect((await loadDashboard(ctx, userId)).onboarding).toBe(false);
    // A task alone is enough to stop offering it.
    const other = await owner();
    await db.insert(crmTasks).values(task(other, { dueDate: "2026-01-01" }));
    expect(await loadDashboard(ctx, other as UserId)).toMatchObject({ onboarding: false, empty: false });
  });

  it("takes today, this month and the start of the month in the user's timezone, either side of UTC midnight", async () => {
    // 20:00 UTC on 30 November is already 05:00 on 1 December in Tokyo: a new day and a new month there.
    const tokyo = await owner();
    await db.update(userPreferences).set({ timezone: "Asia/Tokyo" }).where(eq(userPreferences.userId, tokyo));
    await db
      .insert(crmTasks)
      .values([
        task(tokyo, { dueDate: "2026-11-30" }),
        task(tokyo, { dueDate: "2026-12-01", dueTime: "23:00" }),
        task(tokyo, { dueDate: "2026-12-02" }),
      ]);
    await db.insert(contacts).values([
      // Midnight on 1 December in Tokyo is 15:00 UTC on 30 November.
      contact(tokyo, { createdAt: at("2026-11-30T15:00:00.000Z") }),
      contact(tokyo, { createdAt: at("2026-11-30T14:59:59.999Z") }),
      contact(tokyo, { createdAt: at("2026-11-30T19:00:00.000Z") }),
      contact(tokyo, { createdAt: at("2026-11-10T12:00:00.000Z") }),
    ]);
    const inTokyo = await loadDashboard(requestContext(), tokyo, at("2026-11-30T20:00:00Z"));
    expect(inTokyo.today).toBe("2026-12-01");
    expect(inTokyo.stats.tasksDue).toEqual({ due: 2, overdue: 1 });
    expect(inTokyo.stats.newLeads).toBe(2);
    // Read from the first of the two month windows: all four were added in the last 30 days.
    expect(inTokyo.stats.sphere).toEqual({ added: 4, before: 0, changePct: null });
    expect(inTokyo.performance.months.at(-1)!.month).toBe("2026-12");

    // 07:30 UTC on 1 December is still 23:30 on 30 November in Los Angeles (PST, UTC−8).
    const la = await owner();
    await db.update(userPreferences).set({ timezone: "America/Los_Angeles" }).where(eq(userPreferences.userId, la));
    await db.insert(crmTasks).values([task(la, { dueDate: "2026-11-29" }), task(la, { dueDate: "2026-11-30" }), task(la, { dueDate: "2026-12-01" })]);
    await db.insert(contacts).values([
      // 1 November 2026 begins at 07:00 UTC there (still PDT, UTC−7, until 02:00 that night).
      contact(la, { createdAt: at("2026-11-01T07:00:00.000Z") }),
      contact(la, { createdAt: at("2026-11-01T06:59:59.999Z") }),
      contact(la, { createdAt: at("2026-12-01T01:00:00.000Z") }),
    ]);
    const inLa = await loadDashboard(requestContext(), la, at("2026-12-01T07:30:00Z"));
    expect(inLa.today).toBe("2026-11-30");
    expect(inLa.stats.tasksDue).toEqual({ due: 2, overdue: 1 });
    expect(inLa.stats.newLeads).toBe(2);
    expect(inLa.performance.months.at(-1)!.month).toBe("2026-11");

    // The same moment for a user in UTC: 1 December, so only the task due that day... and the ones before it.
    const utc = await owner();
    await db.update(userPreferences).set({ timezone: "UTC" }).where(eq(userPreferences.userId, utc));
    await db
      .insert(crmTasks)
      .values([task(utc, { dueDate: "2026-11-30" }), task(utc, { dueDate: "2026-12-01" }), task(utc, { dueDate: "2026-12-02" })]);
    expect((await loadDashboard(requestContext(), utc, at("2026-12-01T07:30:00Z"))).stats.tasksDue).toEqual({ due: 2, overdue: 1 });
    expect((await loadDashboard(requestContext(), utc, at("2026-11-30T23:59:59Z"))).stats.tasksDue).toEqual({ due: 1, overdue: 0 });
  });

  it("reads everything in one D1 batch, and the page shows the figures with their definitions and Server-Timing", async () => {
    const user = await createUser(env.DB);
    const userId = user.id as UserId;
    await db.insert(contacts).values(contact(userId, { name: "Only One", status: "hot", source: "referral", createdAt: new Date() }));
    const prepared: string[] = [];
    const batches: number[] = [];
    const counting = new Proxy(env.DB, {
      get(target, property) {
        if (property === "prepare") return (text: string) => (prepared.push(text), target.prepare(text));
        if (property === "batch") return (list: D1PreparedStatement[]) => (batches.push(list.length), target.batch(list));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    const d = await loadDashboard(requestContext({ DB: counting }), userId);
    expect(d.stats.totalContacts).toBe(1);
    // One batch, and beside it the two reads of new leads this month (the agent's timezone, then the count by the
    // function Reports uses); each statement names the owner.
    expect(batches).toEqual([prepared.length - 2]);
    expect(prepared.filter((text) => text.includes('"lead_at"'))).toHaveLength(2);
    // (The deals teammates share with the agent are found by the co-agent's id: deal_shares.agent_id.)
    expect(prepared.every((text) => /"user_id" = \?|"deal_shares"\."agent_id" = \?/.test(text))).toBe(true);

    const browser = await signInAs(user);
    const response = await browser.get("/dashboard");
    expect(response.status).toBe(200);
    expect(response.headers.get("Server-Timing")).toMatch(/^dashboard;dur=\d+/);
    const html = await response.text();
    expect(html).toContain("How Hot prospects is counted");
    expect(html).toMatch(/Hot prospects<\/span> <span[^>]*>1<\/span>/);
    for (const key of ["totalContacts", "tasksDue", "followUp", "sphereGrowth", "closedVolume", "leadSources"] as const) {
      expect(html).toContain(`How ${METRIC_DEFINITIONS[key].label} is counted`);
      expect(html).toContain(escapeHtml(METRIC_DEFINITIONS[key].definition));
    }
    // The stranger-free empty account gets the start-here card instead of zeros.
    const empty = await signInAs(await createUser(env.DB));
    const emptyHtml = await (await empty.get("/dashboard")).text();
    expect(emptyHtml).toContain("Your dashboard fills in as you work");
    expect(emptyHtml).not.toContain("How Total contacts is counted");
    // …and, as the spec says, the onboarding dialog, since nothing is there and it was never skipped.
    expect(emptyHtml).toContain("Take a quick tour?");
    expect(html).not.toContain("Take a quick tour?");
  });
});

describe("Follow up next, grouped", () => {
  it("puts each 'All … contacts' link with its own group, and cuts long names with the full name in a tooltip", async () => {
    const user = await createUser(env.DB);
    const userId = user.id as UserId;
    const now = Date.now();
    const long = "Alexandra Catherine Montgomery-Worthington of Lake Town";
    await db
      .insert(contacts)
      .values([
        contact(userId, { name: long, status: "hot", createdAt: new Date(now - 60 * DAY_MS), lastActivity: new Date(now - 20 * DAY_MS) }),
        contact(userId, { name: "Walter Warm", status: "warm", createdAt: new Date(now - 60 * DAY_MS), lastActivity: new Date(now - 30 * DAY_MS) }),
      ]);
    const html = (await (await (await signInAs(user)).get("/dashboard")).text()).replace(/<!-- -->/g, "");
    const section = html.slice(html.indexOf('id="follow-up"'));
    const at = (text: string) => section.indexOf(text);
    // Hot heading, the hot contact, its link; then the warm heading, the warm contact, its link.
    const order = [">Hot</h3>", "All hot contacts", escapeHtml(long), ">Warm</h3>", "All warm contacts", "Walter Warm"].map(at);
    expect(order.every((i) => i >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(section).toContain(`title="${escapeHtml(long)}"`);
    expect(section).toMatch(/href="\/contacts\?status=hot"[^>]*>All hot contacts/);
  });
});
