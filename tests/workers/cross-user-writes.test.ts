import { SYSTEM_WHERE } from "~/modules/audit/audit.server";
import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, crmTasks, dealShares, deals, leadAlerts, subscribers, teamLeads, teamMembers, teams, users } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { saveShare } from "~/modules/deals/shares.server";
import { moveTeamDeal } from "~/modules/team/pipeline.server";
import { assignLead, LEAD_MESSAGES } from "~/modules/team/leads.server";
import { TEAM_MESSAGES } from "~/modules/team/team.messages";
import { getMembership, listMembers, removeMember } from "~/modules/team/team.server";
import { signInAs } from "../factories/browser";
import { changedBeforeNextBatch, requestContext } from "../factories/context";
import { dayFromToday } from "../factories/dates";
import { deal, team } from "../factories/teams";

// A write that touches another user's rows re-checks the relationship it relies on (membership, role, current holder)
// in its own batch (write-guard.server.ts), and nothing outside the trash and the purge deletes anyone's rows for good.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));
const leadNamed = async (teamId: string, name: string) =>
  (await db()
    .select()
    .from(teamLeads)
    .where(and(eq(teamLeads.teamId, teamId), eq(teamLeads.name, name)))
    .get())!;
const contactsNamed = (name: string) => db().select().from(contacts).where(eq(contacts.name, name));
const deps = { db: db(), alert: () => undefined };

async function addPondLead(browser: Awaited<ReturnType<typeof signInAs>>, name: string) {
  const reply = await browser.post("/team/leads", {
    intent: "add",
    name,
    phone: "555-0142",
    email: "",
    source: "open_house",
    message: "Asked about the open house",
  });
  expect(reply.status).toBe(302);
}

describe("team leads and a member who leaves", () => {
  it("never deletes a removed member's contact when their lead is given to someone else: theirs stays, the new agent gets a new one", async () => {
    const t = await team("Stays Theirs Realty");
    const owner = await signInAs(t.owner);
    const name = `Kept Lead ${crypto.randomUUID().slice(0, 8)}`;
    await addPondLead(owner, name);
    const lead = await leadNamed(t.teamId, name);
    // The owner assigns it to Amara; she works it (a task, nothing logged yet: still unanswered).
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    const toAmara = await leadNamed(t.teamId, name);
    expect(toAmara).toMatchObject({ assignedTo: t.agentA.id });
    const taskId = crypto.randomUUID();
    await db()
      .insert(crmTasks)
      .values({ id: taskId, userId: t.agentA.id, contactId: toAmara.contactId, title: `Call ${name}`, dueDate: dayFromToday(1) });

    // Amara is removed, keeping her data: the team's record no longer points into her account.
    expect((await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id })).status).toBe(302);
    expect(await leadNamed(t.teamId, name)).toMatchObject({ assignedTo: t.agentA.id, contactId: null });

    // The owner gives the lead to Bea: Bea gets a contact of her own; Amara's contact and task are untouched.
    const reply = await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentB.id });
    expect(reply.status).toBe(302);
    const amaraCopy = await db().select().from(contacts).where(eq(contacts.id, toAmara.contactId!)).get();
    expect(amaraCopy).toMatchObject({ userId: t.agentA.id, name });
    expect(await db().select().from(crmTasks).where(eq(crmTasks.id, taskId)).get()).toMatchObject({
      userId: t.agentA.id,
      contactId: toAmara.contactId,
    });
    const toBea = await leadNamed(t.teamId, name);
    expect(toBea).toMatchObject({ assignedTo: t.agentB.id });
    expect(toBea.contactId).not.toBe(toAmara.contactId);
    expect(await db().select().from(contacts).where(eq(contacts.id, toBea.contactId!)).get()).toMatchObject({
      userId: t.agentB.id,
      name,
      status: "hot",
    });
    expect((await contactsNamed(name)).map((c) => c.userId).sort()).toEqual([t.agentA.id, t.agentB.id].sort());
  });

  it("moves an unanswered lead's contact with its task to the new agent, and checks the holder, the agent and the manager as it writes", async () => {
    const t = await team("Moving Lead Realty");
    const owner = await signInAs(t.owner);
    const name = `Moved Lead ${crypto.randomUUID().slice(0, 8)}`;
    await addPondLead(owner, name);
    const lead = await leadNamed(t.teamId, name);
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    const held = await leadNamed(t.teamId, name);
    const taskId = crypto.randomUUID();
    await db()
      .insert(crmTasks)
      .values({ id: taskId, userId: t.agentA.id, contactId: held.contactId, title: `Call ${name}`, dueDate: dayFromToday(1) });

    // A manager whose page still shows Bea as a member, though she has just left: nothing moves.
    const context = requestContext();
    const membership = (await getMembership(context, t.owner.id as UserId))!;
    await listMembers(context, t.teamId);
    await db()
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentB.id)));
    const stale = await assignLead(
      context,
      membership,
      deps,
      { id: t.owner.id as UserId, name: "Olu Okafor", where: SYSTEM_WHERE },
      lead.id,
      t.agentB.id,
    );
    expect(stale).toMatchObject({ ok: false, status: 409, error: LEAD_MESSAGES.taken });
    expect(await db().select().from(contacts).where(eq(contacts.id, held.contactId!)).get()).toMatchObject({ userId: t.agentA.id });
    expect(await leadNamed(t.teamId, name)).toMatchObject({ assignedTo: t.agentA.id, contactId: held.contactId });
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.userId, t.agentB.id), eq(contacts.name, name)))
        .get(),
    ).toBeUndefined();

    // A manager demoted a moment ago cannot assign either, though their page said admin.
    const adminContext = requestContext();
    const adminMembership = (await getMembership(adminContext, t.admin.id as UserId))!;
    await listMembers(adminContext, t.teamId);
    await db()
      .update(teamMembers)
      .set({ role: "agent" })
      .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.admin.id)));
    const demoted = await assignLead(
      adminContext,
      adminMembership,
      deps,
      { id: t.admin.id as UserId, name: "Ada Admin", where: SYSTEM_WHERE },
      lead.id,
      t.owner.id,
    );
    expect(demoted).toMatchObject({ ok: false, status: 409 });
    expect(await db().select().from(contacts).where(eq(contacts.id, held.contactId!)).get()).toMatchObject({ userId: t.agentA.id });

    // The owner gives it to himself: the same contact moves, with Amara's task, her alert gone and the note his.
    const given = await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.owner.id });
    expect(given.status).toBe(302);
    const moved = await db().select().from(contacts).where(eq(contacts.id, held.contactId!)).get();
    expect(moved).toMatchObject({ userId: t.owner.id, name });
    expect(await db().select().from(crmTasks).where(eq(crmTasks.id, taskId)).get()).toMatchObject({ userId: t.owner.id, contactId: held.contactId });
    expect((await db().select().from(crmActivities).where(eq(crmActivities.contactId, held.contactId!))).every((a) => a.userId === t.owner.id)).toBe(
      true,
    );
    expect(
      await db()
        .select()
        .from(contacts)
        .where(and(eq(contacts.userId, t.agentA.id), eq(contacts.name, name)))
        .get(),
    ).toBeUndefined();
    const alerts = await db().select().from(leadAlerts).where(eq(leadAlerts.contactId, held.contactId!));
    expect(alerts.every((a) => a.userId === t.owner.id)).toBe(true);
  });

  it("answers a stale assignment with 'taken' and keeps the member's answered lead theirs", async () => {
    const t = await team("Answered Realty");
    const owner = await signInAs(t.owner);
    const name = `Answered Lead ${crypto.randomUUID().slice(0, 8)}`;
    await addPondLead(owner, name);
    const lead = await leadNamed(t.teamId, name);
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    const held = await leadNamed(t.teamId, name);
    await db()
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId: t.agentA.id, contactId: held.contactId, type: "call", occurredAt: new Date() });
    const reply = await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentB.id });
    expect(reply.status).toBe(409);
    expect(says(await reply.text(), LEAD_MESSAGES.answered)).toBe(true);
    expect(await db().select().from(contacts).where(eq(contacts.id, held.contactId!)).get()).toMatchObject({ userId: t.agentA.id });
  });
});

describe("handing over a removed member's work", () => {
  it("moves nothing when the teammate who should take it has left meanwhile", async () => {
    const t = await team("Handover Check Realty");
    const contactId = crypto.randomUUID();
    await db().insert(contacts).values({ id: contactId, userId: t.agentA.id, name: "Amara's Client" });
    // Bea leaves after the removal has read the members and before its batch is written.
    const context = requestContext({
      DB: changedBeforeNextBatch(env.DB, () =>
        db()
          .delete(teamMembers)
          .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentB.id))),
      ),
    });
    const owner = { id: t.owner.id as UserId, email: t.owner.email } as Parameters<typeof removeMember>[1];
    const refused = await removeMember(context, owner, t.agentA.id, t.agentB.id, "http://localhost", SYSTEM_WHERE);
    expect(refused).toMatchObject({ ok: false, message: TEAM_MESSAGES.notAMember });
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentB.id)).get()).toBeUndefined();
    expect(await db().select().from(contacts).where(eq(contacts.id, contactId)).get()).toMatchObject({ userId: t.agentA.id });
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toMatchObject({ teamId: t.teamId });
  });

  it("refuses, in the batch, a removal by an owner who is no longer the owner", async () => {
    const t = await team("Former Owner Realty");
    const contactId = crypto.randomUUID();
    await db().insert(contacts).values({ id: contactId, userId: t.agentA.id, name: "Amara's Other Client" });
    const context = requestContext();
    const owner = { id: t.owner.id as UserId, email: t.owner.email } as Parameters<typeof removeMember>[1];
    await getMembership(context, owner.id);
    // Ownership moved to the admin a moment ago (the request still holds the old membership).
    await db().batch([
      db()
        .update(teamMembers)
        .set({ role: "admin" })
        .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.owner.id))),
      db()
        .update(teamMembers)
        .set({ role: "owner" })
        .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.admin.id))),
      db().update(teams).set({ ownerId: t.admin.id }).where(eq(teams.id, t.teamId)),
    ]);
    const refused = await removeMember(context, owner, t.agentA.id, t.owner.id, "http://localhost", SYSTEM_WHERE);
    expect(refused.ok).toBe(false);
    expect(await db().select().from(contacts).where(eq(contacts.id, contactId)).get()).toMatchObject({ userId: t.agentA.id });
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toMatchObject({ role: "agent" });
  });
});

describe("shares and team pipeline moves", () => {
  it("does not share a deal with a teammate who has just left, nor let a former co-agent or manager move it", async () => {
    const t = await team("Share Check Realty");
    const dealId = crypto.randomUUID();
    await db()
      .insert(deals)
      .values(deal(t.agentA.id, { id: dealId, title: "Amara's Condo", stage: "showing", dealValueCents: 30_000_000, probability: 40 }));
    const amara = { id: t.agentA.id as UserId, email: t.agentA.email } as Parameters<typeof saveShare>[1];
    const context = requestContext();
    await listMembers(context, t.teamId);
    await getMembership(context, amara.id);
    await db()
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentB.id)));
    const form = new FormData();
    form.set("agent", t.agentB.id);
    form.set("sharePct", "30");
    expect(await saveShare(context, amara, dealId, form)).toMatchObject({ ok: false, status: 400 });
    expect(await db().select().from(dealShares).where(eq(dealShares.dealId, dealId))).toEqual([]);

    // A manager moving Amara's deal on the team pipeline, demoted as the move is written: the deal stays put.
    const adminContext = requestContext();
    const adminTeam = (await getMembership(adminContext, t.admin.id as UserId))!;
    await listMembers(adminContext, t.teamId);
    await db()
      .update(teamMembers)
      .set({ role: "agent" })
      .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.admin.id)));
    const move = new FormData();
    for (const [k, v] of Object.entries({ intent: "move", agent: t.agentA.id, id: dealId, stage: "offer" })) move.set(k, v);
    const moved = await moveTeamDeal(adminContext, { userId: t.admin.id as UserId, team: adminTeam }, move);
    expect(moved instanceof Response ? moved.status : (moved as { init?: { status?: number } }).init?.status).toBe(404);
    expect(await db().select({ stage: deals.stage }).from(deals).where(eq(deals.id, dealId)).get()).toEqual({ stage: "showing" });
  });
});

describe("closing an account in a team", () => {
  it("leaves the team at once, out of the rotation, and its unanswered leads are offered again", async () => {
    const t = await team("Closing Realty");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team/leads", { intent: "settings", mode: "round_robin", claimWindowMinutes: "15" })).status).toBe(302);
    // Only Amara and Bea take leads.
    for (const member of [t.owner.id, t.admin.id])
      expect((await owner.post("/team/leads", { intent: "availability", member, available: "false" })).status).toBe(302);
    const first = `Rotation One ${crypto.randomUUID().slice(0, 6)}`;
    const second = `Rotation Two ${crypto.randomUUID().slice(0, 6)}`;
    await addPondLead(owner, first);
    await addPondLead(owner, second);
    const both = await Promise.all([leadNamed(t.teamId, first), leadNamed(t.teamId, second)]);
    expect(both.map((l) => l.assignedTo).sort()).toEqual([t.agentA.id, t.agentB.id].sort());
    const amaras = both.find((l) => l.assignedTo === t.agentA.id)!;

    // Amara closes her account.
    const amara = await signInAs(t.agentA);
    const closed = await amara.post("/account/delete", { password: t.agentA.password });
    expect(closed.status).toBe(302);
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toBeUndefined();
    expect((await db().select({ purgeAfter: users.purgeAfter }).from(users).where(eq(users.id, t.agentA.id)).get())!.purgeAfter).not.toBeNull();
    // Her unanswered lead went to the next agent in the rotation (Bea), as a contact of Bea's.
    const reoffered = await db().select().from(teamLeads).where(eq(teamLeads.id, amaras.id)).get();
    expect(reoffered).toMatchObject({ state: "assigned", assignedTo: t.agentB.id });
    expect(await db().select().from(contacts).where(eq(contacts.id, reoffered!.contactId!)).get()).toMatchObject({ userId: t.agentB.id });
    // New leads go only to Bea now.
    const third = `Rotation Three ${crypto.randomUUID().slice(0, 6)}`;
    await addPondLead(owner, third);
    expect(await leadNamed(t.teamId, third)).toMatchObject({ assignedTo: t.agentB.id });
  });

  it("refuses to close an owner's account while the team has members, and changes nothing", async () => {
    const t = await team("Owner Closing Realty");
    await db().update(subscribers).set({ subscriptionStatus: "active" }).where(eq(subscribers.userId, t.owner.id));
    const owner = await signInAs(t.owner);
    const reply = await owner.post("/account/delete", { password: t.owner.password });
    expect(reply.status).toBe(400);
    expect(says(await reply.text(), TEAM_MESSAGES.ownerClosesWithMembers(3))).toBe(true);
    expect((await db().select({ purgeAfter: users.purgeAfter }).from(users).where(eq(users.id, t.owner.id)).get())!.purgeAfter).toBeNull();
    expect((await db().select().from(teamMembers).where(eq(teamMembers.teamId, t.teamId))).length).toBe(4);
    expect(await db().select({ status: subscribers.subscriptionStatus }).from(subscribers).where(eq(subscribers.userId, t.owner.id)).get()).toEqual({
      status: "active",
    });
    expect(
      await db()
        .select()
        .from(teams)
        .where(inArray(teams.id, [t.teamId])),
    ).toHaveLength(1);
  });
});
