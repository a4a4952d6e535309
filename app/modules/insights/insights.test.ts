import { describe, expect, it } from "vitest";
import { computeInsights, dealRisks, INSIGHTS_KEPT, sortInsights, type Insight, type InsightInputs, type OpenDealInput } from "./insights";

// The insight rules of spec section 9 on a fixed "today" (the agent's calendar day).
const TODAY = "2026-11-20";
const prefs = { currency: "USD", dateFormat: "US" } as const;

function inputs(fields: Partial<InsightInputs> = {}): InsightInputs {
  return { today: TODAY, prefs, hotQuiet: [], hotQuietCount: 0, openDeals: [], locations: [], ...fields };
}
function deal(fields: Partial<OpenDealInput> = {}): OpenDealInput {
  return {
    id: "d1",
    title: "12 Oak St",
    stage: "offer",
    stageName: "Offer",
    valueCents: 50_000_000,
    commissionRate: 3,
    probability: 60,
    expectedCloseDate: null,
    keyDates: [],
    stageChangedDay: "2026-11-18",
    createdDay: "2026-11-10",
    lastActivityDay: "2026-11-19",
    contactName: "Dana Reyes",
    ...fields,
  };
}

describe("hot contacts quiet for more than 7 days", () => {
  it("asks for a follow-up with the 3% of budget_max estimate", () => {
    const [insight] = computeInsights(
      inputs({ hotQuiet: [{ id: "c1", name: "Jane Doe", budgetMax: 450_000, lastActivityDay: "2026-11-12" }], hotQuietCount: 1 }),
    );
    expect(insight).toMatchObject({ type: "follow_up", priority: "high", title: "Follow up with Jane Doe", contactId: "c1" });
    expect(insight!.description).toContain("no activity for 8 days");
    expect(insight!.impact).toBe("About $13.5K commission (3% of a $450K budget)");
    expect(insight!.href).toBe("/ai-assistant?quick=follow_up&contact=c1");
  });

  it("shows no made-up figure when the contact has no budget", () => {
    const [insight] = computeInsights(
      inputs({ hotQuiet: [{ id: "c1", name: "Jane", budgetMax: null, lastActivityDay: "2026-11-01" }], hotQuietCount: 1 }),
    );
    expect(insight!.impact).toBe("No budget recorded yet: ask about it on the call");
    expect(JSON.stringify(insight)).not.toMatch(/13,?500|13\.5K/);
  });

  it("names three and sums up the rest", () => {
    const hot = ["a", "b", "c"].map((id) => ({ id, name: id.toUpperCase(), budgetMax: null, lastActivityDay: "2026-11-01" }));
    const found = computeInsights(inputs({ hotQuiet: hot, hotQuietCount: 7 }));
    expect(found.filter((i) => i.type === "follow_up").map((i) => i.title)).toEqual([
      "Follow up with A",
      "Follow up with B",
      "Follow up with C",
      "4 more hot leads waiting",
    ]);
  });
});

describe("under-contract deals closing within 15 days", () => {
  it("flags 0 to 15 days ahead, soonest first, and leaves day 16 and the past alone", () => {
    const deals = [
      deal({ id: "d16", stage: "under_contract", expectedCloseDate: "2026-12-06" }),
      deal({ id: "d15", stage: "under_contract", expectedCloseDate: "2026-12-05" }),
      deal({ id: "d0", stage: "under_contract", expectedCloseDate: "2026-11-20" }),
      deal({ id: "dpast", stage: "under_contract", expectedCloseDate: "2026-11-19" }),
      deal({ id: "offer", stage: "offer", expectedCloseDate: "2026-11-25" }),
    ];
    const closing = computeInsights(inputs({ openDeals: deals })).filter((i) => i.id.startsWith("closing:"));
    expect(closing.map((i) => i.dealId)).toEqual(["d0", "d15"]);
    expect(closing[0]!.title).toBe("12 Oak St closes today");
    expect(closing[1]!.impact).toBe("$15K gross commission at 3%");
  });
});

describe("weighted pipeline", () => {
  it("weights each open deal by its probability and says which deals had no value", () => {
    const deals = [
      deal({ id: "a", valueCents: 50_000_000, probability: 60 }),
      deal({ id: "b", valueCents: 100_000_000, probability: 10 }),
      deal({ id: "c", valueCents: 0 }),
    ];
    const weighted = computeInsights(inputs({ openDeals: deals })).find((i) => i.id === "pipeline:weighted")!;
    expect(weighted.title).toBe("Weighted pipeline: $400K");
    expect(weighted.description).toContain("2 open deals worth $1.5M");
    expect(weighted.description).toContain("1 open deal has no value yet");
  });

  it("is absent without a valued open deal (no default amounts)", () => {
    expect(computeInsights(inputs({ openDeals: [deal({ valueCents: 0 })] })).some((i) => i.id === "pipeline:weighted")).toBe(false);
  });
});

describe("at-risk deals", () => {
  it("finds a slipping close date, a key date, a stale stage and silence", () => {
    expect(dealRisks(deal({ expectedCloseDate: "2026-11-17" }), TODAY)).toEqual([
      { reason: "the expected close date passed 3 days ago", serious: true },
    ]);
    expect(dealRisks(deal({ keyDates: [{ label: "Inspection", day: "2026-11-22" }] }), TODAY)).toEqual([
      { reason: "the inspection is in 2 days", serious: false },
    ]);
    expect(dealRisks(deal({ keyDates: [{ label: "Inspection", day: "2026-11-24" }] }), TODAY)).toEqual([]);
    expect(dealRisks(deal({ stageChangedDay: "2026-10-20" }), TODAY)).toEqual([{ reason: "31 days in Offer", serious: false }]);
    expect(dealRisks(deal({ stageChangedDay: "2026-10-21" }), TODAY)).toEqual([]);
    expect(dealRisks(deal({ lastActivityDay: "2026-11-06" }), TODAY)).toEqual([{ reason: "no activity for 14 days", serious: false }]);
    expect(dealRisks(deal({ lastActivityDay: null, createdDay: "2026-11-01" }), TODAY)).toEqual([
      { reason: "no activity logged since it was added 19 days ago", serious: false },
    ]);
  });

  it("puts deals with a passed date first, as high priority", () => {
    const found = computeInsights(
      inputs({
        openDeals: [deal({ id: "quiet", lastActivityDay: "2026-10-01" }), deal({ id: "late", expectedCloseDate: "2026-11-01", title: "9 Elm Ave" })],
      }),
    );
    const risks = found.filter((i) => i.id.startsWith("risk:"));
    expect(risks.map((i) => [i.dealId, i.priority])).toEqual([
      ["late", "high"],
      ["quiet", "medium"],
    ]);
    expect(risks[0]!.description).toBe("The expected close date passed 19 days ago. Check in with Dana Reyes.");
  });
});

describe("market focus and ordering", () => {
  it("suggests a market note for the location most hot and warm contacts want", () => {
    const [market] = computeInsights(inputs({ locations: [{ location: "Austin", hotOrWarm: 4 }] }));
    expect(market).toMatchObject({ type: "market", priority: "low", title: "Austin is where your buyers look" });
    expect(computeInsights(inputs({ locations: [{ location: "Austin", hotOrWarm: 1 }] }))).toEqual([]);
  });

  it("sorts high, medium, low and keeps rule order within a priority", () => {
    const make = (id: string, priority: Insight["priority"]): Insight => ({
      id,
      priority,
      type: "urgent",
      title: id,
      description: "",
      action: "",
      href: "/",
      impact: null,
    });
    expect(sortInsights([make("l", "low"), make("m1", "medium"), make("h", "high"), make("m2", "medium")]).map((i) => i.id)).toEqual([
      "h",
      "m1",
      "m2",
      "l",
    ]);
  });

  it("keeps at most INSIGHTS_KEPT", () => {
    const many = Array.from({ length: 30 }, (_, i) => deal({ id: `d${i}`, stage: "under_contract", expectedCloseDate: "2026-11-25" }));
    expect(computeInsights(inputs({ openDeals: many }))).toHaveLength(INSIGHTS_KEPT);
  });

  it("has nothing to say about an empty account", () => {
    expect(computeInsights(inputs())).toEqual([]);
  });
});
