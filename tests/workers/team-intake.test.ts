import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INTAKE_MESSAGES } from "~/modules/intake/intake";
import { LEAD_MESSAGES } from "~/modules/team/leads.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { deliverEmail, fixtureEmail } from "../factories/intake";
import { rowsOf as rows } from "../factories/rows";
import { team } from "../factories/teams";

// A team's lead intake address (ADR 0065): the owner and admins see it on Team leads, copy it and replace it (the old
// one then bounces); portals' lead e-mails sent to it become the team's leads, distributed by the team's mode (pond,
// round robin, first to claim), arriving when the e-mail was sent; what cannot be read waits for the owner's review
// and, added, is the team's lead too. Agents neither see nor replace it.

const DOMAIN = "leads.porchlight.app";
const ADDRESS = new RegExp(`value="([a-z0-9_]+@${DOMAIN.replace(/\./g, "\\.")})"`);

const email = (name: string, to: string) => fixtureEmail(name, { to, sentAgoMs: 120_000 });
const deliver = deliverEmail;

async function teamAddress(browser: TestBrowser) {
  const address = ADDRESS.exec(await browser.page("/team/leads"))?.[1];
  if (!address) throw new Error("No team intake address on Team leads");
  return address;
}

const teamLeadsOf = (teamId: string) =>
  rows<{
    name: string;
    email: string | null;
    source: string;
    state: string;
    assigned_to: string | null;
    contact_id: string | null;
    created_at: number;
  }>(env.DB, "select name, email, source, state, assigned_to, contact_id, created_at from team_leads where team_id = ? order by created_at", teamId);

describe("a team's intake address", () => {
  it("is the managers' to see and replace, apart from each member's own address; agents neither see nor replace it", async () => {
    const t = await team("Intake Realty");
    const owner = await signInAs(t.owner);
    const admin = await signInAs(t.admin);
    const agent = await signInAs(t.agentA);
    const address = await teamAddress(owner);
    expect(await teamAddress(admin)).toBe(address);
    const ownOf = async (browser: TestBrowser) => ADDRESS.exec(await browser.page("/settings?tab=leads"))![1]!;
    expect(await ownOf(owner)).not.toBe(address);
    expect(await teamAddress(owner)).toBe(address); // the owner's own address did not replace the team's
    const agentPage = await agent.page("/team/leads");
    expect(agentPage).not.toContain(address);
    expect(agentPage).not.toContain("Team lead intake address");
    const refused = await agent.post("/team/leads", { intent: "intake-rotate" });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(LEAD_MESSAGES.managersOnly);
    expect(await teamAddress(owner)).toBe(address);

    expect((await admin.post("/team/leads", { intent: "intake-rotate" })).status).toBe(302);
    const fresh = await teamAddress(owner);
    expect(fresh).not.toBe(address);
    expect(await deliver(address, email("zillow-plain", address))).toBe(INTAKE_MESSAGES.noSuchAddress);
    expect(await deliver(fresh, email("zillow-plain", fresh))).toBeNull();
  });

  it("makes each lead e-mail the team's lead, distributed by round robin to its agents, from when it was sent", async () => {
    const t = await team("Rotation Intake");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team/leads", { intent: "settings", mode: "round_robin", claimWindowMinutes: "15" })).status).toBe(302);
    // The owner takes no leads themselves: the admin and the two agents share them.
    expect((await owner.post("/team/leads", { intent: "availability", member: t.owner.id, available: "false" })).status).toBe(302);
    const address = await teamAddress(owner);
    const before = Date.now();
    for (const name of ["zillow-plain", "realtor-com-html", "redfin-outlook-forward"])
      expect(await deliver(address, email(name, address))).toBeNull();

    const leads = await teamLeadsOf(t.teamId);
    expect(leads.map((l) => [l.source, l.state])).toEqual([
      ["zillow", "assigned"],
      ["realtor_com", "assigned"],
      ["redfin", "assigned"],
    ]);
    expect(new Set(leads.map((l) => l.assigned_to))).toEqual(new Set([t.admin.id, t.agentA.id, t.agentB.id]));
    // Each arrived when its e-mail was sent (two minutes before delivery), not when it was read.
    for (const l of leads) expect(l.created_at).toBeLessThan(before - 60_000);
    // The agent who got the Zillow lead has it as a hot contact, with the property in its notes.
    const [contact] = await rows<{ user_id: string; status: string; source: string; notes: string }>(
      env.DB,
      "select user_id, status, source, notes from contacts where id = ?",
      leads[0]!.contact_id,
    );
    expect(contact).toMatchObject({ user_id: leads[0]!.assigned_to, status: "hot", source: "zillow" });
    expect(contact!.notes).toContain("Asked about: 12 Oak St, Austin, TX 78704");
    // And the home under Properties of interest, theirs.
    expect(
      await rows(env.DB, "select user_id, address, mls_number, price_cents, source from properties where contact_id = ?", leads[0]!.contact_id),
    ).toEqual([
      { user_id: leads[0]!.assigned_to, address: "12 Oak St, Austin, TX 78704", mls_number: "7123456", price_cents: 48_500_000, source: "zillow" },
    ]);
    // Nothing went to the owner's own contacts, and the e-mails are recorded as the team's.
    expect(await rows(env.DB, "select id from contacts where user_id = ? and source = 'zillow'", t.owner.id)).toEqual([]);
    expect(await rows(env.DB, "select status, team_id from lead_intake_messages where user_id = ?", t.owner.id)).toEqual([
      { status: "created", team_id: t.teamId },
      { status: "created", team_id: t.teamId },
      { status: "created", team_id: t.teamId },
    ]);
  });

  it("leaves leads in the pond in pond mode, takes a repeated e-mail once, and puts what it cannot read up for the owner's review", async () => {
    const t = await team("Pond Intake");
    const owner = await signInAs(t.owner);
    const address = await teamAddress(owner);
    const raw = email("zillow-plain", address);
    expect(await deliver(address, raw)).toBeNull();
    expect(await deliver(address, raw)).toBeNull();
    expect((await teamLeadsOf(t.teamId)).map((l) => [l.name, l.state])).toEqual([["Jane Whitmore", "pond"]]);

    expect(await deliver(address, email("unknown-personal", address))).toBeNull();
    const review = (await owner.page("/settings?tab=leads")).replace(/<!-- -->/g, "");
    expect(review).toContain("To review (1)");
    expect(review).toContain("To your team&#x27;s address");
    const [waiting] = await rows<{ id: string }>(env.DB, "select id from lead_intake_messages where user_id = ? and status = 'review'", t.owner.id);
    // An admin cannot confirm the owner's e-mail; the owner adds it, and it is the team's lead.
    const admin = await signInAs(t.admin);
    const stranger = await admin.post("/settings?tab=leads", {
      intent: "intake-confirm",
      id: waiting!.id,
      name: "Rob Keller",
      phone: "512-555-0105",
      source: "other",
    });
    expect(stranger.status).toBe(404);
    const added = await owner.post("/settings?tab=leads", {
      intent: "intake-confirm",
      id: waiting!.id,
      name: "Rob Keller",
      phone: "512-555-0105",
      source: "other",
    });
    expect(added.status).toBe(302);
    expect((await teamLeadsOf(t.teamId)).map((l) => [l.name, l.state])).toEqual([
      ["Jane Whitmore", "pond"],
      ["Rob Keller", "pond"],
    ]);
    expect(await rows(env.DB, "select id from contacts where user_id = ? and name = 'Rob Keller'", t.owner.id)).toEqual([]);
  });

  it("bounces once the team is gone", async () => {
    const t = await team("Closing Intake");
    const owner = await signInAs(t.owner);
    const address = await teamAddress(owner);
    await env.DB.prepare("delete from team_members where team_id = ?").bind(t.teamId).run();
    await env.DB.prepare("delete from teams where id = ?").bind(t.teamId).run();
    expect(await deliver(address, email("zillow-plain", address))).toBe(INTAKE_MESSAGES.noSuchAddress);
  });
});
