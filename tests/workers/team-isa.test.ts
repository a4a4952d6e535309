import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { auditEvents, contacts, crmActivities, dealShares, deals, teamCommissionPlans, teamInvitations, teamLeads, teamMembers } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import type { UserId } from "~/modules/auth/session.server";
import { getPlanWithSource } from "~/modules/commissions/plans.server";
import { SHARE_MESSAGES } from "~/modules/deals/shares.server";
import { assignLead, LEAD_MESSAGES } from "~/modules/team/leads.server";
import { TEAM_MESSAGES } from "~/modules/team/team.messages";
import { getMembership } from "~/modules/team/team.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { deal, team } from "../factories/teams";
import { uniqueEmail } from "../factories/users";

// The ISA (inside sales) role (ADR 0080): works the team's new leads and the pond, hands them to agents, and has no
// part in the team's deals or commissions. Bea Agent of the factory team is made the ISA by the owner in each test.

const db = () => createDb(env.DB);
const INVITES_ON = { ...(env as Env), FEATURE_FLAGS: "TEAM_INVITES=on" } as Env;
const html = (message: string) => message.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
/** A refusal shows in the page, or (a form the page does not render, e.g. a co-agent it never offered) in its data. */
const says = (text: string, message: string) => text.includes(html(message)) || text.includes(message);
const leadNamed = (teamId: string, name: string) =>
  db()
    .select()
    .from(teamLeads)
    .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.name, name)))
    .get();
const auditOf = (teamId: string, action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.teamId, teamId), eq(auditEvents.action, action as never)));

let seq = 0;
const newLead = (fields: Record<string, string> = {}) => ({
  intent: "add",
  name: `Isa Lead ${++seq}`,
  phone: `555-02${String(seq).padStart(2, "0")}`,
  email: "",
  source: "zillow",
  message: "Pre-approved, wants to see homes this weekend",
  ...fields,
});

/** A team whose owner has made Bea Agent its ISA. */
async function isaTeam(name: string) {
  const t = await team(name);
  const owner = await signInAs(t.owner);
  expect((await owner.post("/team", { intent: "role", memberId: t.agentB.id, role: "isa" })).status).toBe(302);
  const isa = await signInAs(t.agentB);
  return { ...t, isa: t.agentB, ownerBrowser: owner, isaBrowser: isa };
}

async function add(browser: TestBrowser, teamId: string, fields: Record<string, string> = {}) {
  const form = newLead(fields);
  expect((await browser.post("/team/leads", form)).status).toBe(302);
  return (await leadNamed(teamId, form.name))!;
}

describe("the ISA role", () => {
  it("is given by the owner (audited) and by invitation; a member who shares a deal becomes one only once the shares are off", async () => {
    const t = await isaTeam("Isa Role Realty");
    expect(
      await db()
        .select({ role: teamMembers.role })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.isa.id)))
        .get(),
    ).toEqual({ role: "isa" });
    expect((await auditOf(t.teamId, "team.role_changed")).map((a) => [a.actorId, a.subjectUserId, a.details])).toEqual([
      [t.owner.id, t.isa.id, { from: "agent", to: "isa" }],
    ]);
    const teamPage = await t.ownerBrowser.page("/team");
    expect(teamPage).toContain("Bea Agent");
    expect(teamPage).toContain("Inside sales (ISA)");

    // An admin invites an ISA (admins invite agents and ISAs; only the owner invites admins).
    const admin = (await signInAs(t.admin)).using(INVITES_ON);
    const email = uniqueEmail("isa");
    expect((await admin.post("/team", { intent: "invite", email, role: "isa" })).status).toBe(302);
    expect(await db().select({ role: teamInvitations.role }).from(teamInvitations).where(eq(teamInvitations.teamId, t.teamId))).toEqual([
      { role: "isa" },
    ]);
    expect((await admin.post("/team", { intent: "invite", email: uniqueEmail("isa"), role: "owner" })).status).toBe(400);

    // Amara co-agents a deal of the admin's: she cannot become an ISA until that share is off, and nothing changes.
    const sale = deal(t.admin.id, { title: "Shared sale", stage: "showing", dealValueCents: 40_000_000 });
    await db().insert(deals).values(sale);
    await db().insert(dealShares).values({ dealId: sale.id, ownerId: t.admin.id, agentId: t.agentA.id, sharePct: 25 });
    const refused = await t.ownerBrowser.post("/team", { intent: "role", memberId: t.agentA.id, role: "isa" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(html(TEAM_MESSAGES.isaSharesDeals("Amara Agent", 1)));
    expect(
      (
        await db()
          .select({ role: teamMembers.role })
          .from(teamMembers)
          .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentA.id)))
          .get()
      )?.role,
    ).toBe("agent");
    expect(await auditOf(t.teamId, "team.role_changed")).toHaveLength(1);
  });

  it("sees the team's leads and its own team page, but no team deals, leaderboard, commission plan or managers' views", async () => {
    const t = await isaTeam("Isa Views Realty");
    const leads = await t.isaBrowser.page("/team/leads");
    expect(leads).toContain("You are the team&#x27;s inside sales agent");
    const waiting = await add(t.ownerBrowser, t.teamId, { phone: "555-0299" });
    // The ISA sees a waiting lead's phone to call it; an agent does not until the lead is theirs.
    expect(await t.isaBrowser.page("/team/leads")).toContain("555-0299");
    expect(await (await signInAs(t.agentA)).page("/team/leads")).not.toContain("555-0299");
    expect(waiting.state).toBe("pond");

    for (const path of [
      "/team/pipeline",
      "/team/pipeline?agent=all",
      "/team/leaderboard",
      "/team/leaderboard.csv",
      "/team/reports",
      "/team/contacts",
      "/team/audit",
    ]) {
      expect((await t.isaBrowser.fetch(path)).status, path).toBe(404);
    }
    const page = await t.isaBrowser.page("/team");
    expect(page).toContain("Isa Views Realty");
    expect(page).not.toContain("Team commission plan");
    // The navigation has the team and its leads, not the team pipeline or the leaderboard.
    expect(page).toContain('href="/team/leads"');
    expect(page).not.toContain('href="/team/pipeline"');
    expect(page).not.toContain('href="/team/leaderboard"');
    // An agent still has both.
    const agentPage = await (await signInAs(t.agentA)).page("/team");
    expect(agentPage).toContain('href="/team/pipeline"');
    expect(agentPage).toContain("Team commission plan");
    // The team's commission plan prices its agents, not its ISA, and the ISA's own Forecast page does not show it.
    await db().insert(teamCommissionPlans).values({ teamId: t.teamId, brokerageSplitPct: 27 });
    expect((await getPlanWithSource(requestContext(), t.agentA.id as UserId)).plan.brokerageSplitPct).toBe(27);
    expect(await getPlanWithSource(requestContext(), t.isa.id as UserId)).toMatchObject({ source: "default" });
    expect(await (await signInAs(t.agentA)).page("/pipeline/commissions")).toContain("Isa Views Realty&#x27;s plan");
    const isaForecast = await t.isaBrowser.page("/pipeline/commissions");
    expect(isaForecast).toContain("Your commission plan");
    expect(isaForecast).not.toContain("Isa Views Realty&#x27;s plan");
    expect(isaForecast).not.toContain("has a team plan");
    // The leaderboard ranks those who sell: no row for the ISA.
    const board = await t.ownerBrowser.page("/team/leaderboard");
    expect(board).toContain("Amara Agent");
    expect(board).not.toContain("Bea Agent");
  });

  it("adds leads and gives waiting ones to agents, never to an ISA; an agent cannot", async () => {
    const t = await isaTeam("Isa Desk Realty");
    const lead = await add(t.isaBrowser, t.teamId);
    expect(lead.addedBy).toBe(t.isa.id);
    // To themselves (an ISA): refused, and the lead still waits.
    const toIsa = await t.isaBrowser.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.isa.id });
    expect(toIsa.status).toBe(400);
    expect(await toIsa.text()).toContain(html(LEAD_MESSAGES.toSeller));
    expect((await leadNamed(t.teamId, lead.name))?.state).toBe("pond");
    // An agent may not give leads out.
    const amara = await signInAs(t.agentA);
    const byAgent = await amara.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.admin.id });
    expect(byAgent.status).toBe(403);
    expect(await byAgent.text()).toContain(html(LEAD_MESSAGES.deskOnly));
    expect((await amara.post("/team/leads", newLead())).status).toBe(403);

    expect((await t.isaBrowser.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    const given = (await leadNamed(t.teamId, lead.name))!;
    expect(given).toMatchObject({
      state: "assigned",
      assignedTo: t.agentA.id,
      heldBy: t.agentA.id,
      assignedHow: "handed on by Bea Agent (inside sales)",
    });
    const contact = await db().select().from(contacts).where(eq(contacts.id, given.contactId!)).get();
    expect(contact).toMatchObject({ userId: t.agentA.id, name: lead.name, firstResponseAt: null });
    expect((await auditOf(t.teamId, "lead.assigned")).map((a) => [a.actorId, a.subjectUserId, a.targetId])).toEqual([
      [t.isa.id, t.agentA.id, lead.id],
    ]);
    // The ISA's settings stay the owner's and admins'.
    expect((await t.isaBrowser.post("/team/leads", { intent: "settings", mode: "round_robin", claimWindowMinutes: "15" })).status).toBe(403);
  });

  it("claims a lead, works it, and hands it to an agent with the calls and notes; the agent's speed to lead starts then", async () => {
    const t = await isaTeam("Isa Handoff Realty");
    const lead = await add(t.ownerBrowser, t.teamId);
    expect((await t.isaBrowser.post("/team/leads", { intent: "claim", lead: lead.id })).status).toBe(302);
    const claimed = (await leadNamed(t.teamId, lead.name))!;
    expect(claimed).toMatchObject({ assignedTo: t.isa.id, heldBy: t.isa.id });
    const contactId = claimed.contactId!;
    // The ISA calls: the contact is answered, by the ISA.
    const called = new Date(Date.now() - 60_000);
    await db()
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId: t.isa.id, contactId, type: "call", notes: "Qualified: pre-approved to $450k", occurredAt: called });
    expect(
      await db().select({ at: contacts.firstResponseAt, by: contacts.answeredBy }).from(contacts).where(eq(contacts.id, contactId)).get(),
    ).toEqual({
      at: called,
      by: t.isa.id,
    });
    const page = await t.isaBrowser.page("/team/leads");
    expect(page).toContain(`Hand ${lead.name} to`);

    expect((await t.isaBrowser.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    const handed = (await leadNamed(t.teamId, lead.name))!;
    expect(handed).toMatchObject({ assignedTo: t.agentA.id, heldBy: t.agentA.id, contactId, assignedHow: "handed on by Bea Agent (inside sales)" });
    // The same contact, now Amara's, unanswered by her yet; the ISA's call on its timeline, with the handoff note.
    expect(
      await db()
        .select({ userId: contacts.userId, at: contacts.firstResponseAt, by: contacts.answeredBy })
        .from(contacts)
        .where(eq(contacts.id, contactId))
        .get(),
    ).toEqual({
      userId: t.agentA.id,
      at: null,
      by: null,
    });
    const timeline = await db().select().from(crmActivities).where(eq(crmActivities.contactId, contactId));
    expect(timeline.every((a) => a.userId === t.agentA.id)).toBe(true);
    expect(timeline.map((a) => a.notes).sort()).toEqual(
      [
        "Bea Agent (inside sales) handed this lead to you, from Isa Handoff Realty's leads.",
        "Qualified: pre-approved to $450k",
        "You claimed this lead from Isa Handoff Realty's leads.",
      ].sort(),
    );
    const amara = await signInAs(t.agentA);
    expect(await amara.page(`/contacts/${contactId}`)).toContain("Qualified: pre-approved to $450k");
    expect((await auditOf(t.teamId, "lead.reassigned")).map((a) => [a.actorId, a.subjectUserId, a.details])).toEqual([
      [t.isa.id, t.agentA.id, { from: "Bea Agent" }],
    ]);
  });

  it("moves only the leads it holds, never one with a deal, and re-checks its role in the write", async () => {
    const t = await isaTeam("Isa Limits Realty");
    // Amara's lead: the ISA cannot take it from her.
    const amarasLead = await add(t.ownerBrowser, t.teamId);
    expect((await t.ownerBrowser.post("/team/leads", { intent: "assign", lead: amarasLead.id, agent: t.agentA.id })).status).toBe(302);
    const notYours = await t.isaBrowser.post("/team/leads", { intent: "assign", lead: amarasLead.id, agent: t.admin.id });
    expect(notYours.status).toBe(403);
    expect(await notYours.text()).toContain(html(LEAD_MESSAGES.notYours));
    expect((await leadNamed(t.teamId, amarasLead.name))?.heldBy).toBe(t.agentA.id);

    // A lead the ISA made a deal with stays.
    const withDeal = await add(t.ownerBrowser, t.teamId);
    expect((await t.isaBrowser.post("/team/leads", { intent: "claim", lead: withDeal.id })).status).toBe(302);
    const held = (await leadNamed(t.teamId, withDeal.name))!;
    await db()
      .insert(deals)
      .values(deal(t.isa.id, { contactId: held.contactId, stage: "lead", title: "Too soon" }));
    const refused = await t.isaBrowser.post("/team/leads", { intent: "assign", lead: withDeal.id, agent: t.agentA.id });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(html(LEAD_MESSAGES.hasDeal));
    expect((await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, held.contactId!)).get())?.userId).toBe(t.isa.id);

    // The ISA read as an ISA, then the owner made her an agent: the handoff's own batch refuses it.
    const stale = await add(t.ownerBrowser, t.teamId);
    expect((await t.isaBrowser.post("/team/leads", { intent: "claim", lead: stale.id })).status).toBe(302);
    const context = requestContext();
    const asIsa = (await getMembership(context, t.isa.id as UserId))!;
    expect(asIsa.role).toBe("isa");
    expect((await t.ownerBrowser.post("/team", { intent: "role", memberId: t.isa.id, role: "agent" })).status).toBe(302);
    const result = await assignLead(
      context,
      asIsa,
      { db: db(), alert: () => undefined },
      { id: t.isa.id as UserId, name: "Bea Agent", where: { ip: null, city: null, country: null, userAgent: null } },
      stale.id,
      t.agentA.id,
    );
    expect(result).toEqual({ ok: false, status: 409, error: LEAD_MESSAGES.taken });
    expect((await leadNamed(t.teamId, stale.name))?.heldBy).toBe(t.isa.id);
  });

  it("is not in the round robin, nor a co-agent on a deal, nor shares one", async () => {
    const t = await isaTeam("Isa Rotation Realty");
    expect((await t.ownerBrowser.post("/team/leads", { intent: "settings", mode: "round_robin", claimWindowMinutes: "15" })).status).toBe(302);
    for (let i = 0; i < 6; i++) await add(t.ownerBrowser, t.teamId);
    const leads = await db().select().from(teamLeads).where(eq(teamLeads.teamId, t.teamId));
    expect(leads).toHaveLength(6);
    expect(new Set(leads.map((l) => l.assignedTo))).toEqual(new Set([t.owner.id, t.admin.id, t.agentA.id]));

    // Amara's deal: the ISA is not offered as a co-agent, and is refused if posted.
    const sale = deal(t.agentA.id, { title: "Amara's sale", stage: "showing", dealValueCents: 50_000_000 });
    const own = deal(t.isa.id, { title: "Bea's own", stage: "showing", dealValueCents: 30_000_000 });
    await db().insert(deals).values([sale, own]);
    const amara = await signInAs(t.agentA);
    const dealPage = await amara.page(`/deals/${sale.id}`);
    expect(dealPage).toContain("Ada Admin");
    expect(dealPage).not.toContain("Bea Agent");
    const asCoAgent = await amara.post(`/deals/${sale.id}`, { intent: "share", agent: t.isa.id, sharePct: "20" });
    expect(asCoAgent.status).toBe(400);
    expect(says(await asCoAgent.text(), SHARE_MESSAGES.isa)).toBe(true);
    const sharing = await t.isaBrowser.post(`/deals/${own.id}`, { intent: "share", agent: t.agentA.id, sharePct: "20" });
    expect(sharing.status).toBe(400);
    expect(says(await sharing.text(), SHARE_MESSAGES.youAreIsa)).toBe(true);
    expect(
      await db()
        .select()
        .from(dealShares)
        .where(inArray(dealShares.dealId, [sale.id, own.id])),
    ).toEqual([]);
  });
});
