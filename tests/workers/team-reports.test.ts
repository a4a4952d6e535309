import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { commissionPlans, contacts, crmActivities, deals, userPreferences } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { parseCsv } from "~/modules/contacts/csv";
import { leadsArrived, teamLeadDeals, teamLeadsArrived, teamLoggedByType } from "~/modules/reports/figures.server";
import { csvRows, type ReportTable } from "~/modules/reports/table";
import { leaderboardTable, loadLeaderboard } from "~/modules/team/leaderboard.server";
import { loadTeamReports } from "~/modules/team/team-reports.server";
import { getMembership } from "~/modules/team/team.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { deal, team } from "../factories/teams";
import { createUser } from "../factories/users";

// Team reports (ADR 0077) and the leaderboard's totals: every figure hand-worked for a seeded team over a fixed
// period (1–15 June 2026 in New York, asked for as a custom range so it holds on any date).

const db = () => createDb(env.DB);
const id = () => crypto.randomUUID();
const at = (iso: string) => new Date(iso);
const PERIOD = "period=custom&from=2026-06-01&to=2026-06-15";
const now = at("2026-06-15T16:00:00Z");

/** A CSV download read back into rows (header first), as a spreadsheet would. */
async function fileRows(response: Response): Promise<string[][]> {
  const { headers, rows } = parseCsv((await response.text()).replace(/^\uFEFF/, ""));
  return [headers, ...rows];
}

/** A table's rows (and footer) as the CSV holds them: plain values, keyed by column heading. */
const valuesOf = (table: ReportTable) => {
  const [header, ...rows] = csvRows(table);
  return rows.map((row) => Object.fromEntries(row.map((v, i) => [header![i]!, v])));
};

async function seeded() {
  const t = await team("Fixed Figures Realty");
  const lead = (userId: string, source: string, leadAt: string) => ({
    id: id(),
    userId,
    name: `Lead ${source}`,
    source: source as "zillow",
    createdAt: at(leadAt),
    leadAt: at(leadAt),
  });
  // Amara (USD, 20% split): two Zillow leads answered in 3 and 20 minutes, a website lead still waiting, and a May lead.
  const z1 = lead(t.agentA.id, "zillow", "2026-06-02T14:00:00Z");
  const z2 = lead(t.agentA.id, "zillow", "2026-06-03T14:00:00Z");
  const w1 = lead(t.agentA.id, "website", "2026-06-04T14:00:00Z");
  const may = lead(t.agentA.id, "zillow", "2026-05-20T14:00:00Z");
  // Bea works in EUR: a referral answered in 2 minutes. The owner: a website lead answered by e-mail in 10 minutes.
  const r1 = lead(t.agentB.id, "referral", "2026-06-05T14:00:00Z");
  const w2 = lead(t.owner.id, "website", "2026-06-06T14:00:00Z");
  await db().insert(contacts).values([z1, z2, w1, may, r1, w2]);
  await db().batch([
    db().update(userPreferences).set({ currency: "EUR" }).where(eq(userPreferences.userId, t.agentB.id)),
    db().insert(commissionPlans).values({ userId: t.agentA.id, brokerageSplitPct: 20 }),
    db()
      .insert(crmActivities)
      .values([
        { id: id(), userId: t.agentA.id, contactId: z1.id, type: "call", occurredAt: at("2026-06-02T14:03:00Z") },
        { id: id(), userId: t.agentA.id, contactId: z2.id, type: "text", occurredAt: at("2026-06-03T14:20:00Z") },
        { id: id(), userId: t.agentA.id, contactId: w1.id, type: "note", occurredAt: at("2026-06-04T15:00:00Z") },
        { id: id(), userId: t.agentA.id, contactId: may.id, type: "call", occurredAt: at("2026-05-20T15:00:00Z") },
        { id: id(), userId: t.agentA.id, contactId: z1.id, type: "stage_change", occurredAt: at("2026-06-10T15:00:00Z") },
        { id: id(), userId: t.agentB.id, contactId: r1.id, type: "call", occurredAt: at("2026-06-05T14:02:00Z") },
        { id: id(), userId: t.owner.id, contactId: w2.id, type: "email_sent", occurredAt: at("2026-06-06T14:10:00Z") },
      ]),
    // Amara: $300,000 won from a Zillow lead (3%: $9,000 gross, 20% split: $7,200 net) and a deal lost, both in June.
    db()
      .insert(deals)
      .values([
        deal(t.agentA.id, { contactId: z1.id, dealValueCents: 30_000_000, closedDate: "2026-06-10", stageChangedAt: at("2026-06-10T15:00:00Z") }),
        deal(t.agentA.id, { contactId: z2.id, stage: "closed_lost", probability: 0, stageChangedAt: at("2026-06-11T15:00:00Z") }),
        // Bea: €200,000 won from her referral (3%, no plan: €6,000 net).
        deal(t.agentB.id, { contactId: r1.id, dealValueCents: 20_000_000, closedDate: "2026-06-12", stageChangedAt: at("2026-06-12T15:00:00Z") }),
      ]),
  ]);
  return t;
}

async function reportsFor(userId: string) {
  const context = requestContext();
  const membership = (await getMembership(context, userId as UserId))!;
  return loadTeamReports(context, { userId: userId as UserId, team: membership }, new URLSearchParams(PERIOD), now);
}

const LEFT_OUT = "Team total (amounts in USD only; 1 member in another currency left out)";

describe("Team reports", () => {
  it("gives each agent's leads, speed to lead, activities by kind, conversion, closed volume and net, and the team's totals", async () => {
    const t = await seeded();
    const r = await reportsFor(t.owner.id);
    expect(r.period).toMatchObject({ from: "2026-06-01", to: "2026-06-15" });
    expect(r.agents.columns.map((c) => c.label)).toEqual([
      "Agent",
      "Currency",
      "Leads",
      "Answered",
      "Speed to lead (median)",
      "Within 5 minutes",
      "Call",
      "E-mail sent",
      "Text message",
      "Note",
      "Activities",
      "Entered won",
      "Entered lost",
      "Win rate",
      "Deals closed",
      "Closed volume",
      "Agent net",
    ]);
    const row = (values: (string | number)[]) => values.map((v) => String(v));
    expect(csvRows(r.agents).slice(1)).toEqual([
      row(["Ada Admin", "USD", 0, 0, "", "", 0, 0, 0, 0, 0, 0, 0, "", 0, 0, 0]),
      row(["Amara Agent", "USD", 3, 2, 3, 33, 1, 0, 1, 1, 3, 1, 1, 50, 1, 300000, 7200]),
      row(["Bea Agent", "EUR", 1, 1, 2, 100, 1, 0, 0, 0, 1, 1, 0, 100, 1, 200000, 6000]),
      row(["Olu Okafor", "USD", 1, 1, 10, 0, 0, 1, 0, 0, 1, 0, 0, "", 0, 0, 0]),
      // The median over all four answers (2, 3, 10, 20 min: the lower middle), not a median of medians; amounts in USD only.
      row([LEFT_OUT, "USD", 5, 4, 3, 40, 2, 1, 1, 1, 5, 2, 1, 67, 2, 300000, 7200]),
    ]);
    expect(r.leftOut).toEqual([{ name: "Bea Agent", currency: "EUR" }]);
  });

  it("gives each source's leads, speed to lead and the deals won from those leads, their volume only in the viewer's currency", async () => {
    const t = await seeded();
    const r = await reportsFor(t.admin.id);
    expect(valuesOf(r.sources)).toEqual([
      {
        Source: "Website",
        Leads: "2",
        Answered: "1",
        "Speed to lead (median) (minutes)": "10",
        "Within 5 minutes (%)": "0",
        "Deals won": "0",
        "Their volume (USD)": "0",
      },
      {
        Source: "Referral",
        Leads: "1",
        Answered: "1",
        "Speed to lead (median) (minutes)": "2",
        "Within 5 minutes (%)": "100",
        "Deals won": "1",
        "Their volume (USD)": "0",
      },
      {
        Source: "Zillow",
        Leads: "2",
        Answered: "2",
        "Speed to lead (median) (minutes)": "3",
        "Within 5 minutes (%)": "50",
        "Deals won": "1",
        "Their volume (USD)": "300000",
      },
      {
        Source: LEFT_OUT,
        Leads: "5",
        Answered: "4",
        "Speed to lead (median) (minutes)": "3",
        "Within 5 minutes (%)": "40",
        "Deals won": "2",
        "Their volume (USD)": "300000",
      },
    ]);
  });

  it("totals the amounts in the viewer's own currency: a EUR viewer adds only the EUR member's", async () => {
    const t = await seeded();
    await db().update(userPreferences).set({ currency: "EUR" }).where(eq(userPreferences.userId, t.admin.id));
    const r = await reportsFor(t.admin.id);
    const total = valuesOf(r.agents).at(-1)!;
    expect(total).toMatchObject({
      Agent: "Team total (amounts in EUR only; 2 members in another currency left out)",
      Currency: "EUR",
      "Closed volume": "200000",
      "Agent net": "6000",
      "Deals closed": "2",
    });
    expect(valuesOf(r.sources).at(-1)!["Their volume (EUR)"]).toBe("200000");
  });

  it("serves the page and CSV files with the same rows to the owner and admins; 404 to agents, another team and Solo", async () => {
    const t = await seeded();
    const admin = await signInAs(t.admin);
    const page = await admin.page(`/team/reports?${PERIOD}`);
    expect(page).toContain("Team reports");
    expect(page).toContain("Amara Agent");
    expect(page).toContain(LEFT_OUT);
    const expected = await reportsFor(t.admin.id);
    for (const table of [expected.agents, expected.sources]) {
      const response = await admin.get(`/team/reports/${table.id}.csv?${PERIOD}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="porchlight-team-${table.id}-2026-06-01-to-2026-06-15.csv"`);
      expect(await fileRows(response)).toEqual(csvRows(table));
      // The page shows every row's name and each total.
      for (const row of [...table.rows, { cells: table.total! }]) expect(page).toContain(row.cells[0]!.text);
    }
    expect((await admin.get(`/team/reports/nothing.csv?${PERIOD}`)).status).toBe(404);

    const agent = await signInAs(t.agentA);
    expect((await agent.get(`/team/reports?${PERIOD}`)).status).toBe(404);
    expect((await agent.get(`/team/reports/agents.csv?${PERIOD}`)).status).toBe(404);
    const other = await team("Elsewhere Realty");
    const otherOwner = await signInAs(other.owner);
    const otherPage = await otherOwner.page(`/team/reports?${PERIOD}`);
    expect(otherPage).toContain("Elsewhere Realty");
    expect(otherPage).not.toContain("Fixed Figures Realty");
    expect(otherPage).not.toContain(LEFT_OUT);
    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.get(`/team/reports?${PERIOD}`)).status).toBe(404);
    expect((await solo.get(`/team/reports/agents.csv?${PERIOD}`)).status).toBe(404);
    // The team page links managers to it, not agents.
    expect(await admin.page("/team")).toContain('href="/team/reports"');
    expect(await agent.page("/team")).not.toContain('href="/team/reports"');
  });

  it("reads the team's figures with grouped statements that seek the existing indexes", async () => {
    const ids = [id(), id()] as UserId[];
    const range = { lo: now.getTime() - 86_400_000, hi: now.getTime() };
    const plan = async (query: { toSQL(): { sql: string; params: unknown[] } }) => {
      const { sql, params } = query.toSQL();
      const rows = await env.DB.prepare(`explain query plan ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return rows.results.map((r) => r.detail);
    };
    // Counts from lead_source_days and response times from the answered leads: a seek per agent and source, read in
    // group order, so nothing is sorted but the two edge days' few leads.
    const countsSeek = "lead_source_days USING INDEX lead_source_days_pk (user_id=? AND source=? AND day>? AND day<?)";
    const answeredSeek = "contacts USING COVERING INDEX contacts_user_answered_lead (user_id=? AND source=? AND lead_at>? AND lead_at<?)";
    const edgeSeek = "contacts USING COVERING INDEX contacts_user_lead (user_id=? AND lead_at>? AND lead_at<?)";
    const week = { lo: now.getTime() - 7 * 86_400_000 - 3_600_000, hi: now.getTime() };
    const statements = teamLeadsArrived(db(), ids, week);
    expect(statements).toHaveLength(1);
    const leadsPlan = await plan(statements[0]!);
    for (const seek of [countsSeek, answeredSeek, edgeSeek]) expect(leadsPlan.some((d) => d.includes(seek))).toBe(true);
    // Only the edges' VALUES rows are scanned (two rows), each a seek into contacts_user_lead.
    expect(leadsPlan.filter((d) => d.startsWith("SCAN") && !d.includes("VALUES CLAUSE"))).toEqual([]);
    expect(leadsPlan.filter((d) => d.includes("TEMP B-TREE"))).toHaveLength(1);
    // The agent's own Reports: the same seeks over both its periods at once.
    const ownPlan = await plan(leadsArrived(db(), ids[0]!, [week, { lo: week.lo - 7 * 86_400_000, hi: week.lo }]));
    for (const seek of [countsSeek, answeredSeek, edgeSeek]) expect(ownPlan.some((d) => d.includes(seek))).toBe(true);
    // A team too large for one statement's parameters is read in several.
    expect(
      teamLeadsArrived(
        db(),
        Array.from({ length: 60 }, () => id() as UserId),
        range,
      ).length,
    ).toBeGreaterThan(1);
    // Won deals by their agents' ids and stage, each one's contact by its key: an open deal's contact is never read.
    const dealsPlan = await plan(teamLeadDeals(db(), ids, range, ["closed_won", "sold"]));
    expect(dealsPlan.filter((d) => d.startsWith("SEARCH")).length).toBe(2);
    expect(dealsPlan.join("\n")).toMatch(/deals USING (COVERING )?INDEX deals_user_stage_position \(user_id=\? AND stage=\?\)/);
    const logged = await plan(teamLoggedByType(db(), ids, range));
    expect(logged.join("\n")).toMatch(/crm_activities_user_type_time \(user_id=\? AND type=\? AND occurred_at>\? AND occurred_at<\?\)/);
    expect([...dealsPlan, ...logged].filter((d) => d.startsWith("SCAN"))).toEqual([]);
  });
});

describe("the leaderboard's totals and CSV", () => {
  it("adds up the columns that add up, in the viewer's currency, and the CSV has the page's rows", async () => {
    const t = await seeded();
    const context = requestContext();
    const membership = (await getMembership(context, t.owner.id as UserId))!;
    const board = await loadLeaderboard(context, { userId: t.owner.id as UserId, team: membership }, new URLSearchParams(PERIOD), now);
    expect(board.total).toEqual({
      label: LEFT_OUT,
      currency: "USD",
      closedVolumeCents: 30_000_000,
      dealsWon: 2,
      netCents: 720_000,
      medianResponseMinutes: 3,
      answered: 4,
      activities: 5,
      leftOut: 1,
    });
    const owner = await signInAs(t.owner);
    const page = await owner.page(`/team/leaderboard?${PERIOD}`);
    expect(page).toContain(LEFT_OUT);
    expect(page).toContain('href="/team/reports?period=custom');
    const csv = await owner.get(`/team/leaderboard.csv?${PERIOD}`);
    expect(csv.status).toBe(200);
    const rows = await fileRows(csv);
    expect(rows).toEqual(csvRows(leaderboardTable(board)));
    expect(rows.slice(1).map((r) => r[1])).toEqual([...board.rows.map((r) => r.name), LEFT_OUT]);
    expect(rows.at(-1)).toEqual(["", LEFT_OUT, "USD", "300000", "2", "7200", "3", "4", "5"]);
    // An agent's CSV keeps others' net private, as their page does, and has no link to Team reports.
    const agent = await signInAs(t.agentB);
    const agentRows = await fileRows(await agent.get(`/team/leaderboard.csv?${PERIOD}`));
    expect(agentRows.find((r) => r[1] === "Amara Agent")![5]).toBe("Private");
    expect(agentRows.find((r) => r[1] === "Bea Agent")![5]).toBe("6000");
    expect(agentRows.at(-1)![5]).toBe("Private");
    expect(await agent.page(`/team/leaderboard?${PERIOD}`)).not.toContain('href="/team/reports');
  });
});
