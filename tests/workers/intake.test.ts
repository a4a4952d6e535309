import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { INTAKE_MESSAGES } from "~/modules/intake/intake";
import { INTAKE_MAX_BYTES } from "~/modules/intake/intake.server";
import { deliverEmail, fixtureEmail } from "../factories/intake";
import { rowsOf as rows } from "../factories/rows";
import { signInAs } from "../factories/browser";
import { agentOnShard1 } from "../factories/shards";
import { createUser, setSubscriptionStatus } from "../factories/users";

// Lead intake by e-mail, end to end (ADR 0065): an e-mail reaches the Worker's email() handler as Email Routing hands
// it over, and becomes a lead, an enquiry on a contact the agent has, or an e-mail to review; anything not for a live
// address is rejected with its reason. The agent sees, copies and replaces the address in Settings → Lead sources,
// and confirms or discards what waits for review there.

const DOMAIN = "leads.porchlight.app";
const ORIGIN = "http://localhost";
const fixture = (name: string, options: { sentAgoMs?: number; messageId?: string } = {}) => fixtureEmail(name, options);
const deliver = deliverEmail;

/** A signed-in agent and their intake address, as Settings → Lead sources shows it. */
async function agentWithAddress(d1: D1Database = env.DB) {
  const user = await createUser(d1);
  const browser = await signInAs(user);
  const html = await browser.page("/settings?tab=leads");
  const address = new RegExp(`value="([a-z0-9_]+@${DOMAIN.replace(/\./g, "\\.")})"`).exec(html)?.[1];
  if (!address) throw new Error("No intake address on the Lead sources tab");
  return { user, browser, address, html };
}

/** A page's text as read: React's markers between a text and a value dropped. */
const textOf = (html: string) => html.replace(/<!-- -->/g, "");

describe("the intake address", () => {
  it("is shown on Settings → Lead sources with the guides, stays the same, and a new one makes the old one bounce", async () => {
    const { browser, address, html } = await agentWithAddress();
    expect(html).toContain("Your lead intake address");
    expect(html).toContain("Copy address");
    expect(html).toContain("Gmail e-mails a confirmation code to the address");
    expect(address).toMatch(new RegExp(`^[a-z2-7]{24}@${DOMAIN}$`));
    expect(await browser.page("/settings?tab=leads")).toContain(address);

    const rotated = await browser.post("/settings?tab=leads", { intent: "intake-rotate" });
    expect(rotated.status).toBe(302);
    const after = await browser.page("/settings?tab=leads");
    expect(after).not.toContain(address);
    expect(await deliver(address, fixture("zillow-plain"))).toBe(INTAKE_MESSAGES.noSuchAddress);
    const fresh = new RegExp(`value="([a-z0-9_]+@${DOMAIN.replace(/\./g, "\\.")})"`).exec(after)![1]!;
    expect(await deliver(fresh, fixture("zillow-plain"))).toBeNull();
  });

  it("an agent on the second database gets a key naming it, and their e-mail is read there", async () => {
    const agent = await agentOnShard1();
    const browser = await signInAs(agent);
    const html = await browser.page("/settings?tab=leads");
    const address = new RegExp(`value="(s1_[a-z2-7]{24}@${DOMAIN.replace(/\./g, "\\.")})"`).exec(html)?.[1];
    expect(address).toBeDefined();
    expect(await deliver(address!, fixture("website-form"))).toBeNull();
    const [contact] = await rows<{ source: string }>(
      env.DB_SHARD_1,
      "select source from contacts where user_id = ? and name = 'Olivia Grant'",
      agent.id,
    );
    expect(contact).toEqual({ source: "website" });
    expect(await rows(env.DB, "select id from contacts where user_id = ?", agent.id)).toEqual([]);
  });
});

describe("an e-mail to the address", () => {
  it("a portal's lead becomes a contact with its source, the property and speed to lead from the e-mail's Date", async () => {
    const { user, address } = await agentWithAddress();
    const sentAgo = 4 * 60_000;
    const before = Date.now();
    expect(await deliver(address, fixture("zillow-plain", { sentAgoMs: sentAgo }))).toBeNull();
    const [contact] = await rows<Record<string, unknown>>(
      env.DB,
      "select id, name, email, phone, source, status, lead_at, first_response_at, notes from contacts where user_id = ?",
      user.id,
    );
    expect(contact).toMatchObject({
      name: "Jane Whitmore",
      email: "jane.whitmore@example.com",
      phone: "(512) 555-0148",
      source: "zillow",
      status: "hot",
      first_response_at: null,
    });
    // The Date header has whole seconds: the lead arrived then, minutes before the e-mail reached Porchlight.
    const sent = Math.floor((before - sentAgo) / 1000) * 1000;
    expect(Math.abs((contact!.lead_at as number) - sent)).toBeLessThanOrEqual(1000);
    expect(contact!.notes).toContain("Is it still available?");
    expect(contact!.notes).toContain("Asked about: 12 Oak St, Austin, TX 78704, MLS 7123456, $485,000");
    const [property] = await rows(
      env.DB,
      "select contact_id, address, mls_number, price_cents, url, source from properties where user_id = ?",
      user.id,
    );
    expect(property).toEqual({
      contact_id: contact!.id,
      address: "12 Oak St, Austin, TX 78704",
      mls_number: "7123456",
      price_cents: 48_500_000,
      url: "https://www.zillow.com/homedetails/12-Oak-St-Austin-TX-78704/1234567_zpid/",
      source: "zillow",
    });
    // The new-lead alert, as for a lead added by hand: waiting for a first response since the e-mail's Date.
    const [alert] = await rows<{ arrived_at: number }>(env.DB, "select arrived_at from lead_alerts where contact_id = ?", contact!.id);
    expect(alert!.arrived_at).toBe(contact!.lead_at);
    const [message] = await rows(env.DB, "select format, status, contact_id, from_address from lead_intake_messages where user_id = ?", user.id);
    expect(message).toEqual({ format: "zillow", status: "created", contact_id: contact!.id, from_address: "no-reply@zillow.com" });
  });

  it("the same e-mail delivered twice is taken once; a new enquiry from a contact the agent has goes on their timeline", async () => {
    const { user, address } = await agentWithAddress();
    const raw = fixture("trulia-gmail-forward", { messageId: `<twice-${crypto.randomUUID()}@fixture.test>` });
    expect(await deliver(address, raw)).toBeNull();
    expect(await deliver(address, raw)).toBeNull();
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toHaveLength(1);
    expect(await rows(env.DB, "select id from lead_intake_messages where user_id = ?", user.id)).toHaveLength(1);

    // Aisha writes again through another portal e-mail (same e-mail address): no second contact.
    expect(await deliver(address, fixture("trulia-gmail-forward"))).toBeNull();
    const contacts = await rows<{ id: string }>(env.DB, "select id from contacts where user_id = ?", user.id);
    expect(contacts).toHaveLength(1);
    const enquiries = await rows<{ type: string; notes: string }>(
      env.DB,
      "select type, notes from crm_activities where user_id = ? and contact_id = ?",
      user.id,
      contacts[0]!.id,
    );
    expect(enquiries).toEqual([{ type: "enquiry", notes: expect.stringContaining("I'd like to tour 55 Lake Shore Dr") }]);
    const statuses = await rows<{ status: string }>(
      env.DB,
      "select status from lead_intake_messages where user_id = ? order by received_at, rowid",
      user.id,
    );
    expect(statuses.map((s) => s.status)).toEqual(["created", "attached"]);
    // An enquiry is Porchlight's record, not the agent's answer: the lead still waits for a first response.
    const [contact] = await rows(env.DB, "select first_response_at from contacts where id = ?", contacts[0]!.id);
    expect(contact).toEqual({ first_response_at: null });
  });

  it("an e-mail not understood waits for review with its text; the agent corrects and adds it, or discards another", async () => {
    const { user, browser, address } = await agentWithAddress();
    expect(await deliver(address, fixture("unknown-personal"))).toBeNull();
    expect(await deliver(address, fixture("unknown-personal"))).toBeNull();
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toEqual([]);
    const page = await browser.page("/settings?tab=leads");
    expect(textOf(page)).toContain("To review (2)");
    expect(page).toContain("I drove past your sign on 5th street");
    const waiting = await rows<{ id: string }>(
      env.DB,
      "select id from lead_intake_messages where user_id = ? and status = 'review' order by rowid",
      user.id,
    );
    expect(waiting).toHaveLength(2);

    // A name left empty: refused, nothing changes.
    const refused = await browser.post("/settings?tab=leads", {
      intent: "intake-confirm",
      id: waiting[0]!.id,
      name: "",
      email: "",
      phone: "",
      source: "other",
    });
    expect(refused.status).toBe(400);
    expect(await rows(env.DB, "select status from lead_intake_messages where id = ?", waiting[0]!.id)).toEqual([{ status: "review" }]);

    const added = await browser.post("/settings?tab=leads", {
      intent: "intake-confirm",
      id: waiting[0]!.id,
      name: "Rob Keller",
      email: "rob.keller@example.com",
      phone: "512-555-0105",
      source: "open_house",
    });
    expect(added.status).toBe(302);
    const [contact] = await rows<{ id: string; source: string; lead_at: number }>(
      env.DB,
      "select id, source, lead_at from contacts where user_id = ?",
      user.id,
    );
    expect(contact).toMatchObject({ source: "open_house" });
    expect(await rows(env.DB, "select status, contact_id from lead_intake_messages where id = ?", waiting[0]!.id)).toEqual([
      { status: "confirmed", contact_id: contact!.id },
    ]);
    // Pressed again: nothing more is added.
    const again = await browser.post("/settings?tab=leads", {
      intent: "intake-confirm",
      id: waiting[0]!.id,
      name: "Rob Keller",
      email: "rob.keller@example.com",
    });
    expect(again.status).toBe(404);
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toHaveLength(1);

    expect((await browser.post("/settings?tab=leads", { intent: "intake-discard", id: waiting[1]!.id })).status).toBe(302);
    expect(await rows(env.DB, "select status from lead_intake_messages where id = ?", waiting[1]!.id)).toEqual([{ status: "discarded" }]);
    expect(textOf(await browser.page("/settings?tab=leads"))).toContain("To review (0)");
  });

  it("another agent cannot confirm or discard an agent's e-mail: 404, and it still waits", async () => {
    const { user, address } = await agentWithAddress();
    expect(await deliver(address, fixture("unknown-personal"))).toBeNull();
    const [waiting] = await rows<{ id: string }>(env.DB, "select id from lead_intake_messages where user_id = ?", user.id);
    const other = await signInAs(await createUser(env.DB));
    expect(
      (await other.post("/settings?tab=leads", { intent: "intake-confirm", id: waiting!.id, name: "Taken", email: "t@example.com" })).status,
    ).toBe(404);
    expect((await other.post("/settings?tab=leads", { intent: "intake-discard", id: waiting!.id })).status).toBe(404);
    expect(await rows(env.DB, "select status from lead_intake_messages where id = ?", waiting!.id)).toEqual([{ status: "review" }]);
    expect(await other.page("/settings?tab=leads")).not.toContain("I drove past your sign");
  });
});

describe("what is rejected, with its reason", () => {
  it("another domain, a malformed or unknown key, a database not bound: no such address", async () => {
    const raw = fixture("zillow-plain");
    expect(await deliver("abcdefghijklmnopqrstuvwx@example.com", raw)).toBe(INTAKE_MESSAGES.noSuchAddress);
    expect(await deliver(`not-a-key@${DOMAIN}`, raw)).toBe(INTAKE_MESSAGES.noSuchAddress);
    expect(await deliver(`abcdefghijklmnopqrstuvwx@${DOMAIN}`, raw)).toBe(INTAKE_MESSAGES.noSuchAddress);
    expect(await deliver(`s9_abcdefghijklmnopqrstuvwx@${DOMAIN}`, raw)).toBe(INTAKE_MESSAGES.noSuchAddress);
  });

  it("too large, an account whose subscription ended, and a flood past the hourly limit; none leaves a row", async () => {
    const { user, address } = await agentWithAddress();
    expect(await deliver(address, fixture("zillow-plain"), INTAKE_MAX_BYTES + 1)).toBe(INTAKE_MESSAGES.tooLarge);

    const key = address.split("@")[0]!;
    const windowMs = RATE_LIMITS.leadIntake.windowSeconds * 1000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    for (const window of [start, start + windowMs])
      await env.KV.put(`rl:lead-intake:${key}:${window}`, String(RATE_LIMITS.leadIntake.limit), { expirationTtl: 7200 });
    expect(await deliver(address, fixture("zillow-plain"))).toBe(INTAKE_MESSAGES.tooMany);
    for (const window of [start, start + windowMs]) await env.KV.delete(`rl:lead-intake:${key}:${window}`);

    await setSubscriptionStatus(env.DB, user.id, "canceled");
    expect(await deliver(address, fixture("zillow-plain"))).toBe(INTAKE_MESSAGES.inactive);
    expect(await rows(env.DB, "select id from lead_intake_messages where user_id = ?", user.id)).toEqual([]);
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toEqual([]);
  });
});

describe("the agent's data", () => {
  it("the export has the lead e-mails and properties, without the address's secret key", async () => {
    const { user, browser, address } = await agentWithAddress();
    expect(await deliver(address, fixture("realtor-com-html"))).toBeNull();
    const response = await browser.fetch("/settings/export.json", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["category", "lead_intake"],
        ["category", "properties"],
      ]).toString(),
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("Carlos Mendoza");
    expect(text).toContain("4410 Duval Rd, Austin, TX 78727");
    expect(text).not.toContain(address.split("@")[0]);
    expect(await rows(env.DB, "select count(*) as n from lead_intake_addresses where user_id = ?", user.id)).toEqual([{ n: 1 }]);
  });
});
