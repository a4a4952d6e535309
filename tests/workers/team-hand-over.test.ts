import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { auditEvents, contacts, dealShares, deals, teamMembers } from "~/db/schema";
import { TEAM_MESSAGES } from "~/modules/team/team.messages";
import { signInAs } from "../factories/browser";
import { runHandover } from "../factories/durable-jobs";
import { bookOf } from "../factories/handover";
import { team } from "../factories/teams";

// Handing a member's work to a teammate while they stay on the team (a vacation, a leave): the removal's handover job
// without the removal. Only the owner; the dialog says what moves first; the member keeps their seat and role.

const db = () => createDb(env.DB);

describe("handing a member's work over while they stay", () => {
  it("moves their book to the teammate, keeps them on the team, and writes one audit row", async () => {
    const t = await team("Vacation Homes");
    const book = await bookOf(t.agentA.id, t.teamId, "Amara");
    await db().insert(dealShares).values({ dealId: book.dealId, ownerId: t.agentA.id, agentId: t.admin.id, sharePct: 30 });
    const owner = await signInAs(t.owner);
    const page = await owner.page("/team");
    expect(page).toContain("Hand over Amara Agent&#x27;s work…");
    const { response, job } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "hand-over", confirm: "yes", memberId: t.agentA.id, to: t.agentB.id }),
    );
    expect(response.status).toBe(302);
    expect(job).toMatchObject({ kind: "handover", status: "succeeded", result: "2 contacts, 1 deal, 1 task, 1 activity and 1 team lead moved." });
    const moved = await db()
      .select({ userId: contacts.userId })
      .from(contacts)
      .where(inArray(contacts.id, [book.hot, book.warm]));
    expect(moved.map((r) => r.userId)).toEqual([t.agentB.id, t.agentB.id]);
    expect((await db().select({ userId: deals.userId }).from(deals).where(eq(deals.id, book.dealId)).get())?.userId).toBe(t.agentB.id);
    // Amara stays, with her role; the share on the deal that moved is gone, as the dialog says.
    expect(
      await db()
        .select({ role: teamMembers.role })
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentA.id)))
        .get(),
    ).toEqual({ role: "agent" });
    expect(await db().select().from(dealShares).where(eq(dealShares.dealId, book.dealId))).toEqual([]);
    const audit = await db().select().from(auditEvents).where(eq(auditEvents.teamId, t.teamId));
    expect(audit.map((a) => [a.action, a.actorId, a.subjectUserId, a.targetId, a.details])).toEqual([
      ["team.handover", t.owner.id, t.agentA.id, t.agentB.id, { stays: true }],
    ]);
  });

  it("is the owner's alone, needs the dialog's confirmation, a teammate to take it, and one at a time", async () => {
    const t = await team("Guarded Homes");
    const book = await bookOf(t.agentA.id, t.teamId, "Amara");
    const admin = await signInAs(t.admin);
    expect(await admin.page("/team")).not.toContain("Hand over Amara Agent");
    const byAdmin = await admin.post("/team", { intent: "hand-over", confirm: "yes", memberId: t.agentA.id, to: t.agentB.id });
    expect(byAdmin.status).toBe(400);
    expect(await byAdmin.text()).toContain(TEAM_MESSAGES.ownerOnly.replace(/'/g, "&#x27;"));
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "hand-over", memberId: t.agentA.id, to: t.agentB.id })).status).toBe(400);
    expect((await owner.post("/team", { intent: "hand-over", confirm: "yes", memberId: t.agentA.id, to: t.agentA.id })).status).toBe(400);
    const other = await team("Elsewhere Homes");
    expect((await owner.post("/team", { intent: "hand-over", confirm: "yes", memberId: t.agentA.id, to: other.agentA.id })).status).toBe(400);
    expect((await owner.post("/team", { intent: "hand-over", confirm: "yes", memberId: other.agentA.id, to: t.agentB.id })).status).toBe(400);
    expect((await db().select({ userId: contacts.userId }).from(contacts).where(eq(contacts.id, book.hot)).get())?.userId).toBe(t.agentA.id);
    expect(await db().select().from(auditEvents).where(eq(auditEvents.teamId, t.teamId))).toEqual([]);
  });
});
