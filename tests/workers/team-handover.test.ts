import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import {
  contacts,
  contactTags,
  crmActivities,
  crmTasks,
  deals,
  dealStageHistory,
  leadAlerts,
  properties,
  subscribers,
  teamLeads,
  teamMembers,
  teams,
} from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { fieldSync } from "~/modules/sync/field-copy.server";
import { TEAM_MESSAGES } from "~/modules/team/team.messages";
import { PLAN_CHANGE_MESSAGES } from "~/modules/billing/plan-change.server";
import { signInAs } from "../factories/browser";
import { fakeStripe, stripeEnv, type FakeRequest } from "../factories/stripe";
import { requestContext } from "../factories/context";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";
import { runHandover } from "../factories/durable-jobs";
import { bookOf, countersOf, version } from "../factories/handover";

// Handing over (ADR 0039): the owner removes a member and gives their work to a teammate, and the owner hands the team,
// with its bill, to a member who accepts.

const db = () => createDb(env.DB);
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");
const says = (text: string, message: string) => text.includes(message) || text.includes(escapeHtml(message));

describe("removing a member and giving their work to a teammate", () => {
  it("moves every row in place, keeps every counter, history and field copy right, and shows it only to the new agent", async () => {
    const t = await team("Handover Homes");
    const book = await bookOf(t.agentA.id, t.teamId, "Amara");
    const before = await countersOf(t.agentB.id);
    // Amara's phone holds her field copy; its cursor is taken before she is removed.
    const amaraCopy = await fieldSync(requestContext(), t.agentA.id as UserId, null);
    expect(amaraCopy.contacts.upsert.map((c) => c.id).sort()).toEqual([book.hot, book.warm].sort());
    const [amaraVersion, beaVersion] = await Promise.all([version(t.agentA.id), version(t.agentB.id)]);

    const owner = await signInAs(t.owner);
    const form = await owner.page("/team");
    expect(form).toContain("Amara Agent&#x27;s data");
    expect(form).toContain("Goes to Bea Agent");
    expect(form).toContain("Remove Amara Agent from the team…");
    // The removal answers at once; the handover's job moves the rows (ADR 0058) and says what it moved.
    const { response: removed, job } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect(removed.status).toBe(302);
    expect(job).toMatchObject({
      kind: "handover",
      status: "succeeded",
      error: null,
      // 2 contacts, 1 deal, 1 task, 1 activity, 1 property of interest, 1 lead alert and 1 team lead.
      done: 8,
      total: 8,
      result: "2 contacts, 1 deal, 1 task, 1 activity and 1 team lead moved.",
    });

    // The rows are Bea's now, with the same ids (links and timelines unchanged).
    expect(
      (
        await db()
          .select({ userId: contacts.userId })
          .from(contacts)
          .where(inArray(contacts.id, [book.hot, book.warm]))
      ).map((r) => r.userId),
    ).toEqual([t.agentB.id, t.agentB.id]);
    expect(await db().select({ userId: deals.userId, contactId: deals.contactId }).from(deals).where(eq(deals.id, book.dealId)).get()).toEqual({
      userId: t.agentB.id,
      contactId: book.warm,
    });
    expect(
      (await db().select({ userId: dealStageHistory.userId }).from(dealStageHistory).where(eq(dealStageHistory.dealId, book.dealId))).map(
        (r) => r.userId,
      ),
    ).toEqual([t.agentB.id]);
    expect((await db().select({ userId: crmTasks.userId }).from(crmTasks).where(eq(crmTasks.contactId, book.hot))).map((r) => r.userId)).toEqual([
      t.agentB.id,
    ]);
    expect(
      (await db().select({ userId: crmActivities.userId }).from(crmActivities).where(eq(crmActivities.contactId, book.hot))).map((r) => r.userId),
    ).toEqual([t.agentB.id]);
    expect(await db().select({ userId: leadAlerts.userId }).from(leadAlerts).where(eq(leadAlerts.contactId, book.hot)).get()).toEqual({
      userId: t.agentB.id,
    });
    // The home the lead asked about goes with the contact.
    expect(await db().select({ userId: properties.userId }).from(properties).where(eq(properties.contactId, book.hot)).get()).toEqual({
      userId: t.agentB.id,
    });
    // The team's record keeps who got the lead; it is held by Bea now.
    expect(
      await db().select({ to: teamLeads.assignedTo, heldBy: teamLeads.heldBy }).from(teamLeads).where(eq(teamLeads.contactId, book.hot)).get(),
    ).toEqual({ to: t.agentA.id, heldBy: t.agentB.id });
    expect(
      (await db().select({ tagOwner: contactTags.userId }).from(contactTags).where(eq(contactTags.contactId, book.hot))).map((r) => r.tagOwner),
    ).toEqual([t.agentB.id, t.agentB.id]);
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toBeUndefined();

    // Every counter agrees with the rows, for both agents; Bea's grew by Amara's two contacts.
    const [amara, bea] = await Promise.all([countersOf(t.agentA.id), countersOf(t.agentB.id)]);
    expect(amara.kept).toEqual({ status: {}, tags: {}, days: {} });
    expect(amara.counted).toEqual({ status: {}, tags: {}, days: {} });
    expect(bea.kept).toEqual(bea.counted);
    expect(bea.kept.status).toEqual({ ...before.kept.status, hot: (before.kept.status.hot ?? 0) + 1, warm: (before.kept.status.warm ?? 0) + 1 });
    expect(bea.kept.tags).toEqual({ ...before.kept.tags, relocation: 1, vip: 2 });
    // Both insight caches are stale, so neither agent's coach speaks from the old book.
    expect(await version(t.agentA.id)).toBeGreaterThan(amaraVersion);
    expect(await version(t.agentB.id)).toBeGreaterThan(beaVersion);

    // Amara's phone, syncing from its cursor, drops both contacts and the task; Bea's copy has them.
    const amaraNext = await fieldSync(requestContext(), t.agentA.id as UserId, amaraCopy.cursor);
    expect(amaraNext.full).toBe(false);
    expect(amaraNext.contacts.remove.sort()).toEqual([book.hot, book.warm].sort());
    expect(amaraNext.contacts.upsert).toEqual([]);
    expect(amaraNext.tasks.remove).toHaveLength(1);
    const beaCopy = await fieldSync(requestContext(), t.agentB.id as UserId, null);
    expect(beaCopy.contacts.upsert.map((c) => c.id)).toEqual(expect.arrayContaining([book.hot, book.warm]));
    expect(beaCopy.deals!.all.map((d) => d.id)).toContain(book.dealId);

    // Bea finds them in her contacts, search, pipeline and tasks; Amara (Solo again, with a plan of her own) does not.
    const bea2 = await signInAs(t.agentB);
    expect(await bea2.page(`/contacts/${book.hot}`)).toContain("Amara Buyer");
    expect(await bea2.page("/contacts?q=Amara")).toContain("Amara Seller");
    expect(await bea2.page("/pipeline")).toContain("Amara&#x27;s listing");
    expect(await bea2.page("/tasks")).toContain("Call Amara Buyer back");
    await db().insert(subscribers).values({ userId: t.agentA.id, email: t.agentA.email, subscriptionStatus: "active" });
    const amaraBrowser = await signInAs(t.agentA);
    expect((await amaraBrowser.fetch(`/contacts/${book.hot}`)).status).toBe(404);
    expect(await amaraBrowser.page("/contacts")).not.toContain("Amara Buyer");
  });

  it("is the owner's choice alone, among the team's members; a refused removal changes nothing", async () => {
    const t = await team("Choosy Realty");
    const book = await bookOf(t.agentA.id, t.teamId, "Ama");
    const outsider = await createUser(env.DB);
    const owner = await signInAs(t.owner);
    const admin = await signInAs(t.admin);
    const unchanged = async () => {
      expect(await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, book.hot)).get()).toEqual({ userId: t.agentA.id });
      expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toBeTruthy();
    };

    // The admin can remove an agent, but only keeping their data with them; their form has no choice of it.
    expect(await admin.page("/team")).not.toContain("data on removal");
    const byAdmin = await admin.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id });
    expect(byAdmin.status).toBe(400);
    expect(says(await byAdmin.text(), TEAM_MESSAGES.ownerReassigns)).toBe(true);
    await unchanged();
    // Nobody outside the team, and not the member being removed, takes the data.
    for (const reassignTo of [outsider.id, t.agentA.id, "x".repeat(65)]) {
      const refused = await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo });
      expect(refused.status).toBe(400);
      await unchanged();
    }
    // "Stays theirs" (an empty choice) is the removal as before: Amara keeps her book.
    expect((await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: "" })).status).toBe(302);
    expect(await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, book.hot)).get()).toEqual({ userId: t.agentA.id });
    expect(await db().select().from(teamMembers).where(eq(teamMembers.userId, t.agentA.id)).get()).toBeUndefined();
    const amara = await countersOf(t.agentA.id);
    expect(amara.kept).toEqual(amara.counted);
  });
});

describe("transferring ownership", () => {
  const teamOf = (teamId: string) => db().select().from(teams).where(eq(teams.id, teamId)).get();
  const roleOf = async (userId: string) =>
    (await db().select({ role: teamMembers.role }).from(teamMembers).where(eq(teamMembers.userId, userId)).get())?.role;
  const subscriberOf = (userId: string) => db().select().from(subscribers).where(eq(subscribers.userId, userId)).get();

  it("offers the team to a member, who takes its bill on accepting; the former owner stays as an admin", async () => {
    const t = await team("Passing Torch");
    const owner = await signInAs(t.owner);
    expect(await owner.page("/team")).toContain("Transfer ownership");
    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.agentA.id })).status).toBe(302);
    expect((await teamOf(t.teamId))!.pendingOwnerId).toBe(t.agentA.id);
    expect(await owner.page("/team")).toContain("Waiting for their answer");

    // Amara has no subscription of her own: she is asked to start one, and checkout is open to her for that.
    const amara = await signInAs(t.agentA);
    const offered = await amara.page("/team");
    expect(says(offered, "Olu Okafor offers you ownership of Passing Torch.")).toBe(true);
    expect(offered).toContain("Start your subscription");
    const early = await amara.post("/team", { intent: "accept-ownership" });
    expect(early.status).toBe(400);
    expect(says(await early.text(), TEAM_MESSAGES.ownerNeedsSubscription)).toBe(true);
    const checkout = await amara.fetch("/trial/start");
    expect(checkout.status).toBe(200);
    expect(says(await checkout.text(), "You have been offered your team's ownership.")).toBe(true);
    // Bea, not offered anything, is sent on as before; she cannot accept Amara's offer either.
    const bea = await signInAs(t.agentB);
    expect((await bea.fetch("/trial/start")).headers.get("Location")).toBe("/dashboard");
    expect(await bea.page("/team")).not.toContain("offers you ownership");
    expect((await bea.post("/team", { intent: "accept-ownership" })).status).toBe(400);

    // With her own subscription (as checkout leaves it), she accepts.
    await db().insert(subscribers).values({ userId: t.agentA.id, email: t.agentA.email, subscriptionStatus: "active", plan: "solo", seats: 1 });
    expect((await amara.post("/team", { intent: "accept-ownership" })).status).toBe(302);
    expect(await teamOf(t.teamId)).toMatchObject({ ownerId: t.agentA.id, pendingOwnerId: null });
    expect([await roleOf(t.agentA.id), await roleOf(t.owner.id)]).toEqual(["owner", "admin"]);
    expect(await subscriberOf(t.agentA.id)).toMatchObject({ plan: "team", seats: 4, subscriptionStatus: "active", cancelAtPeriodEnd: false });
    expect(await subscriberOf(t.owner.id)).toMatchObject({ subscriptionStatus: "active", cancelAtPeriodEnd: true });

    // The new owner runs the team and its billing; the former owner works on the team's seat, as an admin.
    const amaraTeam = await amara.page("/team");
    expect(amaraTeam).toContain("Transfer ownership");
    expect(amaraTeam).toContain("4 seats paid");
    expect(await amara.page("/settings?tab=billing")).toContain("Manage the team");
    const formerOwner = await owner.page("/settings?tab=billing");
    expect(formerOwner).toContain("The team&#x27;s owner pays for your seat");
    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.agentB.id })).status).toBe(400);
    expect((await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentB.id })).status).toBe(302);
    expect((await subscriberOf(t.agentA.id))!.seats).toBe(3);
  });

  it("only the owner offers, only to a member; declining, withdrawing and removal end an offer", async () => {
    const t = await team("Staying Put");
    const other = await team("Elsewhere");
    const owner = await signInAs(t.owner);
    const admin = await signInAs(t.admin);
    const refusedOffer = await admin.post("/team", { intent: "offer-ownership", memberId: t.agentA.id });
    expect(refusedOffer.status).toBe(400);
    expect(says(await refusedOffer.text(), TEAM_MESSAGES.ownerOnly)).toBe(true);
    for (const memberId of [other.agentA.id, t.owner.id, ""])
      expect((await owner.post("/team", { intent: "offer-ownership", memberId })).status).toBe(400);
    expect((await teamOf(t.teamId))!.pendingOwnerId).toBeNull();

    // Declined by the member.
    await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id });
    expect(await admin.page("/team")).toContain("offers you ownership");
    expect((await admin.post("/team", { intent: "decline-ownership" })).status).toBe(302);
    expect((await teamOf(t.teamId))!.pendingOwnerId).toBeNull();
    expect((await admin.post("/team", { intent: "decline-ownership" })).status).toBe(400);
    // Withdrawn by the owner: the member can no longer accept, even with a subscription.
    await db().insert(subscribers).values({ userId: t.admin.id, email: t.admin.email, subscriptionStatus: "active" });
    await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id });
    expect((await owner.post("/team", { intent: "withdraw-offer" })).status).toBe(302);
    expect((await admin.post("/team", { intent: "accept-ownership" })).status).toBe(400);
    expect(await teamOf(t.teamId)).toMatchObject({ ownerId: t.owner.id, pendingOwnerId: null });
    // The offered member removed: the offer goes with them.
    await owner.post("/team", { intent: "offer-ownership", memberId: t.agentB.id });
    expect((await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentB.id })).status).toBe(302);
    expect((await teamOf(t.teamId))!.pendingOwnerId).toBeNull();
    // Another team's owner withdrawing "their" offer does not touch this team's.
    await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id });
    expect((await (await signInAs(other.owner)).post("/team", { intent: "withdraw-offer" })).status).toBe(302);
    expect((await teamOf(t.teamId))!.pendingOwnerId).toBe(t.admin.id);
    expect((await subscriberOf(t.owner.id))!.cancelAtPeriodEnd).toBe(false);
  });

  describe("in Stripe (the local fake)", () => {
    /** A team whose owner pays for 4 seats in Stripe, and whose agent Amara has a Solo subscription there. */
    async function stripeTeam(name: string) {
      const t = await team(name);
      const key = (id: string) => id.slice(0, 8).replace(/-/g, "");
      const [ownerSub, amaraSub] = [`sub_own${key(t.owner.id)}`, `sub_new${key(t.agentA.id)}`];
      await fakeStripe(`/__fake/subscriptions/${ownerSub}`, {
        customer: `cus_own${key(t.owner.id)}`,
        price: "price_team_monthly",
        quantity: 4,
        metadata: { userId: t.owner.id, plan: "team" },
      });
      await fakeStripe(`/__fake/subscriptions/${amaraSub}`, {
        customer: `cus_new${key(t.agentA.id)}`,
        price: "price_solo_monthly",
        quantity: 1,
        metadata: { userId: t.agentA.id, plan: "solo" },
      });
      await db().batch([
        db()
          .update(subscribers)
          .set({ stripeCustomerId: `cus_own${key(t.owner.id)}`, stripeSubscriptionId: ownerSub, billingPeriod: "monthly" })
          .where(eq(subscribers.userId, t.owner.id)),
        db()
          .insert(subscribers)
          .values({
            userId: t.agentA.id,
            email: t.agentA.email,
            subscriptionStatus: "active",
            plan: "solo",
            seats: 1,
            stripeCustomerId: `cus_new${key(t.agentA.id)}`,
            stripeSubscriptionId: amaraSub,
            billingPeriod: "monthly",
          }),
      ]);
      const owner = (await signInAs(t.owner)).using(stripeEnv());
      const amara = (await signInAs(t.agentA)).using(stripeEnv());
      expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.agentA.id })).status).toBe(302);
      return { t, owner, amara, ownerSub, amaraSub };
    }
    const updatesOf = async (subscription: string) =>
      (await fakeStripe<FakeRequest[]>("/__fake/requests"))
        .filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscription}`)
        .map((r) => r.body);

    it("moves the seats to the new owner's subscription at the next cycle and ends the former owner's at the period's end", async () => {
      const { t, amara, ownerSub, amaraSub } = await stripeTeam("Stripe Torch");
      expect((await amara.post("/team", { intent: "accept-ownership" })).status).toBe(302);
      expect(await updatesOf(amaraSub)).toEqual([
        expect.objectContaining({
          "items[0][price]": "price_team_monthly",
          "items[0][quantity]": "4",
          proration_behavior: "none",
          "metadata[plan]": "team",
        }),
      ]);
      expect(await updatesOf(ownerSub)).toEqual([expect.objectContaining({ cancel_at_period_end: "true" })]);
      expect(await subscriberOf(t.agentA.id)).toMatchObject({ plan: "team", seats: 4, cancelAtPeriodEnd: false });
      expect(await subscriberOf(t.owner.id)).toMatchObject({ plan: "team", cancelAtPeriodEnd: true });
      expect([await roleOf(t.agentA.id), await roleOf(t.owner.id)]).toEqual(["owner", "admin"]);
    });

    it("undoes the new owner's change when Stripe refuses to end the former owner's subscription: nothing changes", async () => {
      const { t, amara, ownerSub, amaraSub } = await stripeTeam("Stripe Stuck");
      await fakeStripe(`/__fake/subscriptions/${ownerSub}/failing`, { fail: true });
      const refused = await amara.post("/team", { intent: "accept-ownership" });
      expect(refused.status).toBe(400);
      expect(says(await refused.text(), PLAN_CHANGE_MESSAGES.stripeDown)).toBe(true);
      const [taken, undone] = await updatesOf(amaraSub);
      expect(taken).toMatchObject({ "items[0][price]": "price_team_monthly", "items[0][quantity]": "4" });
      expect(undone).toMatchObject({ "items[0][price]": "price_solo_monthly", "items[0][quantity]": "1", "metadata[plan]": "solo" });
      expect(await subscriberOf(t.agentA.id)).toMatchObject({ plan: "solo", seats: 1 });
      expect(await subscriberOf(t.owner.id)).toMatchObject({ plan: "team", cancelAtPeriodEnd: false });
      expect(await teamOf(t.teamId)).toMatchObject({ ownerId: t.owner.id, pendingOwnerId: t.agentA.id });
      expect([await roleOf(t.agentA.id), await roleOf(t.owner.id)]).toEqual(["agent", "owner"]);
      await fakeStripe(`/__fake/subscriptions/${ownerSub}/failing`, { fail: false });
    });
  });
});
