import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, subscribers, teamInvitations, teamMembers, teams } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { PLAN_CHANGE_MESSAGES } from "~/modules/billing/plan-change.server";
import { INVITE_LINK_MESSAGES, TEAM_MESSAGES } from "~/modules/team/team.messages";
import { signInAs, TestBrowser } from "../factories/browser";
import { linkFromLatestEmail, latestEmail } from "../factories/mail";
import { fakeStripe, postWebhook, stripeEnv, stripeEvent, type FakeRequest } from "../factories/stripe";
import { createUser, uniqueEmail } from "../factories/users";

// The Team plan: switching plans, seats that follow members (through Stripe first), invitations by e-mail
// and their link rules, roles, and the gate that keeps Solo accounts out of team pages.

const db = () => createDb(env.DB);
const INVITES_ON = { ...(env as Env), FEATURE_FLAGS: "TEAM_INVITES=on" } as Env;
const subscriberOf = (userId: string) => db().select().from(subscribers).where(eq(subscribers.userId, userId)).get();
const membershipOf = (userId: string) => db().select().from(teamMembers).where(eq(teamMembers.userId, userId)).get();
const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

async function ownerWithTeam(name = "Okafor Group", browserEnv: Env = INVITES_ON) {
  const owner = await createUser(env.DB);
  const browser = (await signInAs(owner)).using(browserEnv);
  const response = await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: name });
  expect(response.status).toBe(302);
  expect(response.headers.get("Location")).toBe("/team");
  return { owner, browser };
}

async function invite(browser: TestBrowser, email: string, role: "agent" | "admin" = "agent") {
  const response = await browser.post("/team", { intent: "invite", email, role });
  expect(response.status, await response.clone().text()).toBe(302);
  return linkFromLatestEmail(env.DB, email);
}

/** A new account with the invited address and no subscription of its own, signed in. */
async function invitee(email: string, browserEnv?: Env) {
  const user = await createUser(env.DB, { email, status: null });
  const browser = await signInAs(user);
  return { user, browser: browserEnv ? browser.using(browserEnv) : browser };
}

async function join(browser: TestBrowser, link: string) {
  return browser.post(link, {});
}

describe("switching between Solo and Team", () => {
  it("moves a Solo agent to the Team plan with two seats, keeps their data, and makes them the owner", async () => {
    const owner = await createUser(env.DB);
    await db().update(subscribers).set({ billingPeriod: "monthly" }).where(eq(subscribers.userId, owner.id));
    await db().insert(contacts).values({ id: crypto.randomUUID(), userId: owner.id, name: "Dana Whitfield", email: "dana@example.com" });
    const browser = await signInAs(owner);
    expect(await browser.page("/settings?tab=billing")).toContain("Switch to the Team plan");
    const response = await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "Okafor Group" });
    expect(response.headers.get("Location")).toBe("/team");
    const row = (await subscriberOf(owner.id))!;
    expect(row.plan).toBe("team");
    expect(row.seats).toBe(2);
    expect((await membershipOf(owner.id))!.role).toBe("owner");
    const page = await browser.page("/team");
    expect(page).toContain("Okafor Group · 1 member · 2 seats paid");
    expect(await browser.page("/contacts")).toContain("Dana Whitfield");
    const billing = await browser.page("/settings?tab=billing");
    expect(billing).toContain("Team · $35 per member, billed monthly");
    expect(billing).toContain("Switch to the Solo plan");
    // The nav names the team page now.
    expect(await browser.page("/dashboard")).toContain('href="/team"');
  });

  it("refuses a team name that is empty, and changes nothing", async () => {
    const owner = await createUser(env.DB);
    const browser = await signInAs(owner);
    const response = await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "   " });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Give the team a name.");
    expect((await subscriberOf(owner.id))!.plan).toBe("solo");
    expect(await membershipOf(owner.id)).toBeUndefined();
  });

  it("refuses to go back to Solo while another member is in the team, then allows it once the owner is alone", async () => {
    const { owner, browser } = await ownerWithTeam();
    const email = uniqueEmail("member");
    const link = await invite(browser, email);
    const member = await invitee(email);
    expect((await join(member.browser, link)).status).toBe(302);

    const refused = await browser.post("/settings", { intent: "solo-plan" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(escapeHtml(TEAM_MESSAGES.downgradeWithMembers(1)));
    expect((await subscriberOf(owner.id))!.plan).toBe("team");

    expect((await browser.post("/team", { intent: "remove", confirm: "yes", memberId: member.user.id })).status).toBe(302);
    const done = await browser.post("/settings", { intent: "solo-plan" });
    expect(done.headers.get("Location")).toBe("/settings?tab=billing");
    const row = (await subscriberOf(owner.id))!;
    expect(row.plan).toBe("solo");
    expect(row.seats).toBe(1);
    expect(await db().select().from(teams).where(eq(teams.ownerId, owner.id)).get()).toBeUndefined();
    expect((await browser.get("/team")).status).toBe(404);
  });
});

describe("Solo accounts see no team route and no team UI", () => {
  it("answers 404 at /team and leaves the team link out of the navigation", async () => {
    const solo = await createUser(env.DB);
    const browser = await signInAs(solo);
    expect((await browser.get("/team")).status).toBe(404);
    expect((await browser.post("/team", { intent: "invite", email: uniqueEmail(), role: "agent" })).status).toBe(404);
    expect(await browser.page("/dashboard")).not.toContain('href="/team"');
  });
});

describe("invitations", () => {
  it("e-mails a link; the invited address joins as an agent on the team's subscription, and seats follow members", async () => {
    const { owner, browser } = await ownerWithTeam("Harbor Homes");
    const email = uniqueEmail("agent");
    const link = await invite(browser, email);
    expect(link).toMatch(/^\/team\/join\?token=/);
    const mail = (await latestEmail(env.DB, email))!;
    expect(mail.kind).toBe("team_invite");
    expect(mail.subject).toContain("Harbor Homes");
    expect(await browser.page("/team")).toContain(email);

    const member = await invitee(email);
    // No subscription of their own: the app sends them to start a trial, until they join.
    expect((await member.browser.get("/dashboard")).headers.get("Location")).toBe("/trial/start");
    const page = await member.browser.page(link);
    expect(page).toContain("Join Harbor Homes");
    const joined = await join(member.browser, link);
    expect(joined.headers.get("Location")).toBe("/team");
    expect((await membershipOf(member.user.id))!.role).toBe("agent");
    expect((await member.browser.get("/dashboard")).status).toBe(200);
    expect((await subscriberOf(owner.id))!.seats).toBe(2);

    // A third member takes a third seat.
    const third = uniqueEmail("third");
    const thirdLink = await invite(browser, third);
    const thirdMember = await invitee(third);
    expect((await join(thirdMember.browser, thirdLink)).status).toBe(302);
    expect((await subscriberOf(owner.id))!.seats).toBe(3);
    expect(await browser.page("/team")).toContain("3 members · 3 seats paid");
  });

  it("works once; a forged, withdrawn, expired or replaced link is refused and changes nothing", async () => {
    const { browser } = await ownerWithTeam();
    const email = uniqueEmail("links");
    const first = await invite(browser, email);
    // A resend gives a new link: the first stops working.
    const invitation = (await db().select().from(teamInvitations).where(eq(teamInvitations.email, email)).get())!;
    expect((await browser.post("/team", { intent: "resend", invitationId: invitation.id })).status).toBe(302);
    const second = await linkFromLatestEmail(env.DB, email);
    expect(second).not.toBe(first);
    const member = await invitee(email);
    const old = await member.browser.get(first);
    expect(old.status).toBe(400);
    expect(await old.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.invalid));
    expect((await join(member.browser, first)).status).toBe(400);

    // Forged: the signature's first character changed. (Not its last: the last character of base64 carries spare
    // bits, so changing it can leave the same bytes. That made this check pass a changed link now and then.)
    const token = new URL(second, "http://localhost").searchParams.get("token")!;
    const [id, expires, secret, signature] = token.split(".") as [string, string, string, string];
    const forgedToken = [id, expires, secret, (signature.startsWith("A") ? "B" : "A") + signature.slice(1)].join(".");
    const forged = await member.browser.get(`/team/join?token=${encodeURIComponent(forgedToken)}`);
    expect(forged.status).toBe(400);
    expect(await forged.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.invalid));

    // Expired (the stored expiry passed).
    await db()
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.id, invitation.id));
    const expired = await join(member.browser, second);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.expired));
    expect(await membershipOf(member.user.id)).toBeUndefined();

    // Withdrawn.
    await db()
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() + 86_400_000) })
      .where(eq(teamInvitations.id, invitation.id));
    expect((await browser.post("/team", { intent: "revoke", invitationId: invitation.id })).status).toBe(302);
    const revoked = await join(member.browser, second);
    expect(await revoked.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.revoked));
    expect(await membershipOf(member.user.id)).toBeUndefined();

    // A fresh invitation works once.
    const fresh = await invite(browser, email);
    expect((await join(member.browser, fresh)).status).toBe(302);
    const again = await join(member.browser, fresh);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.used));
  });

  it("is for the invited address only, and not for someone already in a team", async () => {
    const { browser } = await ownerWithTeam();
    const email = uniqueEmail("right");
    const link = await invite(browser, email);
    const stranger = await createUser(env.DB);
    const strangerBrowser = await signInAs(stranger);
    const page = await strangerBrowser.page(link);
    expect(page).toContain(escapeHtml(INVITE_LINK_MESSAGES.wrongEmail(email)));
    expect(page).not.toContain('action="/team/join');
    expect((await join(strangerBrowser, link)).status).toBe(400);
    expect(await membershipOf(stranger.id)).toBeUndefined();

    // The owner of another team cannot join.
    const other = await ownerWithTeam("Other Team");
    const otherEmail = other.owner.email;
    const linkForOwner = await invite(browser, otherEmail);
    const refused = await join(other.browser, linkForOwner);
    expect(await refused.text()).toContain(escapeHtml(INVITE_LINK_MESSAGES.ownsTeam));
    expect((await membershipOf(other.owner.id))!.role).toBe("owner");
  });

  it("needs TEAM_INVITES: off, the team page says invitations are not available and an invite is refused", async () => {
    const { browser } = await ownerWithTeam("Flagless", env as Env);
    expect(await browser.page("/team")).toContain("Invitations by e-mail are not available on this server yet.");
    const email = uniqueEmail("nope");
    const response = await browser.post("/team", { intent: "invite", email, role: "agent" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(escapeHtml(TEAM_MESSAGES.invitesOff));
    expect(await latestEmail(env.DB, email)).toBeUndefined();
  });
});

describe("roles", () => {
  it("lets the owner run the team, admins invite and remove agents, and agents only leave", async () => {
    const { owner, browser } = await ownerWithTeam("Roles Realty");
    const adminEmail = uniqueEmail("admin");
    const admin = await invitee(adminEmail);
    expect((await join(admin.browser, await invite(browser, adminEmail, "admin"))).status).toBe(302);
    const agentEmail = uniqueEmail("agent");
    const agent = await invitee(agentEmail);
    expect((await join(agent.browser, await invite(browser, agentEmail))).status).toBe(302);
    const adminB = admin.browser.using(INVITES_ON);
    const agentB = agent.browser.using(INVITES_ON);

    // An agent cannot invite or remove; an admin cannot invite an admin or remove one.
    const agentInvite = await agentB.post("/team", { intent: "invite", email: uniqueEmail(), role: "agent" });
    expect(await agentInvite.text()).toContain(escapeHtml(TEAM_MESSAGES.managersOnly));
    expect(await (await agentB.post("/team", { intent: "remove", confirm: "yes", memberId: admin.user.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.managersOnly),
    );
    expect(await (await adminB.post("/team", { intent: "invite", email: uniqueEmail(), role: "admin" })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.ownerInvitesAdmins),
    );
    expect(await (await adminB.post("/team", { intent: "remove", confirm: "yes", memberId: owner.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.cannotRemoveOwner),
    );
    expect(await (await agentB.post("/team", { intent: "role", memberId: agent.user.id, role: "admin" })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.ownerOnly),
    );
    expect((await membershipOf(agent.user.id))!.role).toBe("agent");

    // The owner promotes the agent; an admin removes... only agents, so the owner demotes and the admin removes.
    expect((await browser.post("/team", { intent: "role", memberId: agent.user.id, role: "admin" })).status).toBe(302);
    expect((await membershipOf(agent.user.id))!.role).toBe("admin");
    expect(await (await adminB.post("/team", { intent: "remove", confirm: "yes", memberId: agent.user.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.ownerRemovesAdmins),
    );
    expect((await browser.post("/team", { intent: "role", memberId: agent.user.id, role: "agent" })).status).toBe(302);
    expect((await adminB.post("/team", { intent: "remove", confirm: "yes", memberId: agent.user.id })).status).toBe(302);
    expect(await membershipOf(agent.user.id)).toBeUndefined();
    // Removed, with no plan of their own: their account is theirs, the app asks them to start one.
    expect((await agent.browser.get("/dashboard")).headers.get("Location")).toBe("/trial/start");
    expect((await subscriberOf(owner.id))!.seats).toBe(2);

    // The admin leaves of their own accord; the owner cannot.
    expect((await adminB.post("/team", { intent: "leave" })).headers.get("Location")).toBe("/dashboard");
    expect(await membershipOf(admin.user.id)).toBeUndefined();
    expect(await (await browser.post("/team", { intent: "leave" })).text()).toContain(escapeHtml(TEAM_MESSAGES.ownerCannotLeave));
  });

  it("touches nothing of another team: its members and invitations are not found", async () => {
    const a = await ownerWithTeam("Team A");
    const b = await ownerWithTeam("Team B");
    const email = uniqueEmail("b-member");
    const member = await invitee(email);
    expect((await join(member.browser, await invite(b.browser, email))).status).toBe(302);
    await invite(b.browser, uniqueEmail("b-pending"));
    const pending = (
      await db()
        .select()
        .from(teamInvitations)
        .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
        .where(and(eq(teams.ownerId, b.owner.id)))
        .all()
    ).find((r) => !r.team_invitations.acceptedAt)!;

    expect(await (await a.browser.post("/team", { intent: "remove", confirm: "yes", memberId: member.user.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.notAMember),
    );
    expect(await (await a.browser.post("/team", { intent: "role", memberId: member.user.id, role: "admin" })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.notAMember),
    );
    expect(await (await a.browser.post("/team", { intent: "revoke", invitationId: pending.team_invitations.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.noSuchInvitation),
    );
    expect(await (await a.browser.post("/team", { intent: "resend", invitationId: pending.team_invitations.id })).text()).toContain(
      escapeHtml(TEAM_MESSAGES.noSuchInvitation),
    );
    expect((await membershipOf(member.user.id))!.role).toBe("agent");
    expect((await db().select().from(teamInvitations).where(eq(teamInvitations.id, pending.team_invitations.id)).get())!.revokedAt).toBeNull();
    expect(await a.browser.page("/team")).not.toContain(email);
  });

  it("answers odd input with a clear 400", async () => {
    const { browser } = await ownerWithTeam();
    for (const fields of <Record<string, string>[]>[
      { intent: "explode" },
      { intent: "invite", email: "not-an-address", role: "agent" },
      { intent: "invite", email: uniqueEmail(), role: "owner" },
      { intent: "remove" },
    ]) {
      const response = await browser.post("/team", fields);
      expect(response.status, JSON.stringify(fields)).toBe(400);
    }
    const json = await browser.fetch("/team", {
      method: "POST",
      headers: { Origin: "http://localhost", "Content-Type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(415);
  });
});

describe("the Team plan in Stripe (the local fake)", () => {
  async function stripeOwner() {
    const owner = await createUser(env.DB);
    const customer = `cus_team${owner.id.slice(0, 8).replace(/-/g, "")}`;
    const subscription = `sub_team${owner.id.slice(0, 8).replace(/-/g, "")}`;
    await fakeStripe(`/__fake/subscriptions/${subscription}`, {
      customer,
      price: "price_solo_monthly",
      quantity: 1,
      metadata: { userId: owner.id, plan: "solo" },
    });
    await db()
      .update(subscribers)
      .set({ stripeCustomerId: customer, stripeSubscriptionId: subscription, billingPeriod: "monthly" })
      .where(eq(subscribers.userId, owner.id));
    const browser = (await signInAs(owner)).using(STRIPE_TEAM_ENV());
    return { owner, customer, subscription, browser };
  }
  const STRIPE_TEAM_ENV = () => ({ ...stripeEnv(), FEATURE_FLAGS: "TEAM_INVITES=on" }) as Env;
  const updatesOf = async (subscription: string) =>
    (await fakeStripe<FakeRequest[]>("/__fake/requests"))
      .filter((r) => r.method === "POST" && r.path === `/v1/subscriptions/${subscription}`)
      .map((r) => r.body);

  it("switches the price at the next cycle, then adds a prorated seat when a member joins", async () => {
    const { owner, subscription, browser } = await stripeOwner();
    expect((await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "Stripe Team" })).status).toBe(302);
    const [switched] = await updatesOf(subscription);
    expect(switched).toMatchObject({
      "items[0][price]": "price_team_monthly",
      "items[0][quantity]": "2",
      proration_behavior: "none",
      "metadata[plan]": "team",
    });
    expect((await subscriberOf(owner.id))!).toMatchObject({ plan: "team", seats: 2 });

    const second = uniqueEmail("s2");
    const m2 = await invitee(second, STRIPE_TEAM_ENV());
    expect((await join(m2.browser, await invite(browser, second))).status).toBe(302);
    expect(await updatesOf(subscription)).toHaveLength(1);
    const third = uniqueEmail("s3");
    const m3 = await invitee(third, STRIPE_TEAM_ENV());
    expect((await join(m3.browser, await invite(browser, third))).status).toBe(302);
    const updates = await updatesOf(subscription);
    expect(updates).toHaveLength(2);
    expect(updates[1]).toMatchObject({ "items[0][quantity]": "3", proration_behavior: "create_prorations" });
    expect((await subscriberOf(owner.id))!.seats).toBe(3);
  });

  it("changes nothing when Stripe refuses the seat: the member is not in, and the link still works later", async () => {
    const { owner, subscription, browser } = await stripeOwner();
    expect((await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "Down Team" })).status).toBe(302);
    const emails = [uniqueEmail("d2"), uniqueEmail("d3")];
    const m2 = await invitee(emails[0]!, STRIPE_TEAM_ENV());
    expect((await join(m2.browser, await invite(browser, emails[0]!))).status).toBe(302);
    const link = await invite(browser, emails[1]!);
    const m3 = await invitee(emails[1]!, STRIPE_TEAM_ENV());
    await fakeStripe(`/__fake/subscriptions/${subscription}/failing`, { fail: true });
    const refused = await join(m3.browser, link);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(escapeHtml(PLAN_CHANGE_MESSAGES.stripeDown));
    expect(await membershipOf(m3.user.id)).toBeUndefined();
    expect((await subscriberOf(owner.id))!.seats).toBe(2);
    await fakeStripe(`/__fake/subscriptions/${subscription}/failing`, { fail: false });
    expect((await join(m3.browser, link)).status).toBe(302);
    expect((await subscriberOf(owner.id))!.seats).toBe(3);
  });

  it("takes the plan and seats from Stripe's subscription events", async () => {
    const { owner, customer, subscription } = await stripeOwner();
    const event = stripeEvent("customer.subscription.updated", {
      id: subscription,
      object: "subscription",
      customer,
      status: "active",
      metadata: { userId: owner.id, plan: "team" },
      cancel_at_period_end: false,
      trial_end: null,
      items: {
        object: "list",
        data: [{ id: "si_1", quantity: 4, current_period_end: null, price: { id: "price_team_monthly", recurring: { interval: "month" } } }],
      },
    });
    expect((await postWebhook(event)).status).toBe(200);
    expect((await subscriberOf(owner.id))!).toMatchObject({ plan: "team", seats: 4 });
  });
});
