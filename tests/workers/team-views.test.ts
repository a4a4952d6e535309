import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { commissionPlans, contacts, crmActivities, crmTasks, deals, teamMembers } from "~/db/schema";
import { AI_MESSAGES } from "~/modules/ai/ai.schema";
import type { UserId } from "~/modules/auth/session.server";
import { EXPORT_CATEGORIES } from "~/modules/data/tables";
import { loadLeaderboard } from "~/modules/team/leaderboard.server";
import { getMembership } from "~/modules/team/team.server";
import { requestContext } from "../factories/context";
import { signInAs, type TestBrowser } from "../factories/browser";
import { dayFromToday } from "../factories/dates";
import { deal, team } from "../factories/teams";
import { createUser } from "../factories/users";

// Team views (ADR 0034): the one visibility rule (team/visibility.server.ts) as the leaderboard and Reports
// apply it. Owners and admins see every member; an agent sees their own figures and the team's standings; nobody
// outside the team sees anything, and another team's ids answer like ids that do not exist.

const db = () => createDb(env.DB);
const id = () => crypto.randomUUID();
const at = (iso: string) => new Date(iso);

describe("the team leaderboard", () => {
  // Mid-June 2026 in New York; every date below is fixed relative to it, and loadLeaderboard is given it as now.
  const now = at("2026-06-15T16:00:00Z");

  async function seeded() {
    const t = await team();
    await db().batch([
      // Owner: 20% split, $500 transaction fee. $400,000 at 3%: gross $12,000, split $2,400, fee $500: net $9,100.
      db().insert(commissionPlans).values({ userId: t.owner.id, brokerageSplitPct: 20, transactionFeeCents: 50_000 }),
      db()
        .insert(deals)
        .values([
          deal(t.owner.id, { title: "Owner's June close", dealValueCents: 40_000_000, closedDate: "2026-06-08" }),
          // Open, and closed before the period: neither counts.
          deal(t.owner.id, { title: "Open", stage: "offer", probability: 60, dealValueCents: 90_000_000, expectedCloseDate: "2026-06-20" }),
          deal(t.owner.id, { title: "May close", dealValueCents: 10_000_000, closedDate: "2026-05-20" }),
        ]),
      // Agent A: 30% split capped at $3,000 a year from 01-01. March: $500,000 at 2.5%, gross $12,500, split $3,750
      // held to the $3,000 cap. June: $300,000 and $100,000 at 3% pay no split: nets $9,000 + $3,000 = $12,000.
      db().insert(commissionPlans).values({ userId: t.agentA.id, brokerageSplitPct: 30, brokerageCapCents: 300_000, capYearStart: "01-01" }),
      db()
        .insert(deals)
        .values([
          deal(t.agentA.id, { title: "March, reaches the cap", dealValueCents: 50_000_000, commissionRate: 2.5, closedDate: "2026-03-10" }),
          deal(t.agentA.id, { title: "June one", dealValueCents: 30_000_000, closedDate: "2026-06-05" }),
          deal(t.agentA.id, { title: "June two", dealValueCents: 10_000_000, closedDate: "2026-06-10" }),
        ]),
    ]);
    // Agent B: two new leads that arrived in June, answered in 30 and 10 minutes (median of two: the lower middle, 10 min);
    // a call, a text, a note and a stage change logged in the period (the stage change is not counted), a call in May.
    const c1 = id();
    const c2 = id();
    await db()
      .insert(contacts)
      .values([
        { id: c1, userId: t.agentB.id, name: "Lead one", createdAt: at("2026-06-02T14:00:00Z"), leadAt: at("2026-06-02T14:00:00Z") },
        { id: c2, userId: t.agentB.id, name: "Lead two", createdAt: at("2026-06-03T14:00:00Z"), leadAt: at("2026-06-03T14:00:00Z") },
      ]);
    await db()
      .insert(crmActivities)
      .values([
        { id: id(), userId: t.agentB.id, contactId: c1, type: "call", occurredAt: at("2026-06-02T14:30:00Z") },
        { id: id(), userId: t.agentB.id, contactId: c2, type: "text", occurredAt: at("2026-06-03T14:10:00Z") },
        { id: id(), userId: t.agentB.id, contactId: c2, type: "note", occurredAt: at("2026-06-04T14:10:00Z") },
        { id: id(), userId: t.agentB.id, contactId: c2, type: "stage_change", occurredAt: at("2026-06-04T15:10:00Z") },
        { id: id(), userId: t.agentB.id, type: "call", occurredAt: at("2026-05-04T15:10:00Z") },
      ]);
    return t;
  }

  async function boardFor(userId: string) {
    const context = requestContext();
    const membership = (await getMembership(context, userId as UserId))!;
    return loadLeaderboard(context, { userId: userId as UserId, team: membership }, new URLSearchParams("period=this-month"), now);
  }

  it("ranks members by closed volume, then deals won, with hand-worked agent net under each agent's own plan and cap", async () => {
    const t = await seeded();
    const board = await boardFor(t.owner.id);
    expect(board.period).toMatchObject({ from: "2026-06-01", to: "2026-06-15" });
    const rows = board.rows.map(({ name, closedVolumeCents, dealsWon, netCents, medianResponseMinutes, answered, activities }) => ({
      name,
      closedVolumeCents,
      dealsWon,
      netCents,
      medianResponseMinutes,
      answered,
      activities,
    }));
    expect(rows).toEqual([
      {
        name: "Amara Agent",
        closedVolumeCents: 40_000_000,
        dealsWon: 2,
        netCents: 1_200_000,
        medianResponseMinutes: null,
        answered: 0,
        activities: 0,
      },
      { name: "Olu Okafor", closedVolumeCents: 40_000_000, dealsWon: 1, netCents: 910_000, medianResponseMinutes: null, answered: 0, activities: 0 },
      { name: "Bea Agent", closedVolumeCents: 0, dealsWon: 0, netCents: 0, medianResponseMinutes: 10, answered: 2, activities: 3 },
      { name: "Ada Admin", closedVolumeCents: 0, dealsWon: 0, netCents: 0, medianResponseMinutes: null, answered: 0, activities: 0 },
    ]);
    expect(board.seesAllNet).toBe(true);
  });

  it("shows an agent every member's standings but only their own agent net; an admin sees all of it", async () => {
    const t = await seeded();
    const asAgent = await boardFor(t.agentB.id);
    expect(asAgent.rows.map((r) => [r.name, r.closedVolumeCents, r.netCents])).toEqual([
      ["Amara Agent", 40_000_000, null],
      ["Olu Okafor", 40_000_000, null],
      ["Bea Agent", 0, 0],
      ["Ada Admin", 0, null],
    ]);
    expect(asAgent.seesAllNet).toBe(false);
    const asAdmin = await boardFor(t.admin.id);
    expect(asAdmin.rows.map((r) => r.netCents)).toEqual([1_200_000, 910_000, 0, 0]);
  });

  it("is a team page: members get it, with net marked private for an agent; Solo accounts and another team get nothing of it", async () => {
    const t = await team("Harbor Homes");
    await db()
      .insert(deals)
      .values(deal(t.agentA.id, { title: "Closed today", dealValueCents: 25_000_000, closedDate: dayFromToday(0) }));
    const period = `period=custom&from=${dayFromToday(-3)}&to=${dayFromToday(3)}`;

    const owner = await signInAs(t.owner);
    const page = await owner.page(`/team/leaderboard?${period}`);
    expect(page).toContain("Leaderboard");
    expect(page).toContain("Amara Agent");
    expect(page).toContain("$250,000");
    // $250,000 at 3% with no split: the owner sees the agent's net of $7,500.
    expect(page).toContain("$7,500");
    expect(page).toContain(`&amp;agent=${t.agentA.id}`);

    const agentB = await signInAs(t.agentB);
    const asAgent = await agentB.page(`/team/leaderboard?${period}`);
    expect(asAgent).toContain("$250,000");
    expect(asAgent).not.toContain("$7,500");
    expect(asAgent).toContain("Private");
    expect(asAgent).not.toContain(`agent=${t.agentA.id}`);

    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.get("/team/leaderboard")).status).toBe(404);
    expect(await solo.page("/dashboard")).not.toContain('href="/team/leaderboard"');
    expect(await owner.page("/dashboard")).toContain('href="/team/leaderboard"');

    // Another team's owner sees only their own team.
    const other = await team("Elsewhere Realty");
    const otherPage = await (await signInAs(other.owner)).page(`/team/leaderboard?${period}`);
    expect(otherPage).not.toContain("$250,000");
    expect(otherPage).not.toContain("Harbor Homes");
  });
});

describe("Reports for one member of the team", () => {
  async function withClosedDeal() {
    const t = await team("Lakeside Team");
    await db()
      .insert(deals)
      .values(deal(t.agentA.id, { title: "Agent A's close", dealValueCents: 31_000_000, closedDate: dayFromToday(0) }));
    await db()
      .insert(contacts)
      .values({
        id: id(),
        userId: t.agentA.id,
        name: "Waiting Wanda",
        createdAt: new Date(Date.now() - 60_000),
        leadAt: new Date(Date.now() - 60_000),
      });
    return t;
  }

  it("lets the owner and an admin read any member's reports, without links into the agent's contacts", async () => {
    const t = await withClosedDeal();
    for (const viewer of [t.owner, t.admin]) {
      const browser = await signInAs(viewer);
      const page = await browser.page(`/reports?period=this-month&agent=${t.agentA.id}`);
      expect(page).toContain("Reports: Amara Agent");
      expect(page).toContain("$310,000");
      expect(page).toContain("Waiting Wanda");
      expect(page).not.toMatch(/href="\/contacts\/[0-9a-f-]{36}"/);
      // The agent picker lists the team; the CSV download keeps the agent.
      expect(page).toContain("Show reports");
      const csv = await browser.get(`/reports/income.csv?period=this-month&agent=${t.agentA.id}`);
      expect(csv.status).toBe(200);
      expect(csv.headers.get("Content-Disposition")).toContain("porchlight-income-amara-agent-");
      expect(await csv.text()).toContain("310000");
    }
    // The agent reads their own, with their links.
    const own = await (await signInAs(t.agentA)).page("/reports?period=this-month");
    expect(own).toContain("$310,000");
    expect(own).toMatch(/href="\/contacts\/[0-9a-f-]{36}"/);
    expect(own).not.toContain("Show reports");
  });

  it("answers 404 to an agent asking for a teammate, to anyone asking for another team's member, and to nonsense", async () => {
    const t = await withClosedDeal();
    const other = await team("Elsewhere Realty");
    const agentB = await signInAs(t.agentB);
    expect((await agentB.get(`/reports?agent=${t.agentA.id}`)).status).toBe(404);
    expect((await agentB.get(`/reports/income.csv?agent=${t.agentA.id}`)).status).toBe(404);
    expect((await agentB.get(`/reports?agent=${t.agentB.id}`)).status).toBe(200);
    const otherOwner = await signInAs(other.owner);
    for (const asked of [t.agentA.id, t.owner.id, "nobody", "' or 1=1 --", "%00"]) {
      expect((await otherOwner.get(`/reports?agent=${encodeURIComponent(asked)}`)).status).toBe(404);
      expect((await otherOwner.get(`/reports/speed.csv?agent=${encodeURIComponent(asked)}`)).status).toBe(404);
    }
    const solo = await createUser(env.DB);
    const soloBrowser = await signInAs(solo);
    expect((await soloBrowser.get(`/reports?agent=${t.agentA.id}`)).status).toBe(404);
    expect((await soloBrowser.get(`/reports?agent=${solo.id}`)).status).toBe(200);
    // A former member is out of view at once.
    await db().delete(teamMembers).where(eq(teamMembers.userId, t.agentA.id));
    expect((await (await signInAs(t.owner)).get(`/reports?agent=${t.agentA.id}`)).status).toBe(404);
  });
});

describe("the team pipeline", () => {
  async function withDeals() {
    const t = await team("Bayview Partners");
    const aOpen = deal(t.agentA.id, {
      title: "Amara's open listing",
      stage: "lead",
      probability: 10,
      dealValueCents: 45_000_000,
      expectedCloseDate: dayFromToday(20),
    });
    const aWon = deal(t.agentA.id, { title: "Amara's closed sale", dealValueCents: 30_000_000, closedDate: dayFromToday(-2) });
    const bOpen = deal(t.agentB.id, {
      title: "Bea's buyer search",
      stage: "showing",
      probability: 40,
      dealValueCents: 60_000_000,
      expectedCloseDate: dayFromToday(5),
    });
    await db().insert(deals).values([aOpen, aWon, bOpen]);
    return { ...t, aOpen, aWon, bOpen };
  }
  const stageOf = async (dealId: string) => (await db().select({ stage: deals.stage }).from(deals).where(eq(deals.id, dealId)).get())?.stage;

  it("shows owners any member's board without links into the agent's deals, and lists every member's open deals", async () => {
    const t = await withDeals();
    const owner = await signInAs(t.owner);
    const board = (await owner.page(`/team/pipeline?agent=${t.agentA.id}`)).replace(/<!-- -->/g, "");
    expect(board).toContain("Amara Agent&#x27;s board");
    expect(board).toContain("Amara&#x27;s open listing");
    expect(board).not.toContain("Bea&#x27;s buyer search");
    expect(board).not.toContain(`href="/deals/${t.aOpen.id}"`);
    // $450,000 at 3% with no split: Amara's planned net is on the card.
    expect(board).toContain("Agent net $13,500.00");

    const list = await owner.page("/team/pipeline?view=list");
    expect(list).toContain("Amara&#x27;s open listing");
    expect(list).toContain("Bea&#x27;s buyer search");
    expect(list).not.toContain("Amara&#x27;s closed sale");
    expect(list).toContain("2 open deals");
    // Soonest close first: Bea's (5 days) before Amara's (20 days).
    expect(list.indexOf("Bea&#x27;s buyer search")).toBeLessThan(list.indexOf("Amara&#x27;s open listing"));
    const onlyA = await owner.page(`/team/pipeline?view=list&agent=${t.agentA.id}`);
    expect(onlyA).toContain("Amara&#x27;s open listing");
    expect(onlyA).not.toContain("Bea&#x27;s buyer search");
  });

  it("shows the owner a team of 104 with what each member's removal would hand over, within D1's 100 parameters", async () => {
    // The removal dialog's counts cover every member the owner may remove: a list of their ids would bind 102.
    const t = await team("Very Large Group");
    const more = await Promise.all(Array.from({ length: 100 }, () => createUser(env.DB, { status: null })));
    const rows = more.map((u) => ({ teamId: t.teamId, userId: u.id, role: "agent" as const, joinedAt: new Date() }));
    const [first, ...others] = [0, 20, 40, 60, 80].map((from) =>
      db()
        .insert(teamMembers)
        .values(rows.slice(from, from + 20)),
    );
    await db().batch([first!, ...others]);
    await db()
      .insert(deals)
      .values(deal(more[99]!.id, { title: "Last member's deal", stage: "offer" }));
    const page = await (await signInAs(t.owner)).fetch("/team");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("104 members");
  });

  it("lists the open deals of a team of 20 within D1's 100 parameters per statement, soonest close first", async () => {
    // Each agent's own open stages (five by default) and their id: one statement for 20 agents would bind 141.
    const t = await team("Large Group");
    const more = await Promise.all(Array.from({ length: 16 }, () => createUser(env.DB, { status: null })));
    await db()
      .insert(teamMembers)
      .values(more.map((u) => ({ teamId: t.teamId, userId: u.id, role: "agent" as const, joinedAt: new Date() })));
    const agents = [t.owner, t.admin, t.agentA, t.agentB, ...more];
    // One open deal each, closing on day 20 - i (the last agent's first), one closed sale that must not show, and one
    // deal with no close date (listed last).
    const rows = [
      ...agents.map((a, i) =>
        deal(a.id, {
          title: `Large open ${i}`,
          stage: "offer",
          probability: 60,
          dealValueCents: 10_000_000,
          expectedCloseDate: dayFromToday(20 - i),
        }),
      ),
      deal(agents[3]!.id, { title: "Large closed sale" }),
      deal(agents[7]!.id, { title: "Large undated", stage: "lead", probability: 10, dealValueCents: 1_000_000 }),
    ];
    await db().batch([
      db().insert(deals).values(rows.slice(0, 8)),
      db().insert(deals).values(rows.slice(8, 16)),
      db().insert(deals).values(rows.slice(16)),
    ]);
    const list = await (await signInAs(t.owner)).page("/team/pipeline?view=list");
    expect(list).toContain("21 open deals");
    expect(list).not.toContain("Large closed sale");
    const order = [...list.matchAll(/Large (?:open \d+|undated)/g)].map((m) => m[0]);
    expect([...new Set(order)]).toEqual([...agents.map((_, i) => `Large open ${agents.length - 1 - i}`), "Large undated"]);
  });

  it("lets an owner or admin move a member's deal, recorded on the agent's timeline with their name", async () => {
    const t = await withDeals();
    const admin = await signInAs(t.admin);
    const moved = await admin.post("/team/pipeline", {
      intent: "move",
      agent: t.agentA.id,
      id: t.aOpen.id,
      stage: "offer",
      afterId: "",
      beforeId: "",
      lostReason: "",
    });
    expect(moved.status).toBe(200);
    expect(await stageOf(t.aOpen.id)).toBe("offer");
    const change = await db().select().from(crmActivities).where(eq(crmActivities.dealId, t.aOpen.id)).get();
    expect(change).toMatchObject({ userId: t.agentA.id, type: "stage_change" });
    expect(change!.meta).toMatchObject({ from: "lead", to: "offer", by: "Ada Admin" });
    expect(await (await signInAs(t.agentA)).page(`/deals/${t.aOpen.id}`)).toContain("Moved from Lead to Offer by Ada Admin");

    // A lost stage still needs its reason, whoever moves the deal.
    const lost = await admin.post("/team/pipeline", {
      intent: "move",
      agent: t.agentA.id,
      id: t.aOpen.id,
      stage: "closed_lost",
      afterId: "",
      beforeId: "",
      lostReason: "",
    });
    expect(lost.status).toBe(400);
    expect(await stageOf(t.aOpen.id)).toBe("offer");
  });

  it("keeps an agent to their own deals: a teammate's board, list or deal answers 404 and nothing moves", async () => {
    const t = await withDeals();
    const agentB = await signInAs(t.agentB);
    const own = await agentB.page("/team/pipeline");
    expect(own).toContain("Bea&#x27;s buyer search");
    expect(own).not.toContain("Amara");
    expect(own).toContain(`href="/deals/${t.bOpen.id}"`);
    expect(await agentB.page("/team/pipeline?view=list")).not.toContain("Amara&#x27;s open listing");
    expect((await agentB.get(`/team/pipeline?agent=${t.agentA.id}`)).status).toBe(404);
    expect((await agentB.get(`/team/pipeline?view=list&agent=${t.agentA.id}`)).status).toBe(404);
    const asTeammate = await agentB.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: t.aOpen.id, stage: "offer" });
    expect(asTeammate.status).toBe(404);
    // Their own agent id with a teammate's deal id: not found either.
    const borrowed = await agentB.post("/team/pipeline", { intent: "move", agent: t.agentB.id, id: t.aOpen.id, stage: "offer" });
    expect(borrowed.status).toBe(404);
    expect(await stageOf(t.aOpen.id)).toBe("lead");
    // Their own deal moves.
    expect((await agentB.post("/team/pipeline", { intent: "move", agent: t.agentB.id, id: t.bOpen.id, stage: "offer" })).status).toBe(200);
    expect(await stageOf(t.bOpen.id)).toBe("offer");
    const change = await db().select().from(crmActivities).where(eq(crmActivities.dealId, t.bOpen.id)).get();
    expect(change!.meta).not.toHaveProperty("by");
  });

  it("is not there for another team, a Solo account, or odd input", async () => {
    const t = await withDeals();
    const other = await signInAs((await team("Elsewhere Realty")).owner);
    expect((await other.get(`/team/pipeline?agent=${t.agentA.id}`)).status).toBe(404);
    expect((await other.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: t.aOpen.id, stage: "offer" })).status).toBe(404);
    expect(await other.page("/team/pipeline?view=list")).not.toContain("Amara&#x27;s open listing");
    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.get("/team/pipeline")).status).toBe(404);
    expect((await solo.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: t.aOpen.id, stage: "offer" })).status).toBe(404);
    const owner = await signInAs(t.owner);
    for (const asked of ["nobody", "' or 1=1 --", "%00", t.aOpen.id])
      expect((await owner.get(`/team/pipeline?agent=${encodeURIComponent(asked)}`)).status).toBe(404);
    expect((await owner.post("/team/pipeline", { intent: "delete", agent: t.agentA.id, id: t.aOpen.id })).status).toBe(400);
    expect((await owner.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: t.aOpen.id, stage: "" })).status).toBe(400);
    expect((await owner.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: t.aOpen.id, stage: "no_such_stage" })).status).toBe(400);
    const json = await owner.fetch("/team/pipeline", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify({ intent: "move" }),
    });
    expect(json.status).toBe(415);
    expect(await stageOf(t.aOpen.id)).toBe("lead");
  });
});

describe("the visibility matrix: role × entity × action, same team, other team, Solo", () => {
  // Agent A's private records, with names found nowhere else. Owner-only pages (contacts, deals, tasks, activities,
  // search, exports, the calendar feed, the AI) keep them from everyone else, teammates included; the team views show
  // their figures to the owner and admins only (ADR 0034).
  const MARK = "Quillfeather";

  async function world() {
    const t = await team("Matrix Realty");
    const other = await team("Outside Homes");
    const solo = await createUser(env.DB);
    const contactId = id();
    const dealRow = deal(t.agentA.id, {
      title: `${MARK} listing`,
      stage: "offer",
      probability: 60,
      dealValueCents: 52_000_000,
      contactId,
      expectedCloseDate: dayFromToday(12),
    });
    const taskId = id();
    const activityId = id();
    await db()
      .insert(contacts)
      .values({ id: contactId, userId: t.agentA.id, name: `Zephyrine ${MARK}`, email: "zephyrine@example.com", status: "hot" });
    await db().insert(deals).values(dealRow);
    await db()
      .insert(crmTasks)
      .values({ id: taskId, userId: t.agentA.id, contactId, title: `Call ${MARK} about the offer`, dueDate: dayFromToday(0) });
    await db()
      .insert(crmActivities)
      .values({
        id: activityId,
        userId: t.agentA.id,
        contactId,
        dealId: dealRow.id,
        type: "note",
        notes: `${MARK} wants a second viewing`,
        occurredAt: new Date(),
      });
    const viewers = { owner: t.owner, admin: t.admin, teammate: t.agentB, otherTeam: other.owner, solo };
    return { t, contactId, dealId: dealRow.id, taskId, activityId, viewers };
  }

  const ai = (browser: TestBrowser, body: unknown) =>
    browser.fetch("/api/ai/generate", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });

  it("keeps every owner-only page, API and export from every other role, and nothing changes", async () => {
    const w = await world();
    for (const [role, user] of Object.entries(w.viewers)) {
      const browser = await signInAs(user);
      const says = (what: string) => `${role}: ${what}`;
      // Anything of A's: the records' ids, the contact's name, the deal's, the task's and the note's words.
      const leaks = (text: string) =>
        [w.contactId, w.dealId, w.taskId, w.activityId, "Zephyrine", `${MARK} listing`, `Call ${MARK}`, `${MARK} wants`].filter((mark) =>
          text.includes(mark),
        );
      // Read, by id.
      expect((await browser.get(`/contacts/${w.contactId}`)).status, says("contact page")).toBe(404);
      expect((await browser.get(`/deals/${w.dealId}`)).status, says("deal page")).toBe(404);
      // Lists, search, dashboard, the coach: nothing of A's.
      for (const path of [
        "/dashboard",
        `/contacts?q=${MARK}`,
        "/pipeline",
        "/pipeline?view=list",
        "/tasks",
        "/tasks?view=upcoming",
        "/activities",
        "/ai-assistant",
        `/api/search?q=${MARK}`,
      ]) {
        expect(leaks(await browser.page(path)), says(path)).toEqual([]);
      }
      // Exports: the CSVs and the whole-account file are the viewer's own (their own contact and deal are in them),
      // with nothing of A's.
      const own = `Own${role}${id().slice(0, 6)}`;
      await db()
        .insert(contacts)
        .values({ id: id(), userId: user.id, name: `${own} contact`, status: "warm" });
      await db()
        .insert(deals)
        .values(deal(user.id, { title: `${own} deal`, stage: "lead", probability: 10 }));
      await db()
        .insert(crmTasks)
        .values({ id: id(), userId: user.id, title: `${own} task`, dueDate: dayFromToday(1) });
      await db()
        .insert(crmActivities)
        .values({ id: id(), userId: user.id, type: "note", notes: `${own} note`, occurredAt: new Date() });
      for (const [path, marker] of [
        ["/contacts/export.csv", own],
        ["/settings/export/deals.csv", `${own} deal`],
        ["/settings/export/tasks.csv", `${own} task`],
        ["/settings/export/activities.csv", `${own} note`],
      ] as const) {
        const response = await browser.get(path);
        expect(response.status, says(path)).toBe(200);
        expect(response.headers.get("Content-Type"), says(path)).toContain("text/csv");
        const text = await response.text();
        expect(text, says(path)).toContain(marker);
        expect(leaks(text), says(path)).toEqual([]);
      }
      const whole = await browser.fetch("/settings/export.json", {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(EXPORT_CATEGORIES.map((category) => ["category", category.key])).toString(),
      });
      expect(whole.status, says("export.json")).toBe(200);
      const file = await whole.text();
      expect(file, says("export.json")).toContain(`${own} contact`);
      for (const marker of [`${own} deal`, `${own} task`, `${own} note`]) expect(file, says("export.json")).toContain(marker);
      expect(leaks(file), says("export.json")).toEqual([]);
      // The viewer's own calendar feed lists their tasks only.
      const feed = await browser.post("/calendar-feed", { intent: "create" });
      const url = /\/api\/calendar\/[\w-]+\.ics/.exec(await feed.text())?.[0];
      expect(url, says("calendar feed")).toBeTruthy();
      expect(leaks(await (await browser.get(url!)).text()), says("calendar feed")).toEqual([]);
      // The AI: A's contact and deal are not found, and nothing is written about them.
      const followUp = await ai(browser, { task: "follow_up", contactId: w.contactId, tone: "professional" });
      expect(followUp.status, says("AI follow-up")).toBe(404);
      expect(await followUp.json(), says("AI follow-up")).toEqual({ ok: false, error: AI_MESSAGES.contactNotFound });
      const review = await ai(browser, { task: "deal_review", dealIds: [w.dealId] });
      expect(review.status, says("AI deal review")).toBe(404);
      expect(await review.json(), says("AI deal review")).toEqual({ ok: false, error: AI_MESSAGES.dealNotFound });
      // Change and delete, by id.
      expect((await browser.post(`/contacts/${w.contactId}`, { intent: "delete" })).status, says("contact delete")).toBe(404);
      expect(
        (await browser.post(`/deals/${w.dealId}`, { intent: "update", title: "Taken", stage: "lead", dealValueCents: "1" })).status,
        says("deal edit"),
      ).toBe(404);
      expect((await browser.post(`/deals/${w.dealId}`, { intent: "delete" })).status, says("deal delete")).toBe(404);
      expect((await browser.post("/pipeline?index", { intent: "move", id: w.dealId, stage: "lead" })).status, says("own-pipeline move")).toBe(404);
      expect((await browser.post("/tasks", { intent: "complete", id: w.taskId })).status, says("task complete")).toBe(404);
      expect((await browser.post("/activities", { intent: "delete", id: w.activityId })).status, says("activity delete")).toBe(400);
    }
    expect(await db().select({ id: contacts.id }).from(contacts).where(eq(contacts.id, w.contactId)).get()).toBeTruthy();
    expect(await db().select({ title: deals.title, stage: deals.stage }).from(deals).where(eq(deals.id, w.dealId)).get()).toEqual({
      title: `${MARK} listing`,
      stage: "offer",
    });
    expect((await db().select({ status: crmTasks.status }).from(crmTasks).where(eq(crmTasks.id, w.taskId)).get())?.status).toBe("open");
    expect(await db().select({ id: crmActivities.id }).from(crmActivities).where(eq(crmActivities.id, w.activityId)).get()).toBeTruthy();
  });

  it("opens the team views to the roles the rule names, and to nobody outside the team", async () => {
    const w = await world();
    const agentA = w.t.agentA.id;
    // [role, team pipeline board of A, team pipeline list shows A's deal, Reports for A, leaderboard shows A]
    const expected: [keyof typeof w.viewers, number, boolean, number, number | "no A"][] = [
      ["owner", 200, true, 200, 200],
      ["admin", 200, true, 200, 200],
      ["teammate", 404, false, 404, 200],
      ["otherTeam", 404, false, 404, "no A"],
      ["solo", 404, false, 404, 404],
    ];
    for (const [role, board, listed, reports, leaderboard] of expected) {
      const browser = await signInAs(w.viewers[role]);
      const boardPage = await browser.get(`/team/pipeline?agent=${agentA}`);
      expect(boardPage.status, `${role}: board`).toBe(board);
      if (board === 200) expect(await boardPage.text(), `${role}: board`).toContain(`${MARK} listing`);
      const list = await browser.get("/team/pipeline?view=list");
      expect(list.status === 200 && (await list.text()).includes(`${MARK} listing`), `${role}: list`).toBe(listed);
      expect((await browser.get(`/reports?agent=${agentA}`)).status, `${role}: reports`).toBe(reports);
      const board2 = await browser.get("/team/leaderboard");
      if (leaderboard === "no A") {
        expect(board2.status, `${role}: leaderboard`).toBe(200);
        // The other team has an Amara Agent of its own: A is told apart by id.
        expect(await board2.text(), `${role}: leaderboard`).not.toContain(agentA);
      } else {
        expect(board2.status, `${role}: leaderboard`).toBe(leaderboard);
        if (leaderboard === 200) expect(await board2.text(), `${role}: leaderboard`).toContain(agentA);
      }
      // Nobody but A reaches A's deal page, whatever team view they may use.
      expect((await browser.get(`/deals/${w.dealId}`)).status, `${role}: deal page`).toBe(404);
    }
    // A sees it all as theirs.
    const a = await signInAs(w.t.agentA);
    expect(await a.page(`/deals/${w.dealId}`)).toContain(`${MARK} listing`);
    expect(await a.page("/team/pipeline")).toContain(`${MARK} listing`);
  });
});
