import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, crmTasks, deals } from "~/db/schema";
import { createBackup } from "~/modules/backups/backup.server";
import { moveToTrash, restoreFromTrash } from "~/modules/trash/trash.server";
import { agentWithData } from "../factories/agent-data";
import { signInAs } from "../factories/browser";
import { runAgentRestore, runHandover } from "../factories/durable-jobs";
import { dayFromToday } from "../factories/dates";
import { deal, team } from "../factories/teams";
import { createUser } from "../factories/users";

// Restores put back what was there, linked as it was, in any order; and never link a row of one agent to another's
// (a teammate who took over the work since), nor take a teammate's rows.

const db = () => createDb(env.DB);

/** A contact with a deal, a call on the deal and a task on both: the links a delete undoes and a restore redoes. */
async function contactWithDeal(userId: string, name: string) {
  const contactId = crypto.randomUUID();
  const dealId = crypto.randomUUID();
  const callId = crypto.randomUUID();
  const taskId = crypto.randomUUID();
  await db().batch([
    db().insert(contacts).values({ id: contactId, userId, name }),
    db()
      .insert(deals)
      .values(deal(userId, { id: dealId, contactId, title: `${name}'s house`, stage: "showing", dealValueCents: 40_000_000, probability: 40 })),
    db().insert(crmActivities).values({ id: callId, userId, contactId, dealId, type: "call", occurredAt: new Date(), notes: "Talked terms" }),
    db()
      .insert(crmTasks)
      .values({ id: taskId, userId, contactId, dealId, title: `Send ${name} the comps`, dueDate: dayFromToday(2) }),
  ]);
  return { contactId, dealId, callId, taskId };
}

async function links(ids: Awaited<ReturnType<typeof contactWithDeal>>) {
  const [dealRow, call, task] = await Promise.all([
    db().select({ userId: deals.userId, contactId: deals.contactId }).from(deals).where(eq(deals.id, ids.dealId)).get(),
    db()
      .select({ userId: crmActivities.userId, contactId: crmActivities.contactId, dealId: crmActivities.dealId })
      .from(crmActivities)
      .where(eq(crmActivities.id, ids.callId))
      .get(),
    db()
      .select({ userId: crmTasks.userId, contactId: crmTasks.contactId, dealId: crmTasks.dealId })
      .from(crmTasks)
      .where(eq(crmTasks.id, ids.taskId))
      .get(),
  ]);
  return { deal: dealRow, call, task };
}

describe("restoring from the trash", () => {
  for (const order of [
    ["contact", "deal"],
    ["deal", "contact"],
  ] as const) {
    it(`links a contact, its deal, the call and the task again when restored ${order.join(" then ")} after deleting the contact, then the deal`, async () => {
      const user = await createUser(env.DB);
      const ids = await contactWithDeal(user.id, `Order ${order.join("-")}`);
      const whole = await links(ids);
      const [contactTrash] = (await moveToTrash(env.DB, user.id, "contact", [ids.contactId])).trashIds;
      const [dealTrash] = (await moveToTrash(env.DB, user.id, "deal", [ids.dealId])).trashIds;
      const trashOf = { contact: contactTrash!, deal: dealTrash! };
      for (const kind of order) expect((await restoreFromTrash(env.DB, user.id, [trashOf[kind]])).restored).toBe(1);
      expect(await links(ids)).toEqual(whole);
      expect(whole).toEqual({
        deal: { userId: user.id, contactId: ids.contactId },
        call: { userId: user.id, contactId: ids.contactId, dealId: ids.dealId },
        task: { userId: user.id, contactId: ids.contactId, dealId: ids.dealId },
      });
    });
  }

  it("never links a restored row to a teammate's: the work handed over stays the teammate's and unlinked", async () => {
    const t = await team("Trash Handover Realty");
    const first = await contactWithDeal(t.agentA.id, "Handed Buyer");
    const second = await contactWithDeal(t.agentA.id, "Handed Seller");
    // Amara deletes one contact (its deal stays, unlinked) and the other's deal (its contact stays).
    const [contactTrash] = (await moveToTrash(env.DB, t.agentA.id, "contact", [first.contactId])).trashIds;
    const [dealTrash] = (await moveToTrash(env.DB, t.agentA.id, "deal", [second.dealId])).trashIds;
    // She is removed and her work goes to Bea; her trash stays hers.
    const owner = await signInAs(t.owner);
    const { response, job } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect([response.status, job.status]).toEqual([302, "succeeded"]);
    expect((await db().select({ userId: deals.userId }).from(deals).where(eq(deals.id, first.dealId)).get())!.userId).toBe(t.agentB.id);
    expect((await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, second.contactId)).get())!.userId).toBe(t.agentB.id);

    // Amara restores both: they come back hers, linked to nothing of Bea's; Bea's rows are not linked to hers.
    expect((await restoreFromTrash(env.DB, t.agentA.id, [contactTrash!, dealTrash!])).restored).toBe(2);
    expect(await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, first.contactId)).get()).toEqual({
      userId: t.agentA.id,
    });
    expect(await db().select({ userId: deals.userId, contactId: deals.contactId }).from(deals).where(eq(deals.id, second.dealId)).get()).toEqual({
      userId: t.agentA.id,
      contactId: null,
    });
    expect(await db().select({ userId: deals.userId, contactId: deals.contactId }).from(deals).where(eq(deals.id, first.dealId)).get()).toEqual({
      userId: t.agentB.id,
      contactId: null,
    });
    expect(await db().select({ contactId: crmActivities.contactId }).from(crmActivities).where(eq(crmActivities.id, first.callId)).get()).toEqual({
      contactId: null,
    });
    expect(await db().select({ contactId: crmTasks.contactId }).from(crmTasks).where(eq(crmTasks.id, first.taskId)).get()).toEqual({
      contactId: null,
    });

    // Bea deletes the deal she took over: its key stays null (nothing of Amara's trash is read for Bea's rows).
    const [beaTrash] = (await moveToTrash(env.DB, t.agentB.id, "deal", [first.dealId])).trashIds;
    expect((await restoreFromTrash(env.DB, t.agentB.id, [beaTrash!])).restored).toBe(1);
    expect(await db().select({ userId: deals.userId, contactId: deals.contactId }).from(deals).where(eq(deals.id, first.dealId)).get()).toEqual({
      userId: t.agentB.id,
      contactId: null,
    });
  });
});

describe("restoring an agent from a backup", () => {
  it("keeps each contact's lead score time as it was, for contacts with deals and activities too", async () => {
    const agent = await agentWithData("Scored");
    const scoredAt = new Date(Date.now() - 3_600_000);
    await db().update(contacts).set({ leadScore: 72, leadScoredAt: scoredAt }).where(eq(contacts.userId, agent.user.id));
    const before = await db()
      .select({ id: contacts.id, score: contacts.leadScore, at: contacts.leadScoredAt })
      .from(contacts)
      .where(eq(contacts.userId, agent.user.id));
    expect(before.every((c) => c.at?.getTime() === scoredAt.getTime())).toBe(true);
    const backup = await createBackup(env, db(), "manual");
    await db().update(contacts).set({ leadScoredAt: null }).where(eq(contacts.userId, agent.user.id));
    const done = await runAgentRestore({ backupId: backup.id, userId: agent.user.id, requestedBy: null });
    expect(done.status).toBe("completed");
    const after = await db()
      .select({ id: contacts.id, score: contacts.leadScore, at: contacts.leadScoredAt })
      .from(contacts)
      .where(eq(contacts.userId, agent.user.id));
    expect(after.sort((a, b) => a.id.localeCompare(b.id))).toEqual(before.sort((a, b) => a.id.localeCompare(b.id)));
  }, 60_000);

  it("takes nothing of a teammate's and links nothing to it, after the agent's work was handed over", async () => {
    const t = await team("Restore Handover Realty");
    const handed = await contactWithDeal(t.agentA.id, "Restore Handed");
    const backup = await createBackup(env, db(), "manual");
    // Amara is removed and her work goes to Bea; later she is restored from the backup taken before.
    const owner = await signInAs(t.owner);
    const { response, job } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect([response.status, job.status]).toEqual([302, "succeeded"]);
    const beaBefore = await links(handed);
    expect(beaBefore.deal).toEqual({ userId: t.agentB.id, contactId: handed.contactId });
    const ownContact = crypto.randomUUID();
    await db().insert(contacts).values({ id: ownContact, userId: t.agentA.id, name: "Made After The Handover" });

    const done = await runAgentRestore({ backupId: backup.id, userId: t.agentA.id, requestedBy: null });
    expect(done).toMatchObject({ status: "completed", errorMessage: null });
    // Bea's rows are as they were and still hers; none of them came back as Amara's.
    expect(await links(handed)).toEqual(beaBefore);
    expect(await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, handed.contactId)).get()).toEqual({
      userId: t.agentB.id,
    });
    expect(await db().select().from(contacts).where(eq(contacts.userId, t.agentA.id))).toEqual([]);
  }, 60_000);
});
