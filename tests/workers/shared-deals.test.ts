import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { crmActivities, dealShares, deals } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { loadDashboard } from "~/modules/dashboard/dashboard.server";
import { SHARE_MESSAGES } from "~/modules/deals/shares.server";
import { loadLeaderboard } from "~/modules/team/leaderboard.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { deal, team } from "../factories/teams";
import { createUser } from "../factories/users";

// Shared deals (ADR 0037): the deal's agent adds teammates as co-agents with a share of the side. The side
// is split first; each agent's share then goes through their own plan and cap. Every figure below is worked by hand
// (commission.test.ts S1–S5 holds the arithmetic line by line).

const db = () => createDb(env.DB);
const read = async (browser: TestBrowser, path: string) => (await browser.page(path)).replace(/<!-- -->/g, "");
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** Whether a reply says `message`: on the page (HTML-escaped) or in the action's data (as written). */
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));
const sharesOf = (dealId: string) => db().select().from(dealShares).where(eq(dealShares.dealId, dealId));

/** The commission plan form's fields, nothing taken unless given. */
const plan = (fields: Record<string, string>) => ({
  intent: "commission-plan",
  defaultRate: "3",
  referralFeePct: "0",
  brokerageSplitPct: "0",
  brokerageCapCents: "",
  capYearStart: "01-01",
  teamSplitPct: "0",
  transactionFeeCents: "0",
  eoFeeCents: "0",
  franchiseFeePct: "0",
  ...fields,
});

describe("a shared deal", () => {
  it("splits the side before each agent's own split and cap, everywhere each agent's money is shown", async () => {
    const t = await team("Harbour Shared Realty");
    const amara = await signInAs(t.agentA);
    const bea = await signInAs(t.agentB);
    // Amara: 30 % split, $395 transaction fee, no cap. Bea: 20 % split, a $1,000 cap, 10 % team split, $50 E&O.
    expect((await amara.post("/pipeline/commissions", plan({ brokerageSplitPct: "30", transactionFeeCents: "395" }))).status).toBe(200);
    expect(
      (await bea.post("/pipeline/commissions", plan({ brokerageSplitPct: "20", brokerageCapCents: "1000", teamSplitPct: "10", eoFeeCents: "50" })))
        .status,
    ).toBe(200);
    // $600,000 at 3 %, closed today: the side is $18,000.00.
    const sale = deal(t.agentA.id, { title: "Harbour Street sale", dealValueCents: 60_000_000, closedDate: dayFromToday(0) });
    await db().insert(deals).values(sale);
    expect(await read(amara, "/pipeline")).toContain("Agent net $12,205.00"); // 18,000 − 5,400 − 395, before sharing

    expect((await amara.post(`/deals/${sale.id}`, { intent: "share", agent: t.agentB.id, sharePct: "40" })).status).toBe(200);
    expect(await sharesOf(sale.id)).toMatchObject([{ ownerId: t.agentA.id, agentId: t.agentB.id, sharePct: 40 }]);

    // Amara keeps 60 %: $10,800.00 − 30 % ($3,240.00) − $395.00 = $7,165.00.
    const page = await read(amara, `/deals/${sale.id}`);
    expect(page).toContain("Co-agents&#x27; shares");
    expect(page).toContain("−$7,200.00");
    expect(page).toContain("$7,165.00");
    expect(page).toContain("Bea Agent");
    expect(await read(amara, "/pipeline")).toContain("Agent net $7,165.00");
    expect(await read(amara, "/reports?period=this-month")).toContain("$7,165");

    // Bea's 40 %: $7,200.00; split 20 % would be $1,440.00, the cap leaves $1,000.00; team 10 % of $6,200.00 = $620.00;
    // E&O $50.00: $5,530.00. She sees it on her Pipeline, and it counts in her forecast, Reports and dashboard.
    const board = await read(bea, "/pipeline");
    expect(board).toContain("Shared with you");
    expect(board).toContain("Harbour Street sale");
    expect(board).toContain(`${escapeHtml("Amara Agent's")} deal`);
    expect(board).toContain("40% of the side");
    expect(board).toContain("$5,530.00");
    expect(await read(bea, "/pipeline/commissions")).toContain("$5,530");
    expect(await read(bea, "/reports?period=this-month")).toContain("$5,530");
    const dashboard = await loadDashboard(requestContext(), t.agentB.id as UserId);
    expect(dashboard.performance.months.at(-1)).toMatchObject({ deals: 0, volumeCents: 0, netCents: 553_000 });
    // It used up her cap: a deal of her own closing in the same cap year pays no split.
    // Expected today: in the same cap year as the sale whatever day it is (tomorrow is a new cap year on 31 December).
    const own = deal(t.agentB.id, {
      title: "Bea's own listing",
      stage: "offer",
      probability: 60,
      dealValueCents: 10_000_000,
      expectedCloseDate: dayFromToday(0),
    });
    await db().insert(deals).values(own);
    // $100,000 at 3 % = $3,000.00; no split (capped); team 10 % = $300.00; E&O $50.00: $2,650.00.
    expect(await read(bea, "/pipeline")).toContain("Agent net $2,650.00");

    // The leaderboard counts the volume and the win once, for the deal's agent; each agent's net is their share.
    const leaderboard = await read(await signInAs(t.owner), "/team/leaderboard?period=this-month");
    expect(leaderboard).toContain("$7,165");
    expect(leaderboard).toContain("$5,530");
    expect(leaderboard).toContain("$600,000");
    const owner = {
      userId: t.owner.id as UserId,
      team: {
        teamId: t.teamId,
        teamName: "Harbour Shared Realty",
        role: "owner" as const,
        ownerId: t.owner.id as UserId,
        memberRecords: "shared" as const,
        requireTwoFactor: false,
      },
    };
    const rows = (await loadLeaderboard(requestContext(), owner, new URLSearchParams({ period: "this-month" }))).rows;
    expect(rows.find((r) => r.userId === t.agentA.id)).toMatchObject({ closedVolumeCents: 60_000_000, dealsWon: 1, netCents: 716_500 });
    expect(rows.find((r) => r.userId === t.agentB.id)).toMatchObject({ closedVolumeCents: 0, dealsWon: 0, netCents: 553_000 });
  });

  it("puts a co-agent's closed share in their agent net chart and Reports' Income, whose empty states read the same rows", async () => {
    const t = await team("Harbour Income Realty");
    const amara = await signInAs(t.agentA);
    const bea = await signInAs(t.agentB);
    // $500,000 at 3 %, closed today, 40 % of the side Bea's; neither has a plan, so nothing is taken: $6,000.00 is hers.
    const sale = deal(t.agentA.id, { title: "Quayside sale", dealValueCents: 50_000_000, closedDate: dayFromToday(0) });
    await db().insert(deals).values(sale);
    expect((await amara.post(`/deals/${sale.id}`, { intent: "share", agent: t.agentB.id, sharePct: "40" })).status).toBe(200);

    const dashboard = await loadDashboard(requestContext(), t.agentB.id as UserId);
    expect(dashboard.performance.months.at(-1)).toMatchObject({ deals: 0, sharedDeals: 1, volumeCents: 0, gciCents: 600_000, netCents: 600_000 });
    // The agent net chart is drawn, its table says why there is net without a deal of hers; closed volume has none.
    const page = await read(bea, "/dashboard");
    expect(page).toContain('data-chart="net"');
    expect(page).not.toContain('data-chart="volume"');
    expect(page).toContain(`<th scope="col">Shared with you</th>`);
    expect(page.split("No deals closed won in the last 12 months.")).toHaveLength(2);

    // Reports → Income: the month, the total and the CSV, with the share counted as a deal shared with her.
    const reports = await read(bea, "/reports?period=this-month");
    expect(reports).not.toContain("No deal closed won in this period");
    expect(reports).toContain('data-chart="Agent net by month"');
    const csv = (await (await bea.get("/reports/income.csv?period=this-month")).text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(csv[0]).toBe("Month,Deals closed,Shared with you,Closed volume (USD),GCI (USD),Agent net (USD)");
    expect(csv).toContain("Total,0,1,0,6000,6000");
    // Amara's own side: her deal and its volume, no column for shares she has none of.
    const hers = (await (await amara.get("/reports/income.csv?period=this-month")).text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(hers[0]).toBe("Month,Deals closed,Closed volume (USD),GCI (USD),Agent net (USD)");
    expect(hers).toContain("Total,1,500000,9000,9000");
  });

  it("is shared only by the deal's agent, with a teammate, within the side; bad input changes nothing", async () => {
    const t = await team("Quay Shared Realty");
    const other = await team("Pier Realty");
    const listing = deal(t.agentA.id, {
      title: "Quay listing",
      stage: "offer",
      probability: 60,
      dealValueCents: 50_000_000,
      expectedCloseDate: dayFromToday(20),
    });
    await db().insert(deals).values(listing);
    const amara = await signInAs(t.agentA);
    const share = (browser: TestBrowser, fields: Record<string, string>, id = listing.id) =>
      browser.post(`/deals/${id}`, { intent: "share", ...fields });

    // Anyone but the deal's agent: 404, as for any deal not theirs.
    for (const browser of [await signInAs(t.agentB), await signInAs(t.owner), await signInAs(other.agentA)]) {
      expect((await share(browser, { agent: t.agentB.id, sharePct: "40" })).status).toBe(404);
    }
    // Not a teammate, themselves, or a share outside (0, 100).
    for (const [fields, message] of [
      [{ agent: other.agentB.id, sharePct: "40" }, SHARE_MESSAGES.notTeammate],
      [{ agent: crypto.randomUUID(), sharePct: "40" }, SHARE_MESSAGES.notTeammate],
      [{ agent: t.agentA.id, sharePct: "40" }, SHARE_MESSAGES.notYourself],
      [{ agent: t.agentB.id, sharePct: "0" }, SHARE_MESSAGES.shareRange],
      [{ agent: t.agentB.id, sharePct: "100" }, SHARE_MESSAGES.shareRange],
      [{ agent: t.agentB.id, sharePct: "abc" }, "Share of the side is a percentage"],
      [{ agent: t.agentB.id, sharePct: "12.3456" }, "at most three decimals"],
      [{ agent: "", sharePct: "40" }, SHARE_MESSAGES.notTeammate],
    ] as const) {
      const response = await share(amara, fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(says(await response.text(), message), message).toBe(true);
    }
    expect(await sharesOf(listing.id)).toEqual([]);

    // The shares must leave the deal's agent part of the side.
    expect((await share(amara, { agent: t.agentB.id, sharePct: "60" })).status).toBe(200);
    const over = await share(amara, { agent: t.admin.id, sharePct: "40" });
    expect(over.status).toBe(400);
    expect(says(await over.text(), SHARE_MESSAGES.overHundred(39.999))).toBe(true);
    // Changing a co-agent's share replaces it.
    expect((await share(amara, { agent: t.agentB.id, sharePct: "25" })).status).toBe(200);
    expect((await share(amara, { agent: t.admin.id, sharePct: "40" })).status).toBe(200);
    expect((await sharesOf(listing.id)).map((s) => [s.agentId, s.sharePct]).sort()).toEqual(
      [
        [t.admin.id, 40],
        [t.agentB.id, 25],
      ].sort(),
    );

    // A Solo agent has no teammates to share with.
    const solo = await createUser(env.DB);
    const soloDeal = deal(solo.id, { title: "Solo listing", stage: "lead", probability: 10 });
    await db().insert(deals).values(soloDeal);
    const refused = await share(await signInAs(solo), { agent: t.agentB.id, sharePct: "40" }, soloDeal.id);
    expect(refused.status).toBe(400);
    expect(says(await refused.text(), SHARE_MESSAGES.teamOnly)).toBe(true);
    expect(await sharesOf(soloDeal.id)).toEqual([]);

    // Taking a co-agent off: only the deal's agent, only a co-agent that is on it.
    expect((await (await signInAs(t.agentB)).post(`/deals/${listing.id}`, { intent: "unshare", agent: t.agentB.id })).status).toBe(404);
    expect((await amara.post(`/deals/${listing.id}`, { intent: "unshare", agent: other.agentA.id })).status).toBe(404);
    expect((await amara.post(`/deals/${listing.id}`, { intent: "unshare", agent: t.admin.id })).status).toBe(200);
    expect((await sharesOf(listing.id)).map((s) => s.agentId)).toEqual([t.agentB.id]);
  });

  it("lets a co-agent see and move the deal on the team pipeline, and no more", async () => {
    const t = await team("Dock Shared Realty");
    const listing = deal(t.agentA.id, {
      title: "Dock listing",
      stage: "showing",
      probability: 40,
      dealValueCents: 40_000_000,
      expectedCloseDate: dayFromToday(15),
    });
    const unshared = deal(t.agentA.id, {
      title: "Amara's private deal",
      stage: "showing",
      probability: 40,
      dealValueCents: 30_000_000,
      expectedCloseDate: dayFromToday(15),
    });
    await db().insert(deals).values([listing, unshared]);
    const amara = await signInAs(t.agentA);
    expect((await amara.post(`/deals/${listing.id}`, { intent: "share", agent: t.agentB.id, sharePct: "50" })).status).toBe(200);

    const bea = await signInAs(t.agentB);
    const list = await read(bea, "/team/pipeline?view=list");
    expect(list).toContain("Dock listing");
    expect(list).toContain("Your net (50% share)");
    // $400,000 at 3 % = $12,000.00; her half $6,000.00, no plan of her own: $6,000.00.
    expect(list).toContain("$6,000.00");
    expect(list).not.toContain("Amara&#x27;s private deal");
    // The deal's own page stays its agent's.
    expect((await bea.fetch(`/deals/${listing.id}`)).status).toBe(404);

    // She moves the shared deal; the move is on Amara's timeline with her name.
    expect((await bea.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: listing.id, stage: "offer" })).status).toBe(200);
    expect((await db().select({ stage: deals.stage }).from(deals).where(eq(deals.id, listing.id)).get())?.stage).toBe("offer");
    const moved = await db()
      .select({ meta: crmActivities.meta, userId: crmActivities.userId })
      .from(crmActivities)
      .where(and(eq(crmActivities.dealId, listing.id), eq(crmActivities.type, "stage_change")))
      .get();
    expect(moved).toMatchObject({ userId: t.agentA.id, meta: { by: "Bea Agent" } });
    // Not the one Amara did not share, nor as someone else's.
    expect((await bea.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: unshared.id, stage: "offer" })).status).toBe(404);
    expect((await bea.post("/team/pipeline", { intent: "move", agent: t.owner.id, id: listing.id, stage: "lead" })).status).toBe(404);
    expect((await db().select({ stage: deals.stage }).from(deals).where(eq(deals.id, unshared.id)).get())?.stage).toBe("showing");
    expect((await db().select({ stage: deals.stage }).from(deals).where(eq(deals.id, listing.id)).get())?.stage).toBe("offer");

    // A teammate who is not a co-agent sees nothing of it on their own Pipeline or team pipeline list.
    const admin = await signInAs(t.admin);
    expect(await read(admin, "/pipeline")).not.toContain("Dock listing");
    expect(await read(await signInAs(t.owner), "/pipeline")).not.toContain("Shared with you");
    // An owner sees the deal under Amara with Amara's half.
    const ownerList = await read(await signInAs(t.owner), "/team/pipeline?view=list");
    expect(ownerList).toContain("Dock listing");
    expect(ownerList).not.toContain("Your net (50% share)");
  });

  it("ends with the co-agent's membership: the side goes back to the deal's agent", async () => {
    const t = await team("Wharf Shared Realty");
    const sale = deal(t.agentA.id, {
      title: "Wharf sale",
      stage: "offer",
      probability: 60,
      dealValueCents: 40_000_000,
      expectedCloseDate: dayFromToday(10),
    });
    await db().insert(deals).values(sale);
    const amara = await signInAs(t.agentA);
    expect((await amara.post(`/deals/${sale.id}`, { intent: "share", agent: t.agentB.id, sharePct: "25" })).status).toBe(200);
    expect(await read(amara, "/pipeline")).toContain("Agent net $9,000.00");
    expect((await (await signInAs(t.owner)).post("/team", { intent: "remove", confirm: "yes", memberId: t.agentB.id })).status).toBe(302);
    expect(await sharesOf(sale.id)).toEqual([]);
    expect(await read(amara, "/pipeline")).toContain("Agent net $12,000.00");
  });
});
