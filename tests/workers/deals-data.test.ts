import { env } from "cloudflare:workers";
import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import { describe, expect, it } from "vitest";
import type { UserId } from "~/modules/auth/session.server";
import { loadCommissionContext, loadForecast } from "~/modules/commissions/commissions.server";
import { savePlan, getPlan } from "~/modules/commissions/plans.server";
import { createContact, trashContacts } from "~/modules/contacts/contacts.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { DealInputSchema } from "~/modules/deals/deal.schema";
import {
  boardCards,
  columnTotals,
  createDeal,
  dealsForContact,
  deleteDeal,
  getDeal,
  listDeals,
  moveDeal,
  stageHistory,
  updateDeal,
} from "~/modules/deals/deals.server";
import { DEFAULT_STAGES } from "~/modules/pipeline/stages";
import { dealCountsByStage, getStages, saveStages } from "~/modules/pipeline/stages.server";
import { atInstant, dayFromToday, shiftDay } from "../factories/dates";
import { restoreFromTrash } from "~/modules/trash/trash.server";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { createUser } from "../factories/users";

const owner = async () => (await createUser(env.DB)).id as UserId;
const ok = <T extends { ok: boolean }>(result: T) => {
  if (!result.ok) throw new Error(`expected success: ${JSON.stringify(result)}`);
  return result as Extract<T, { ok: true }>;
};
const move = (stage: string, extra: Record<string, string | null> = {}) => ({ stage, afterId: null, beforeId: null, lostReason: null, ...extra });

describe("deal input", () => {
  it("parses money to cents exactly and refuses what is not a deal", () => {
    expect(dealInput({ dealValueCents: "$650,000.50" }).dealValueCents).toBe(65_000_050);
    expect(dealInput({ commissionRate: "2.125" }).commissionRate).toBe(2.125);
    expect(dealInput({ commissionRate: "", probability: "" })).toMatchObject({ commissionRate: null, probability: null });
    const bad = DealInputSchema.safeParse({
      title: " ",
      stage: "lead",
      dealValueCents: "6,50",
      commissionRate: "2.1234",
      probability: "101",
      expectedCloseDate: "2026-02-30",
    });
    expect(bad.success).toBe(false);
    const messages = Object.fromEntries(bad.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(messages).toEqual({
      title: "Give the deal a title.",
      dealValueCents: "Enter the deal value (the sale price), e.g. 650,000.",
      commissionRate: "Commission rate can have at most three decimals.",
      probability: "Probability is a whole number from 0 to 100.",
      expectedCloseDate: "Expected close date must be a real date.",
    });
  });
});

describe("deals", () => {
  it("take the plan's rate and the stage's probability unless given, and belong to one contact of the owner", async () => {
    const userId = await owner();
    const ctx = requestContext();
    ok(
      await savePlan(ctx, userId, {
        defaultRate: "2.5",
        referralFeePct: "",
        brokerageSplitPct: "30",
        brokerageCapCents: "",
        capYearStart: "01-01",
        teamSplitPct: "",
        transactionFeeCents: "395",
        eoFeeCents: "",
        franchiseFeePct: "",
      }),
    );
    const contact = await createContact(ctx, userId, ContactInputSchema.parse({ name: "Dana Buyer", email: "dana@example.com" }));
    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: contact.id, stage: "showing" }))).deal;
    expect(deal).toMatchObject({ commissionRate: 2.5, probability: 40, probabilitySet: false, closedDate: null, dealValueCents: 50_000_000 });
    const chosen = ok(await createDeal(ctx, userId, dealInput({ stage: "showing", probability: "75", commissionRate: "3" }))).deal;
    expect(chosen).toMatchObject({ commissionRate: 3, probability: 75, probabilitySet: true });
    expect((await getDeal(ctx, userId, deal.id))?.contactName).toBe("Dana Buyer");
    expect((await dealsForContact(ctx, userId, contact.id)).map((d) => d.id)).toEqual([deal.id]);
    // Unknown stage or a contact that is not yours: refused with the field's message, nothing written.
    expect(await createDeal(ctx, userId, dealInput({ stage: "nope" }))).toMatchObject({
      ok: false,
      fieldErrors: { stage: "That stage no longer exists. Choose another." },
    });
    const stranger = await owner();
    const theirs = await createContact(ctx, stranger, ContactInputSchema.parse({ name: "Not Yours", phone: "1" }));
    expect(await createDeal(ctx, userId, dealInput({ contactId: theirs.id }))).toMatchObject({
      ok: false,
      fieldErrors: { contactId: "That contact was not found. Pick one from the list." },
    });
    expect((await listDeals(ctx, userId, {})).total).toBe(2);
  });

  it("moving sets the stage's probability unless chosen, dates a close, needs a lost reason, and is recorded", async () => {
    const userId = await owner();
    const ctx = requestContext({});
    const a = ok(await createDeal(ctx, userId, dealInput({ title: "A" }))).deal;
    const b = ok(await createDeal(ctx, userId, dealInput({ title: "B", probability: "33" }))).deal;
    expect(ok(await moveDeal(ctx, userId, a.id, move("offer"))).deal).toMatchObject({ stage: "offer", probability: 60 });
    expect(ok(await moveDeal(ctx, userId, b.id, move("offer"))).deal).toMatchObject({ stage: "offer", probability: 33 });
    expect(await moveDeal(ctx, userId, a.id, move("closed_lost"))).toMatchObject({
      ok: false,
      fieldErrors: { lostReason: "Say why the deal was lost." },
    });
    expect((await getDeal(ctx, userId, a.id))?.stage).toBe("offer");
    const lost = ok(await moveDeal(ctx, userId, a.id, move("closed_lost", { lostReason: "Buyer went with a cash offer" }))).deal;
    expect(lost).toMatchObject({ probability: 0, lostReason: "Buyer went with a cash offer" });
    expect(lost.closedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const reopened = ok(await moveDeal(ctx, userId, a.id, move("lead"))).deal;
    expect(reopened).toMatchObject({ closedDate: null, lostReason: null, probability: 10 });
    const history = await stageHistory(ctx, userId, a.id);
    expect(history.map((h) => [h.meta?.fromName, h.meta?.toName])).toEqual([
      ["Closed Lost", "Lead"],
      ["Offer", "Closed Lost"],
      ["Lead", "Offer"],
    ]);
    expect(history[1]!.meta?.lostReason).toBe("Buyer went with a cash offer");
  });

  it("a move into a closed stage takes the day it closed (today in the agent's timezone by default) and answers what an Undo puts back", async () => {
    for (const instant of [new Date().toISOString(), "2027-03-14T06:30:00Z", "2028-02-29T04:30:00Z", "2027-01-01T03:00:00Z"]) {
      await atInstant(instant, async () => {
        const userId = await owner();
        const ctx = requestContext();
        const today = dayFromToday(0);
        const deal = ok(
          await createDeal(ctx, userId, dealInput({ title: "Won", stage: "under_contract", expectedCloseDate: shiftDay(today, 30) })),
        ).deal;
        const other = ok(await createDeal(ctx, userId, dealInput({ title: "Other", stage: "under_contract" }))).deal;
        // No day given: today on the agent's calendar (New York), whatever the UTC day.
        const won = ok(await moveDeal(ctx, userId, deal.id, move("closed_won")));
        expect(won.deal, instant).toMatchObject({ stage: "closed_won", closedDate: today, expectedCloseDate: shiftDay(today, 30), probability: 100 });
        expect(won.from).toEqual({ stage: "under_contract", closedDate: null, lostReason: null });
        // The day the agent gave.
        const dated = ok(await moveDeal(ctx, userId, other.id, move("closed_won", { closedDate: shiftDay(today, -2) })));
        expect(dated.deal.closedDate).toBe(shiftDay(today, -2));
        // The Undo: back where it was, if nothing moved it since.
        const undone = ok(
          await moveDeal(ctx, userId, deal.id, move("under_contract", { fromStage: "closed_won", afterId: null, beforeId: other.id })),
        );
        expect(undone.deal).toMatchObject({ stage: "under_contract", closedDate: null, probability: 90 });
        expect(await moveDeal(ctx, userId, deal.id, move("lead", { fromStage: "closed_won" }))).toMatchObject({
          ok: false,
          status: 409,
          error: "The deal has moved since, so it stays where it is now.",
        });
        expect((await getDeal(ctx, userId, deal.id))?.stage).toBe("under_contract");
        // Lost, then won: the Undo puts the lost reason and its day back.
        ok(await moveDeal(ctx, userId, other.id, move("closed_lost", { lostReason: "Financing fell through", closedDate: shiftDay(today, -1) })));
        const rewon = ok(await moveDeal(ctx, userId, other.id, move("closed_won")));
        expect(rewon.from).toEqual({ stage: "closed_lost", closedDate: shiftDay(today, -1), lostReason: "Financing fell through" });
        ok(
          await moveDeal(ctx, userId, other.id, {
            ...move(rewon.from!.stage),
            closedDate: rewon.from!.closedDate,
            lostReason: rewon.from!.lostReason,
            fromStage: "closed_won",
          }),
        );
        expect(await getDeal(ctx, userId, other.id)).toMatchObject({
          stage: "closed_lost",
          closedDate: shiftDay(today, -1),
          lostReason: "Financing fell through",
        });
      });
    }
  });

  it("the list shows a closed deal by the day it closed: its close column, its month and its place in the close order", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const today = dayFromToday(0);
    const open = ok(await createDeal(ctx, userId, dealInput({ title: "Open", stage: "offer", expectedCloseDate: shiftDay(today, 40) }))).deal;
    const closed = ok(await createDeal(ctx, userId, dealInput({ title: "Closed", stage: "offer", expectedCloseDate: shiftDay(today, 90) }))).deal;
    ok(await moveDeal(ctx, userId, closed.id, move("closed_won", { closedDate: shiftDay(today, -5) })));
    expect((await listDeals(ctx, userId, {}, "close")).deals.map((d) => d.title)).toEqual(["Closed", "Open"]);
    expect((await listDeals(ctx, userId, { month: shiftDay(today, -5).slice(0, 7) })).deals.map((d) => d.id)).toContain(closed.id);
    expect((await listDeals(ctx, userId, { month: shiftDay(today, 90).slice(0, 7) })).deals.map((d) => d.id)).not.toContain(closed.id);
    expect(open.closedDate).toBeNull();
  });

  it("orders cards within a column by where they were dropped", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const ids: string[] = [];
    for (const title of ["One", "Two", "Three"]) ids.push(ok(await createDeal(ctx, userId, dealInput({ title }))).deal.id);
    const titles = async () => (await boardCards(ctx, userId)).filter((d) => d.stage === "lead").map((d) => d.title);
    expect(await titles()).toEqual(["One", "Two", "Three"]);
    // Three dropped above One: to the top. One dropped below Two: to the bottom.
    ok(await moveDeal(ctx, userId, ids[2]!, move("lead", { beforeId: ids[0]! })));
    expect(await titles()).toEqual(["Three", "One", "Two"]);
    ok(await moveDeal(ctx, userId, ids[0]!, move("lead", { afterId: ids[1]! })));
    expect(await titles()).toEqual(["Three", "Two", "One"]);
    // Neighbours named in reverse (a stale board) still land the card between them.
    ok(await moveDeal(ctx, userId, ids[2]!, move("lead", { afterId: ids[0]!, beforeId: ids[1]! })));
    expect(await titles()).toEqual(["Two", "Three", "One"]);
    // A neighbour in another stage does not count: with none left, the card goes to the end of the column.
    const elsewhere = ok(await createDeal(ctx, userId, dealInput({ title: "Elsewhere", stage: "offer" }))).deal;
    ok(await moveDeal(ctx, userId, ids[1]!, move("lead", { beforeId: elsewhere.id })));
    expect(await titles()).toEqual(["Three", "One", "Two"]);
  });

  it("totals each column and shows only the first cards of a long one", async () => {
    const userId = await owner();
    const ctx = requestContext();
    for (let i = 0; i < 15; i++)
      ok(await createDeal(ctx, userId, dealInput({ title: `Deal ${i}`, dealValueCents: "100000.01", stage: i < 14 ? "lead" : "offer" })));
    const totals = await columnTotals(ctx, userId);
    // 14 x $100,000.01 = $1,400,000.14; weighted at 10%: 14 x round(10,000,001 x 10 / 100) = 14 x 1,000,000 (each to the cent)
    expect(totals.lead).toEqual({ count: 14, valueCents: 140_000_014, weightedCents: 14 * 1_000_000 });
    expect(totals.offer).toEqual({ count: 1, valueCents: 10_000_001, weightedCents: 6_000_001 });
    const cards = await boardCards(ctx, userId);
    expect(cards.filter((d) => d.stage === "lead").map((d) => d.title)).toEqual(Array.from({ length: 12 }, (_, i) => `Deal ${i}`));
    expect(cards.filter((d) => d.stage === "offer")).toHaveLength(1);
    expect(await boardCards(ctx, userId, { stage: "lead" })).toHaveLength(14);
  });

  it("lists with filters and sorts", async () => {
    const userId = await owner();
    const ctx = requestContext();
    const contact = await createContact(ctx, userId, ContactInputSchema.parse({ name: "Filter Me", phone: "1" }));
    ok(await createDeal(ctx, userId, dealInput({ title: "Small", dealValueCents: "200000", expectedCloseDate: "2027-01-10" })));
    ok(
      await createDeal(
        ctx,
        userId,
        dealInput({ title: "Big", dealValueCents: "900000", expectedCloseDate: "2027-02-01", contactId: contact.id, stage: "offer" }),
      ),
    );
    ok(await createDeal(ctx, userId, dealInput({ title: "Mid", dealValueCents: "500000" })));
    const titles = async (...args: Parameters<typeof listDeals> extends [unknown, unknown, ...infer R] ? R : never) =>
      (await listDeals(ctx, userId, ...args)).deals.map((d) => d.title);
    expect(await titles({}, "close")).toEqual(["Small", "Big", "Mid"]);
    expect(await titles({}, "value")).toEqual(["Big", "Mid", "Small"]);
    expect(await titles({ month: "2027-01" })).toEqual(["Small"]);
    expect(await titles({ stage: "offer" })).toEqual(["Big"]);
    expect(await titles({ contactId: contact.id })).toEqual(["Big"]);
    expect(await titles({ minCents: 30_000_000, maxCents: 60_000_000 })).toEqual(["Mid"]);
  });
});

describe("deals and deleted contacts", () => {
  it("deleting a contact unlinks its deals, and undoing the delete links them again (only the owner's)", async () => {
    const userId = await owner();
    const other = await owner();
    const ctx = requestContext();
    const contact = await createContact(ctx, userId, ContactInputSchema.parse({ name: "Undo Me", phone: "1" }));
    const deal = ok(await createDeal(ctx, userId, dealInput({ contactId: contact.id }))).deal;
    const theirs = ok(await createDeal(ctx, other, dealInput({ title: "Not yours" }))).deal;
    const removed = await trashContacts(ctx, userId, [contact.id], SYSTEM_WHERE);
    expect((await getDeal(ctx, userId, deal.id))?.contactId).toBeNull();
    // The undo sends back only the trash id; the other agent's unlinked deal is not theirs to re-link.
    expect((await restoreFromTrash(env.DB, userId, removed.trashIds)).restored).toBe(1);
    expect(await getDeal(ctx, userId, deal.id)).toMatchObject({ contactId: contact.id, contactName: "Undo Me" });
    expect((await getDeal(ctx, other, theirs.id))?.contactId).toBeNull();
  });
});

describe("stage settings", () => {
  it("rename, recolour, reorder, add and change probability; a stage with deals cannot go; won and lost stay", async () => {
    const userId = await owner();
    const ctx = requestContext();
    expect((await getStages(ctx, userId)).map((s) => s.key)).toEqual(DEFAULT_STAGES.map((s) => s.key));
    const deal = ok(await createDeal(ctx, userId, dealInput({ stage: "qualified" }))).deal;
    const edited = DEFAULT_STAGES.map((s) => ({ ...s }));
    edited[0] = { ...edited[0]!, name: "New lead", color: "#123ABC", probability: 5 };
    [edited[1], edited[2]] = [edited[2]!, edited[1]!];
    edited.splice(4, 0, { key: "inspection", name: "Inspection", color: "#000000", probability: 75, kind: "open" });
    const saved = ok(await saveStages(ctx, userId, edited));
    expect(saved.stages.map((s) => s.name)).toEqual([
      "New lead",
      "Showing",
      "Qualified",
      "Offer",
      "Inspection",
      "Under Contract",
      "Closed Won",
      "Closed Lost",
    ]);
    expect(saved.stages[0]!.color).toBe("#123abc");
    expect((await getStages(requestContext(), userId))[4]!.key).toBe("inspection");

    const withoutQualified = saved.stages.filter((s) => s.key !== "qualified");
    expect(await saveStages(ctx, userId, withoutQualified)).toEqual({
      ok: false,
      error: "Qualified: Move this stage's deal to another stage first.",
    });
    expect(await dealCountsByStage(ctx, userId)).toEqual({ qualified: 1 });
    ok(await moveDeal(ctx, userId, deal.id, move("inspection")));
    expect((await getDeal(ctx, userId, deal.id))?.probability).toBe(75);
    ok(await saveStages(ctx, userId, withoutQualified));

    expect(
      await saveStages(
        ctx,
        userId,
        withoutQualified.filter((s) => s.kind !== "won"),
      ),
    ).toEqual({ ok: false, error: "Keep one Closed Won stage and one Closed Lost stage." });
    expect(
      await saveStages(
        ctx,
        userId,
        withoutQualified.map((s) => (s.key === "offer" ? { ...s, name: "new LEAD" } : s)),
      ),
    ).toEqual({ ok: false, error: "Another stage already has that name." });
    expect(
      await saveStages(
        ctx,
        userId,
        withoutQualified.map((s) => (s.key === "offer" ? { ...s, kind: "won" } : s)),
      ),
    ).toMatchObject({ ok: false });
    expect(
      await saveStages(
        ctx,
        userId,
        withoutQualified.map((s) => (s.key === "offer" ? { ...s, probability: 101 } : s)),
      ),
    ).toEqual({ ok: false, error: "Probability is a whole number from 0 to 100." });
  });
});

describe("commissions over real deals", () => {
  // Two closings early in the year, seen from mid-June (noon in New York): the year-to-date figures need a
  // "today" after both, in the same year, which the real clock does not give on 1 to 5 January.
  it("price each deal with the plan, overrides and the cap used by earlier closings, and forecast by month", () =>
    atInstant("2026-06-15T16:00:00Z", async () => {
      const userId = await owner();
      const ctx = requestContext();
      // $10,000 cap at 30%, cap year from January.
      ok(
        await savePlan(ctx, userId, {
          defaultRate: "3",
          referralFeePct: "0",
          brokerageSplitPct: "30",
          brokerageCapCents: "10000",
          capYearStart: "01-01",
          teamSplitPct: "0",
          transactionFeeCents: "0",
          eoFeeCents: "0",
          franchiseFeePct: "0",
        }),
      );
      expect((await getPlan(requestContext(), userId)).brokerageCapCents).toBe(1_000_000);
      const year = 2026;
      // Won: $1,000,000 x 3% = $30,000; 30% = $9,000 paid. Then $500,000: $15,000; 30% = $4,500 but $1,000 left.
      const first = ok(
        await createDeal(ctx, userId, dealInput({ title: "First", dealValueCents: "1000000", stage: "closed_won", closedDate: `${year}-01-05` })),
      ).deal;
      const second = ok(
        await createDeal(ctx, userId, dealInput({ title: "Second", dealValueCents: "500000", stage: "closed_won", closedDate: `${year}-01-06` })),
      ).deal;
      // Open with an override of the split (10%): capped already, so no split either way.
      const open = ok(
        await createDeal(
          ctx,
          userId,
          dealInput({ title: "Open", dealValueCents: "400000", stage: "offer", brokerageSplitPct: "10", expectedCloseDate: `${year}-12-30` }),
        ),
      ).deal;
      const commissions = await loadCommissionContext(ctx, userId);
      expect(commissions.breakdownFor(first)).toMatchObject({ brokerageCents: 900_000, netCents: 2_100_000 });
      expect(commissions.breakdownFor(second)).toMatchObject({ brokerageCents: 100_000, capLimited: true, netCents: 1_400_000 });
      expect(commissions.breakdownFor(open)).toMatchObject({ grossCents: 1_200_000, brokerageCents: 0, netCents: 1_200_000 });
      const forecast = await loadForecast(ctx, userId);
      expect(forecast.closedNetYtdCents).toBe(3_500_000);
      expect(forecast.cap).toMatchObject({ paidCents: 1_000_000, reachedOn: `${year}-01-06` });
      // The open deal at 60%: 1,200,000 x 60% = 720,000 in December's month (if December is within 12 months: it always is).
      expect(forecast.months.find((m) => m.month === `${year}-12`)).toMatchObject({ deals: 1, weightedNetCents: 720_000 });
    }));
});

describe("deal isolation", () => {
  it("another user can neither read, list, move, edit, delete nor count your deals and stages", async () => {
    const alice = await owner();
    const bob = await owner();
    const ctx = requestContext();
    const deal = ok(await createDeal(ctx, alice, dealInput({ title: "Alice's deal" }))).deal;
    ok(
      await saveStages(
        ctx,
        alice,
        DEFAULT_STAGES.map((s) => (s.key === "lead" ? { ...s, name: "Alice lead" } : s)),
      ),
    );
    expect(await getDeal(ctx, bob, deal.id)).toBeNull();
    expect((await listDeals(ctx, bob, {})).total).toBe(0);
    expect(await boardCards(ctx, bob)).toEqual([]);
    expect(await columnTotals(ctx, bob)).toEqual({});
    expect(await moveDeal(ctx, bob, deal.id, move("offer"))).toMatchObject({ ok: false, status: 404 });
    expect(await updateDeal(ctx, bob, deal.id, dealInput({ title: "Bob was here" }))).toMatchObject({ ok: false, status: 404 });
    expect(await deleteDeal(ctx, bob, deal.id, SYSTEM_WHERE)).toBe(false);
    expect(await stageHistory(ctx, bob, deal.id)).toEqual([]);
    expect((await getStages(requestContext(), bob))[0]!.name).toBe("Lead");
    // Bob naming Alice's deal as a neighbour does not reveal or move it.
    const bobs = ok(await createDeal(ctx, bob, dealInput({ title: "Bob's" }))).deal;
    ok(await moveDeal(ctx, bob, bobs.id, move("lead", { afterId: deal.id })));
    expect(await getDeal(ctx, alice, deal.id)).toMatchObject({ title: "Alice's deal", stage: "lead" });
    expect(await deleteDeal(ctx, alice, deal.id, SYSTEM_WHERE)).toBe(true);
  });
});

describe("commissions beside another agent's data", () => {
  // The forecast and the cap are per agent. Another agent's plan, stages and deals (won ones using
  // up a cap, open ones closing in the same months) must leave this agent's figures exactly as they were.
  const plan = (fields: Record<string, string>) => ({
    defaultRate: "3",
    referralFeePct: "0",
    brokerageSplitPct: "30",
    brokerageCapCents: "10000",
    capYearStart: "01-01",
    teamSplitPct: "0",
    transactionFeeCents: "0",
    eoFeeCents: "0",
    franchiseFeePct: "0",
    ...fields,
  });
  const inDays = (day: string, n: number) => new Date(Date.parse(`${day}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  it("another agent's plan and deals change nothing in this agent's forecast, cap or deal breakdowns", async () => {
    const alice = await owner();
    const bob = await owner();
    ok(await savePlan(requestContext(), alice, plan({})));
    const { today } = await loadForecast(requestContext(), alice);
    const won = ok(
      await createDeal(requestContext(), alice, dealInput({ title: "Alice won", dealValueCents: "200000", stage: "closed_won", closedDate: today })),
    ).deal;
    const open = ok(
      await createDeal(
        requestContext(),
        alice,
        dealInput({ title: "Alice open", dealValueCents: "400000", stage: "offer", expectedCloseDate: inDays(today, 30) }),
      ),
    ).deal;
    const snapshot = async () => {
      const forecast = await loadForecast(requestContext(), alice);
      const commissions = await loadCommissionContext(requestContext(), alice);
      return { forecast, won: commissions.breakdownFor(won), open: commissions.breakdownFor(open), plan: await getPlan(requestContext(), alice) };
    };
    const before = await snapshot();
    // Alice's own figures first, so the comparison below compares something: $200,000 x 3% = $6,000, 30% split.
    expect(before.won).toMatchObject({ grossCents: 600_000, brokerageCents: 180_000, netCents: 420_000 });
    expect(before.forecast.closedNetYtdCents).toBe(420_000);
    expect(before.forecast.cap).toMatchObject({ paidCents: 180_000 });

    // Bob: another plan (rate, split, a cap he has reached, another cap year), other stages, and deals on the same days.
    ok(
      await savePlan(
        requestContext(),
        bob,
        plan({ defaultRate: "5", brokerageSplitPct: "50", brokerageCapCents: "1000", capYearStart: "07-01", transactionFeeCents: "500" }),
      ),
    );
    ok(
      await saveStages(
        requestContext(),
        bob,
        DEFAULT_STAGES.map((s) => (s.key === "offer" ? { ...s, name: "Bob offer", probability: 5 } : s)),
      ),
    );
    for (const value of ["900000", "800000"])
      ok(await createDeal(requestContext(), bob, dealInput({ title: "Bob won", dealValueCents: value, stage: "closed_won", closedDate: today })));
    ok(
      await createDeal(
        requestContext(),
        bob,
        dealInput({ title: "Bob open", dealValueCents: "700000", stage: "offer", expectedCloseDate: inDays(today, 30) }),
      ),
    );

    expect(await snapshot()).toEqual(before);
    // And Bob's own figures follow his plan: his cap ($1,000) is used up.
    const bobs = await loadForecast(requestContext(), bob);
    expect(bobs.cap).toMatchObject({ paidCents: 100_000 });
    expect(bobs.closedNetYtdCents).not.toBe(before.forecast.closedNetYtdCents);
  });
});
