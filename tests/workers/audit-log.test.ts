import { env } from "cloudflare:workers";
import { and, asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { auditEvents, contacts, teamInvitations, teamLeads, teamMembers, teams, trashItems, users } from "~/db/schema";
import { LOCKOUT_THRESHOLD } from "~/modules/auth/lockout.server";
import { SIGN_OUT_EVERYWHERE_CONFIRM } from "~/modules/auth/auth.schema";
import type { Env } from "~/lib/env.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { linkFromLatestEmail } from "../factories/mail";
import { runHandover } from "../factories/durable-jobs";
import { team } from "../factories/teams";
import { createUser, uniqueEmail } from "../factories/users";

// The audit log (ADR 0073): every audited action writes exactly one row, in the action's own batch where it is one, with
// who did it, to whom, to what and from where; an action refused or failed writes none.

const db = () => createDb(env.DB);
const INVITES_ON = { ...(env as Env), FEATURE_FLAGS: "TEAM_INVITES=on" } as Env;
const teamRows = (teamId: string) => db().select().from(auditEvents).where(eq(auditEvents.teamId, teamId)).orderBy(asc(auditEvents.createdAt));
const rowsOf = (teamId: string, action: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.teamId, teamId), eq(auditEvents.action, action as never)));

describe("team actions in the audit log", () => {
  it("a role change writes one row with who, whom, from → to and where; a refused one writes none", async () => {
    const t = await team("Audit Roles Realty");
    const owner = await signInAs(t.owner);
    const changed = await owner.fetch("/team", {
      method: "POST",
      headers: {
        Origin: "http://localhost",
        "Content-Type": "application/x-www-form-urlencoded",
        "User-Agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36",
      },
      body: new URLSearchParams({ intent: "role", memberId: t.admin.id, role: "agent" }).toString(),
    });
    expect(changed.status).toBe(302);
    const rows = await teamRows(t.teamId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: "team.role_changed",
      actorId: t.owner.id,
      actorLabel: "Olu Okafor",
      subjectUserId: t.admin.id,
      subjectLabel: "Ada Admin",
      details: { from: "admin", to: "agent" },
      ip: owner.ip,
    });
    expect(rows[0]!.userAgent).toContain("Chrome/126.0");

    // The same role again changes nothing and writes nothing; an admin may not change roles; the owner's own role stays.
    expect((await owner.post("/team", { intent: "role", memberId: t.admin.id, role: "agent" })).status).toBe(302);
    const agent = await signInAs(t.agentA);
    expect((await agent.post("/team", { intent: "role", memberId: t.agentB.id, role: "admin" })).status).toBe(400);
    expect((await owner.post("/team", { intent: "role", memberId: t.owner.id, role: "agent" })).status).toBe(400);
    expect(await teamRows(t.teamId)).toHaveLength(1);
  });

  it("invitations: sent, sent again, withdrawn and accepted each write one row; a second withdrawal writes none", async () => {
    const owner = await createUser(env.DB);
    const browser = (await signInAs(owner)).using(INVITES_ON);
    expect((await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "Audit Invites" })).status).toBe(302);
    const teamId = (await db().select().from(teams).where(eq(teams.ownerId, owner.id)).get())!.id;
    const [plan] = await rowsOf(teamId, "billing.plan_changed");
    expect(plan).toMatchObject({ actorId: owner.id, subjectUserId: owner.id, details: { from: "Solo Agent", to: "Team", seats: 2 } });

    const email = uniqueEmail("invitee");
    expect((await browser.post("/team", { intent: "invite", email, role: "agent" })).status).toBe(302);
    const sent = await rowsOf(teamId, "team.invitation_sent");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ actorId: owner.id, targetType: "invitation", targetLabel: email.toLowerCase(), details: { role: "agent" } });

    const other = uniqueEmail("withdrawn");
    expect((await browser.post("/team", { intent: "invite", email: other, role: "admin" })).status).toBe(302);
    const invitation = (await db().select().from(teamInvitations).where(eq(teamInvitations.email, other.toLowerCase())).get())!;
    expect((await browser.post("/team", { intent: "revoke", invitationId: invitation.id })).status).toBe(302);
    expect((await browser.post("/team", { intent: "revoke", invitationId: invitation.id })).status).toBe(400);
    const revoked = await rowsOf(teamId, "team.invitation_revoked");
    expect(revoked).toHaveLength(1);
    expect(revoked[0]).toMatchObject({ actorId: owner.id, targetId: invitation.id, targetLabel: other.toLowerCase(), details: { role: "admin" } });

    const link = await linkFromLatestEmail(env.DB, email);
    const user = await createUser(env.DB, { email, status: null });
    const joiner = (await signInAs(user)).using(INVITES_ON);
    expect((await joiner.post(link, {})).status).toBe(302);
    const joined = await rowsOf(teamId, "team.member_joined");
    expect(joined).toHaveLength(1);
    expect(joined[0]).toMatchObject({ actorId: user.id, subjectUserId: user.id, details: { role: "agent" }, ip: joiner.ip });
    // Used once: a second try writes nothing.
    expect((await joiner.post(link, {})).status).toBe(400);
    expect(await rowsOf(teamId, "team.member_joined")).toHaveLength(1);
    expect((await teamRows(teamId)).map((r) => r.action)).toEqual([
      "billing.plan_changed",
      "team.invitation_sent",
      "team.invitation_sent",
      "team.invitation_revoked",
      "team.member_joined",
    ]);
  });

  it("a removal writes one row; with a handover one more; a member leaving writes one; a refused removal none", async () => {
    const t = await team("Audit Removals");
    const owner = await signInAs(t.owner);
    const admin = await signInAs(t.admin);
    // An admin may not remove the owner's admin peer: refused, nothing written.
    expect((await admin.post("/team", { intent: "remove", confirm: "yes", memberId: t.owner.id })).status).toBe(400);
    expect(await teamRows(t.teamId)).toHaveLength(0);

    const { response } = await runHandover(t.agentA.id, () =>
      owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id, reassignTo: t.agentB.id }),
    );
    expect(response.status).toBe(302);
    const removed = await rowsOf(t.teamId, "team.member_removed");
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ actorId: t.owner.id, subjectUserId: t.agentA.id, subjectLabel: "Amara Agent", details: { role: "agent" } });
    const handover = await rowsOf(t.teamId, "team.handover");
    expect(handover).toHaveLength(1);
    expect(handover[0]).toMatchObject({
      actorId: t.owner.id,
      subjectUserId: t.agentA.id,
      targetType: "user",
      targetId: t.agentB.id,
      targetLabel: "Bea Agent",
    });

    const bea = await signInAs(t.agentB);
    expect((await bea.post("/team", { intent: "leave" })).status).toBe(302);
    const left = await rowsOf(t.teamId, "team.member_left");
    expect(left).toHaveLength(1);
    expect(left[0]).toMatchObject({ actorId: t.agentB.id, subjectUserId: t.agentB.id, details: { role: "agent" } });
    // Removing someone no longer in the team is refused and writes nothing.
    expect((await owner.post("/team", { intent: "remove", confirm: "yes", memberId: t.agentA.id })).status).toBe(400);
    expect(await teamRows(t.teamId)).toHaveLength(3);
  });

  it("renaming, ownership offered and taken over each write one row", async () => {
    const t = await team("Audit Ownership");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "rename", name: "Audit Ownership Two" })).status).toBe(302);
    expect(await rowsOf(t.teamId, "team.renamed")).toEqual([
      expect.objectContaining({ actorId: t.owner.id, details: { from: "Audit Ownership", to: "Audit Ownership Two" } }),
    ]);
    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id })).status).toBe(302);
    expect(await rowsOf(t.teamId, "team.ownership_offered")).toEqual([expect.objectContaining({ actorId: t.owner.id, subjectUserId: t.admin.id })]);
    const admin = await signInAs(t.admin);
    // The admin has no subscription of their own yet: refused, nothing written.
    expect((await admin.post("/team", { intent: "accept-ownership" })).status).toBe(400);
    expect(await rowsOf(t.teamId, "team.ownership_transferred")).toHaveLength(0);
  });

  it("an offer withdrawn and an offer declined write one row each; a second withdrawal or decline writes none", async () => {
    const t = await team("Audit Offers");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.admin.id })).status).toBe(302);
    expect((await owner.post("/team", { intent: "withdraw-offer" })).status).toBe(302);
    expect((await owner.post("/team", { intent: "withdraw-offer" })).status).toBe(302);
    expect((await rowsOf(t.teamId, "team.ownership_withdrawn")).map((r) => [r.actorId, r.subjectUserId, r.subjectLabel])).toEqual([
      [t.owner.id, t.admin.id, "Ada Admin"],
    ]);
    expect((await db().select().from(teams).where(eq(teams.id, t.teamId)).get())?.pendingOwnerId).toBeNull();

    expect((await owner.post("/team", { intent: "offer-ownership", memberId: t.agentA.id })).status).toBe(302);
    const amara = await signInAs(t.agentA);
    // Someone the offer is not for cannot decline it.
    expect((await (await signInAs(t.agentB)).post("/team", { intent: "decline-ownership" })).status).toBe(400);
    expect((await amara.post("/team", { intent: "decline-ownership" })).status).toBe(302);
    expect((await amara.post("/team", { intent: "decline-ownership" })).status).toBe(400);
    expect((await rowsOf(t.teamId, "team.ownership_declined")).map((r) => [r.actorId, r.subjectUserId, r.actorLabel])).toEqual([
      [t.agentA.id, t.agentA.id, "Amara Agent"],
    ]);
    expect((await db().select().from(teams).where(eq(teams.id, t.teamId)).get())?.pendingOwnerId).toBeNull();
  });
});

describe("lead assignment and team settings in the audit log", () => {
  it("a manager's assignment and reassignment write one row each; settings saves write one row listing what changed", async () => {
    const t = await team("Audit Leads");
    const owner = await signInAs(t.owner);
    const add = await owner.post("/team/leads", { intent: "add", name: "Pond Lead", email: `${crypto.randomUUID()}@example.com`, source: "website" });
    expect(add.status).toBe(302);
    const lead = (await db()
      .select()
      .from(teamLeads)
      .where(and(eq(teamLeads.teamId, t.teamId), eq(teamLeads.name, "Pond Lead")))
      .get())!;
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(302);
    expect(await rowsOf(t.teamId, "lead.assigned")).toEqual([
      expect.objectContaining({ actorId: t.owner.id, subjectUserId: t.agentA.id, targetType: "lead", targetId: lead.id, targetLabel: "Pond Lead" }),
    ]);
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentB.id })).status).toBe(302);
    expect(await rowsOf(t.teamId, "lead.reassigned")).toEqual([
      expect.objectContaining({ actorId: t.owner.id, subjectUserId: t.agentB.id, targetId: lead.id, details: { from: "Amara Agent" } }),
    ]);
    // To the agent who has it already: refused, nothing written. An agent cannot assign.
    expect((await owner.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentB.id })).status).toBe(409);
    const agent = await signInAs(t.agentA);
    expect((await agent.post("/team/leads", { intent: "assign", lead: lead.id, agent: t.agentA.id })).status).toBe(403);
    expect(await rowsOf(t.teamId, "lead.assigned")).toHaveLength(1);
    expect(await rowsOf(t.teamId, "lead.reassigned")).toHaveLength(1);

    expect((await owner.post("/team/leads", { intent: "settings", mode: "claim", claimWindowMinutes: "30" })).status).toBe(302);
    expect((await owner.post("/team/leads", { intent: "settings", mode: "claim", claimWindowMinutes: "30" })).status).toBe(302);
    expect((await owner.post("/team/leads", { intent: "form-on" })).status).toBe(302);
    const settings = await rowsOf(t.teamId, "team.settings_changed");
    expect(settings.map((r) => r.details)).toEqual([
      {
        changes: [
          { setting: "lead mode", from: "Keep them in the pond", to: "First to claim" },
          { setting: "claim window", from: "15 minutes", to: "30 minutes" },
        ],
      },
      { changes: [{ setting: "lead form", from: "off", to: "on" }] },
    ]);
    expect(settings[0]).toMatchObject({ actorId: t.owner.id, actorLabel: "Olu Okafor" });
  });
});

describe("memberships the batch refuses", () => {
  it("writes no row when the role changed under a stale page", async () => {
    const t = await team("Audit Stale");
    await db()
      .update(teamMembers)
      .set({ role: "owner" })
      .where(and(eq(teamMembers.teamId, t.teamId), eq(teamMembers.userId, t.agentA.id)));
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "role", memberId: t.agentA.id, role: "admin" })).status).toBe(400);
    expect(await teamRows(t.teamId)).toHaveLength(0);
  });
});

describe("records, exports and security events in the audit log", () => {
  it("a delete to the trash and a restore write one row each, in the member's team's log; none when nothing moved", async () => {
    const t = await team("Audit Trash");
    const id = crypto.randomUUID();
    await db().insert(contacts).values({ id, userId: t.agentA.id, name: "Trashed Tina" });
    const agent = await signInAs(t.agentA);
    expect((await agent.post(`/contacts/${id}`, { intent: "delete" })).status).toBe(302);
    const deleted = await rowsOf(t.teamId, "record.deleted");
    expect(deleted).toEqual([
      expect.objectContaining({
        actorId: t.agentA.id,
        actorLabel: "Amara Agent",
        targetId: id,
        targetLabel: "Trashed Tina",
        details: { kind: "contact", count: 1 },
      }),
    ]);
    // Already gone: 404, nothing written.
    expect((await agent.post(`/contacts/${id}`, { intent: "delete" })).status).toBe(404);
    const trashId = (await db().select().from(trashItems).where(eq(trashItems.itemId, id)).get())!.id;
    expect((await agent.post("/settings/trash", { intent: "restore", id: trashId })).status).toBe(200);
    expect((await agent.post("/settings/trash", { intent: "restore", id: trashId })).status).toBe(404);
    expect(await rowsOf(t.teamId, "record.restored")).toEqual([
      expect.objectContaining({ actorId: t.agentA.id, details: { kind: "contact", count: 1 } }),
    ]);
    expect(await rowsOf(t.teamId, "record.deleted")).toHaveLength(1);
  });

  it("each export writes one row: in the team's log for a member, on the agent's own page for a Solo agent", async () => {
    const t = await team("Audit Exports");
    const agent = await signInAs(t.agentA);
    expect((await agent.get("/settings/export/deals.csv")).status).toBe(200);
    expect((await agent.post("/settings/export.json", { category: "contacts" })).status).toBe(200);
    expect((await agent.get("/settings/export/nothing.csv")).status).toBe(404);
    expect((await rowsOf(t.teamId, "data.exported")).map((r) => [r.actorId, r.targetLabel])).toEqual([
      [t.agentA.id, "deals (CSV)"],
      [t.agentA.id, "Contacts (JSON)"],
    ]);
    const solo = await createUser(env.DB);
    const browser = await signInAs(solo);
    expect((await browser.get("/contacts/export.csv")).status).toBe(200);
    const own = await db()
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.subjectUserId, solo.id), eq(auditEvents.action, "data.exported")));
    expect(own).toEqual([expect.objectContaining({ teamId: null, actorId: solo.id, targetLabel: "contacts (CSV)" })]);
  });

  it("sign-ins, failures, the lockout, a new device, password change and sign out everywhere: one row each, the user's own", async () => {
    const user = await createUser(env.DB);
    const own = async (action: string) =>
      db()
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.subjectUserId, user.id), eq(auditEvents.action, action as never)));
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0";
    const signIn = (browser: TestBrowser, password: string, ua = firefox) =>
      browser.fetch("/auth", {
        method: "POST",
        headers: { Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded", "User-Agent": ua },
        body: new URLSearchParams({ mode: "signin", email: user.email, password, website_url: "" }).toString(),
      });
    const laptop = new TestBrowser();
    expect((await signIn(laptop, user.password)).status).toBe(302);
    expect(await own("account.signed_in")).toEqual([expect.objectContaining({ teamId: null, actorId: user.id, ip: laptop.ip })]);
    // The same browser again: a sign-in, not a new device. Another browser: a new device, one row only.
    expect((await signIn(new TestBrowser(), user.password)).status).toBe(302);
    expect(await own("account.signed_in")).toHaveLength(2);
    const safari =
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
    expect((await signIn(new TestBrowser(), user.password, safari)).status).toBe(302);
    expect(await own("account.new_device")).toHaveLength(1);
    expect(await own("account.signed_in")).toHaveLength(2);

    const wrong = new TestBrowser();
    expect((await signIn(wrong, "not the password")).status).toBe(401);
    expect(await own("account.sign_in_failed")).toEqual([expect.objectContaining({ teamId: null, ip: wrong.ip })]);
    // The failure that reaches the threshold locks the account: one row saying so, not a failure as well.
    await db()
      .update(users)
      .set({ failedSigninCount: LOCKOUT_THRESHOLD - 1 })
      .where(eq(users.id, user.id));
    expect((await signIn(new TestBrowser(), "not the password")).status).toBe(423);
    expect(await own("account.locked")).toEqual([expect.objectContaining({ details: { failures: LOCKOUT_THRESHOLD, minutes: 15 } })]);
    expect(await own("account.sign_in_failed")).toHaveLength(1);
    await db().update(users).set({ lockedUntil: null, failedSigninCount: 0 }).where(eq(users.id, user.id));

    const changed = await laptop.post("/settings", {
      intent: "password",
      currentPassword: user.password,
      password: "another long passphrase 42",
      confirm: "another long passphrase 42",
    });
    expect(changed.status).toBe(302);
    expect(await own("account.password_changed")).toHaveLength(1);
    const everywhere = await laptop.post("/auth/signout", { scope: "everywhere", confirm: SIGN_OUT_EVERYWHERE_CONFIRM });
    expect(everywhere.status).toBe(302);
    expect(await own("account.signed_out_everywhere")).toHaveLength(1);
  });
});
