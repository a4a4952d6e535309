import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { crmActivities, crmConfig, dealShares, deals, userPreferences } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { DEFAULT_STAGES } from "~/modules/pipeline/stages";
import { loadTeamBoard, teamColumnOf } from "~/modules/team/team-board.server";
import { getMembership, listMembers } from "~/modules/team/team.server";
import { visibleMembers } from "~/modules/team/visibility.server";
import { requestContext } from "../factories/context";
import { signInAs } from "../factories/browser";
import { deal, team } from "../factories/teams";

// The team board (ADR 0076): every deal the viewer may see in one kanban, in the team's stages (the owner's), with
// totals, each card naming its agent and co-agents; moves go through the team pipeline's rule.

const db = () => createDb(env.DB);

async function seeded() {
  const t = await team("Board Realty");
  const ids = { a1: crypto.randomUUID(), a2: crypto.randomUUID(), b1: crypto.randomUUID(), own: crypto.randomUUID(), won: crypto.randomUUID() };
  // Bea has a stage of her own ("Appointment", open, 55%) between Showing (40) and Offer (60): it sits under Offer.
  const beaStages = [
    ...DEFAULT_STAGES.slice(0, 3),
    { key: "appointment", name: "Appointment", color: "#123456", probability: 55, kind: "open" as const },
    ...DEFAULT_STAGES.slice(3),
  ];
  await db().batch([
    db().insert(crmConfig).values({ userId: t.agentB.id, dealStages: beaStages }),
    db()
      .insert(deals)
      .values([
        deal(t.agentA.id, { id: ids.a1, title: "Amara's offer", stage: "offer", probability: 60, dealValueCents: 50_000_000, closedDate: null }),
        deal(t.agentA.id, { id: ids.a2, title: "Amara's showing", stage: "showing", probability: 40, dealValueCents: 30_000_000, closedDate: null }),
        deal(t.agentB.id, {
          id: ids.b1,
          title: "Bea's appointment",
          stage: "appointment",
          probability: 55,
          dealValueCents: 20_000_000,
          closedDate: null,
        }),
        deal(t.owner.id, { id: ids.own, title: "Olu's offer", stage: "offer", probability: 50, dealValueCents: 10_000_000, closedDate: null }),
        deal(t.agentA.id, { id: ids.won, title: "Amara's close", dealValueCents: 40_000_000, closedDate: "2026-10-01" }),
      ]),
    db().insert(dealShares).values({ dealId: ids.a1, ownerId: t.agentA.id, agentId: t.agentB.id, sharePct: 50 }),
  ]);
  return { t, ids };
}

async function boardFor(userId: string) {
  const context = requestContext();
  const membership = (await getMembership(context, userId as UserId))!;
  const viewer = { userId: userId as UserId, team: membership };
  return loadTeamBoard(context, viewer, await visibleMembers(context, viewer), null);
}

describe("the team board", () => {
  it("places an agent's own stage by kind, else by the nearest open probability", () => {
    const columns = DEFAULT_STAGES.map((s) => ({ ...s }));
    expect(teamColumnOf(columns, { key: "offer", name: "Offer", color: "#000000", probability: 0, kind: "open" })).toBe("offer");
    expect(teamColumnOf(columns, { key: "sold", name: "Sold", color: "#000000", probability: 100, kind: "won" })).toBe("closed_won");
    expect(teamColumnOf(columns, { key: "dead", name: "Dead", color: "#000000", probability: 0, kind: "lost" })).toBe("closed_lost");
    expect(teamColumnOf(columns, { key: "appt", name: "Appt", color: "#000000", probability: 55, kind: "open" })).toBe("offer");
    expect(teamColumnOf(columns, { key: "nurture", name: "Nurture", color: "#000000", probability: 5, kind: "open" })).toBe("lead");
  });

  it("shows a manager every member's deals in the team's stages with exact totals, agents and co-agents", async () => {
    const { t, ids } = await seeded();
    const board = await boardFor(t.admin.id);
    expect(board.stages.map((s) => s.key)).toEqual(DEFAULT_STAGES.map((s) => s.key));
    // Offer: Amara's $500,000 at 60%, Olu's $100,000 at 50%, Bea's Appointment $200,000 at 55%.
    expect(board.totals.offer).toEqual({ count: 3, valueCents: 80_000_000, weightedCents: 30_000_000 + 5_000_000 + 11_000_000 });
    expect(board.totals.showing).toEqual({ count: 1, valueCents: 30_000_000, weightedCents: 12_000_000 });
    expect(board.totals.closed_won).toEqual({ count: 1, valueCents: 40_000_000, weightedCents: 40_000_000 });
    const card = (id: string) => board.cards.find((c) => c.id === id);
    expect(card(ids.a1)).toMatchObject({ stage: "offer", agentName: "Amara Agent", coAgents: ["Bea Agent"], stageLabel: null });
    expect(card(ids.b1)).toMatchObject({ stage: "offer", agentName: "Bea Agent", stageLabel: "Appointment" });
    expect(card(ids.own)).toMatchObject({ stage: "offer", agentName: "Olu Okafor" });
    expect(board.otherCurrency).toBe(0);
  });

  it("shows an agent their own deals and those shared with them, nobody else's", async () => {
    const { t, ids } = await seeded();
    const board = await boardFor(t.agentB.id);
    expect(board.cards.map((c) => c.id).sort()).toEqual([ids.a1, ids.b1].sort());
    expect(board.cards.find((c) => c.id === ids.a1)).toMatchObject({ agentName: "Amara Agent", coAgents: ["you"] });
    expect(board.totals.offer?.count).toBe(2);
    expect(board.totals.showing?.count).toBe(0);
  });

  it("shows a column's first 20 cards across the agents, soonest close first and undated last; won by latest close", async () => {
    const { t } = await seeded();
    // 25 more showings between Amara and Bea (every fifth without a date), and 3 more closed deals.
    const day = (n: number) => `2027-01-${String(n).padStart(2, "0")}`;
    const tag = crypto.randomUUID().slice(0, 8);
    const showings = Array.from({ length: 25 }, (_, n) =>
      deal(n % 2 === 0 ? t.agentA.id : t.agentB.id, {
        id: `${tag}-show-${String(n).padStart(2, "0")}`,
        title: `Showing ${n}`,
        stage: "showing",
        expectedCloseDate: n % 5 === 4 ? null : day(28 - n),
        closedDate: null,
      }),
    );
    const closed = [3, 1, 2].map((n) => deal(t.agentB.id, { id: `${tag}-won-${n}`, title: `Won ${n}`, closedDate: `2026-11-0${n}` }));
    // One row a statement: D1 binds at most 100 parameters.
    const rows = [...showings, ...closed].map((row) => db().insert(deals).values(row));
    await db().batch(rows as [(typeof rows)[number], ...(typeof rows)[number][]]);
    const board = await boardFor(t.owner.id);
    const column = (stage: string) => board.cards.filter((c) => c.stage === stage).map((c) => c.id);
    // Amara's own showing (no date, from the seed) and the 25: the 20 dated ones by date (then id), no undated one.
    const dated = showings.filter((d) => d.expectedCloseDate).sort((a, b) => (a.expectedCloseDate! < b.expectedCloseDate! ? -1 : 1));
    expect(column("showing")).toEqual(dated.map((d) => d.id).slice(0, 20));
    expect(board.totals.showing?.count).toBe(26);
    expect(column("closed_won").slice(0, 3)).toEqual([`${tag}-won-3`, `${tag}-won-2`, `${tag}-won-1`]);
    // Every card names its agent and contact as before the cards were picked by id.
    expect(board.cards.find((c) => c.id === `${tag}-show-01`)).toMatchObject({ agentName: "Bea Agent", title: "Showing 1" });
  });

  it("adds only the board's currency into the totals and says how many it left out", async () => {
    const { t } = await seeded();
    await db().update(userPreferences).set({ currency: "EUR" }).where(eq(userPreferences.userId, t.agentB.id));
    const board = await boardFor(t.owner.id);
    expect(board.totals.offer).toEqual({ count: 3, valueCents: 60_000_000, weightedCents: 35_000_000 });
    expect(board.otherCurrency).toBe(1);
    expect(board.cards.find((c) => c.agentId === t.agentB.id)?.currency).toBe("EUR");
  });

  it("renders the board for a manager with its cards, and moves only what the viewer may move", async () => {
    const { t, ids } = await seeded();
    const admin = await signInAs(t.admin);
    const html = await admin.page("/team/pipeline");
    expect(html).toContain("The team&#x27;s board");
    expect(html).toContain(">Amara Agent · with Bea Agent<");
    expect(html).toContain(">Their stage: Appointment<");
    // The admin moves Amara's showing to Offer: her deal, her stage, named on her timeline.
    const moved = await admin.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: ids.a2, stage: "offer", afterId: "", beforeId: "" });
    expect(moved.status).toBe(200);
    expect((await db().select().from(deals).where(eq(deals.id, ids.a2)).get())?.stage).toBe("offer");
    const change = await db()
      .select()
      .from(crmActivities)
      .where(and(eq(crmActivities.dealId, ids.a2), eq(crmActivities.type, "stage_change")))
      .get();
    expect(change?.meta).toMatchObject({ to: "offer", by: "Ada Admin" });
    // A column Amara's pipeline lacks is refused with a sentence, nothing changed.
    const refused = await admin.post("/team/pipeline", {
      intent: "move",
      agent: t.agentA.id,
      id: ids.a2,
      stage: "appointment",
      afterId: "",
      beforeId: "",
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(String.raw`\"Amara Agent's pipeline has no such stage. Move it on their own board.\"`);
    // An agent moves neither a teammate's unshared deal nor the owner's.
    const bea = await signInAs(t.agentB);
    expect(
      (await bea.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: ids.a2, stage: "showing", afterId: "", beforeId: "" })).status,
    ).toBe(404);
    expect(
      (await bea.post("/team/pipeline", { intent: "move", agent: t.owner.id, id: ids.own, stage: "showing", afterId: "", beforeId: "" })).status,
    ).toBe(404);
    expect((await db().select().from(deals).where(eq(deals.id, ids.a2)).get())?.stage).toBe("offer");
    // Another team's owner sees none of it.
    const other = await team("Other Board Realty");
    const outsider = await signInAs(other.owner);
    expect(await outsider.page("/team/pipeline")).not.toContain("Amara&#x27;s offer");
    expect(
      (await outsider.post("/team/pipeline", { intent: "move", agent: t.agentA.id, id: ids.a1, stage: "showing", afterId: "", beforeId: "" })).status,
    ).toBe(404);
    expect(await listMembers(requestContext(), t.teamId)).toHaveLength(4);
  });
});
