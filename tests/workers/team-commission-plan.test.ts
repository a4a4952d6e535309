import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { commissionPlans, deals, teamCommissionPlans, teamMembers } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { getPlanWithSource } from "~/modules/commissions/plans.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { deal, team } from "../factories/teams";
import { createUser } from "../factories/users";

// Brokerage settings (ADR 0035): the team's default commission plan, set by its owner and admins, prices
// every member who has not saved a plan of their own; a member's own plan overrides it, and they can drop it again.

const db = () => createDb(env.DB);

/** The plan form's fields: 20% brokerage split, no cap, a $500 transaction fee. */
const TEAM_PLAN = {
  defaultRate: "3",
  referralFeePct: "0",
  brokerageSplitPct: "20",
  brokerageCapCents: "",
  capYearStart: "01-01",
  teamSplitPct: "0",
  transactionFeeCents: "500",
  eoFeeCents: "0",
  franchiseFeePct: "0",
};
/** An agent's own plan: nothing taken. */
const OWN_PLAN = { ...TEAM_PLAN, brokerageSplitPct: "0", transactionFeeCents: "0" };

/** A page's text as a reader sees it (React marks the joins of text parts with empty comments). */
const read = async (browser: TestBrowser, path: string) => (await browser.page(path)).replace(/<!-- -->/g, "");
const teamPlanRow = (teamId: string) => db().select().from(teamCommissionPlans).where(eq(teamCommissionPlans.teamId, teamId)).get();

describe("the team's default commission plan", () => {
  it("prices members without a plan of their own; their own overrides it, and dropping it goes back", async () => {
    const t = await team("Cedar Brokerage");
    // $400,000 at 3%: gross $12,000. Team plan: split $2,400 and fee $500, net $9,100. Own plan: net $12,000.
    await db()
      .insert(deals)
      .values([
        deal(t.agentA.id, {
          title: "Open listing",
          stage: "offer",
          probability: 60,
          dealValueCents: 40_000_000,
          expectedCloseDate: dayFromToday(30),
        }),
        deal(t.agentA.id, { title: "Closed sale", dealValueCents: 40_000_000, closedDate: dayFromToday(0) }),
      ]);
    const agent = await signInAs(t.agentA);
    expect(await read(agent, "/pipeline")).toContain("Agent net $12,000.00");

    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "commission-plan", ...TEAM_PLAN })).status).toBe(200);
    expect(await teamPlanRow(t.teamId)).toMatchObject({ brokerageSplitPct: 20, transactionFeeCents: 50_000, brokerageCapCents: null });

    const board = await read(agent, "/pipeline");
    expect(board).toContain("Agent net $9,100.00");
    expect(board).not.toContain("Agent net $12,000.00");
    const forecast = await read(agent, "/pipeline/commissions");
    expect(forecast).toContain("This is Cedar Brokerage&#x27;s plan");
    expect(forecast).not.toContain("Use the team&#x27;s plan");
    expect(await read(agent, "/reports?period=this-month")).toContain("$9,100");

    // A plan the form cannot take, or a post that names no action, changes nothing: the answer says why.
    const bad = await agent.post("/pipeline/commissions", { intent: "commission-plan", ...OWN_PLAN, capYearStart: "02-29" });
    expect(bad.status).toBe(400);
    const refusal = await bad.text();
    expect(refusal).toContain("Please check the plan.");
    expect(refusal).toContain("Enter the day your cap year starts as MM-DD, e.g. 01-01 or 04-15 (not 02-29).");
    const unnamed = await agent.post("/pipeline/commissions", OWN_PLAN);
    expect(unnamed.status).toBe(400);
    expect(await unnamed.text()).toContain("Unknown action.");
    expect(await db().select().from(commissionPlans).where(eq(commissionPlans.userId, t.agentA.id)).get()).toBeUndefined();

    // Saving their own plan overrides the team's.
    const saved = await agent.post("/pipeline/commissions", { intent: "commission-plan", ...OWN_PLAN });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Commission plan saved");
    expect(await read(agent, "/pipeline")).toContain("Agent net $12,000.00");
    expect(await read(agent, "/pipeline/commissions")).toContain("Use the team&#x27;s plan");
    // And dropping it goes back to the team's.
    const dropped = await agent.post("/pipeline/commissions", { intent: "use-team-plan" });
    expect(dropped.status).toBe(302);
    expect(await db().select().from(commissionPlans).where(eq(commissionPlans.userId, t.agentA.id)).get()).toBeUndefined();
    expect(await read(agent, "/pipeline")).toContain("Agent net $9,100.00");

    // The owner's own plan is untouched by the team's, and agent B, who never saved one, is priced by it too.
    await db()
      .insert(deals)
      .values(
        deal(t.agentB.id, { title: "B's listing", stage: "lead", probability: 10, dealValueCents: 40_000_000, expectedCloseDate: dayFromToday(30) }),
      );
    expect(await read(await signInAs(t.agentB), "/pipeline")).toContain("Agent net $9,100.00");
  });

  it("is set by the owner and admins only; bad input changes nothing; another team and a former member are not priced by it", async () => {
    const t = await team("Birch Realty");
    const agentB = await signInAs(t.agentB);
    const refused = await agentB.post("/team", { intent: "commission-plan", ...TEAM_PLAN });
    expect(refused.status).toBe(403);
    expect(await teamPlanRow(t.teamId)).toBeUndefined();
    // An agent sees the plan described, not a form.
    expect(await read(agentB, "/team")).toContain("The team has no default plan.");

    const admin = await signInAs(t.admin);
    const bad = await admin.post("/team", { intent: "commission-plan", ...TEAM_PLAN, brokerageSplitPct: "150", capYearStart: "02-29" });
    expect(bad.status).toBe(400);
    expect(await teamPlanRow(t.teamId)).toBeUndefined();
    expect((await admin.post("/team", { intent: "commission-plan", ...TEAM_PLAN })).status).toBe(200);
    expect(await read(agentB, "/team")).toContain("Set by the team&#x27;s owner and admins.");

    // Another team's agent, and a Solo agent, are priced by their own plan or the defaults.
    const other = await team("Elsewhere Realty");
    await db()
      .insert(deals)
      .values(
        deal(other.agentA.id, {
          title: "Elsewhere listing",
          stage: "lead",
          probability: 10,
          dealValueCents: 40_000_000,
          expectedCloseDate: dayFromToday(30),
        }),
      );
    expect(await read(await signInAs(other.agentA), "/pipeline")).toContain("Agent net $12,000.00");
    const solo = await signInAs(await createUser(env.DB));
    expect((await solo.post("/team", { intent: "commission-plan", ...TEAM_PLAN })).status).toBe(404);

    // A member who leaves is priced by the defaults again.
    await db()
      .insert(deals)
      .values(
        deal(t.agentA.id, { title: "A's listing", stage: "lead", probability: 10, dealValueCents: 40_000_000, expectedCloseDate: dayFromToday(30) }),
      );
    const agentA = await signInAs(t.agentA);
    expect(await read(agentA, "/pipeline")).toContain("Agent net $9,100.00");
    await db().delete(teamMembers).where(eq(teamMembers.userId, t.agentA.id));
    // (Without the team, A has no subscription of their own to open pages with: the plan is read from its module.)
    expect(await getPlanWithSource(requestContext(), t.agentA.id as UserId)).toMatchObject({
      source: "default",
      plan: { brokerageSplitPct: 0, transactionFeeCents: 0 },
    });
  });
});
