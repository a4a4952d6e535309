import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { getConfig } from "~/lib/env.server";
import { mergeValues } from "~/modules/intake/first-reply";
import { fillFields, MERGE_MESSAGES } from "~/modules/templates/merge";
import { contactUnsubscribeUrl, nextSendingMoment, sendDueFirstReplies, sendFirstReply } from "~/modules/intake/first-reply.server";
import { signInAs, type TestBrowser } from "../factories/browser";
import { deliverEmail, fixtureEmail } from "../factories/intake";
import { rowsOf as rows } from "../factories/rows";
import { createUser } from "../factories/users";

// A new lead's instant first reply (ADR 0068): turned on per source in Settings → Lead sources, sent to a lead that
// arrives by e-mail or the lead API within a minute when it is inside the agent's sending hours, else by the cron
// when they open; once per lead; skipped when the agent reached out first, the lead unsubscribed or the reply was
// turned off; with a signed one-click unsubscribe. Every date here is relative to now or to the test's own clock.

const DOMAIN = "leads.porchlight.app";
const sender = () => ({ db: createDb(env.DB), config: getConfig(env as Env), env: env as Env });

const zillowLead = (to: string) => fixtureEmail("zillow-plain", { to, sentAgoMs: 60_000 });
const deliver = async (to: string, raw: string) => expect(await deliverEmail(to, raw)).toBeNull();

/** An agent on UTC named Dana Reyes, signed in, with their intake address and the Zillow reply turned on. */
async function agentWithReply(hours = { from: 0, until: 1440 }) {
  const user = await createUser(env.DB);
  await env.DB.prepare("update user_preferences set timezone = 'UTC' where user_id = ?").bind(user.id).run();
  await env.DB.prepare("insert into agent_profiles (user_id, agent_name) values (?, 'Dana Reyes')").bind(user.id).run();
  await env.DB.prepare("update profiles set phone = '512-555-0100' where user_id = ?").bind(user.id).run();
  const browser = await signInAs(user);
  const html = await browser.page("/settings?tab=leads");
  const address = new RegExp(`value="([a-z0-9_]+@${DOMAIN.replace(/\./g, "\\.")})"`).exec(html)![1]!;
  expect((await browser.post("/settings?tab=leads", { intent: "reply-hours", from: String(hours.from), until: String(hours.until) })).status).toBe(
    302,
  );
  await turnOn(browser, "zillow");
  return { user, browser, address };
}

async function turnOn(browser: TestBrowser, source: string, enabled = true) {
  const response = await browser.post("/settings?tab=leads", {
    intent: "first-reply",
    source,
    ...(enabled ? { enabled: "on" } : {}),
    subject: "Thanks for asking about {property}",
    body: "Hi {First Name},\n\nThanks for asking about {property}. I'll call you within the hour.\n\n{agent name}\n{agent phone}",
  });
  expect(response.status).toBe(302);
}

/** Sending hours [from, from + 30) on UTC that are closed now: a half-hour an hour or more away, on any day. */
function closedNow(now = new Date()) {
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  return ((Math.floor(minute / 30) + 2) % 48) * 30;
}

const repliesOf = (userId: string) =>
  rows<{ id: string; contact_id: string; status: string; reason: string | null; due_at: number }>(
    env.DB,
    "select id, contact_id, status, reason, due_at from lead_first_replies where user_id = ? order by created_at",
    userId,
  );
const outboxOf = (userId: string) =>
  rows<{ to_address: string; subject: string; text_body: string; from_name: string; reply_to: string; headers: string; kind: string }>(
    env.DB,
    "select to_address, subject, text_body, from_name, reply_to, headers, kind from email_outbox where user_id = ? and kind = 'first_reply'",
    userId,
  );

describe("the templates", () => {
  it("fill their merge fields, whatever their case, with sensible words when a value is missing", () => {
    const values = mergeValues({ name: "Jane Whitmore", property: "12 Oak St" }, { name: "Dana Reyes", phone: null });
    expect(fillFields("Hi {First Name}, about {property}. {agent name}\n{agent phone}", values)).toBe("Hi Jane, about 12 Oak St. Dana Reyes");
    const none = mergeValues({ name: "", property: null }, { name: "Dana Reyes", phone: "512" });
    expect(fillFields("Hi {first name}, about {property}.", none)).toBe("Hi there, about the home you asked about.");
  });

  it("are refused with an unknown or unclosed merge field, a foreign source or bad hours, and nothing changes", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const unknown = await browser.post("/settings?tab=leads", {
      intent: "first-reply",
      source: "zillow",
      enabled: "on",
      subject: "Hi {nickname}",
      body: "Hello",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("{nickname} is not a merge field");
    const unclosed = await browser.post("/settings?tab=leads", { intent: "first-reply", source: "zillow", subject: "Hi", body: "Hello {first name" });
    expect(await unclosed.text()).toContain(MERGE_MESSAGES.unclosed);
    const referral = await browser.post("/settings?tab=leads", { intent: "first-reply", source: "referral", subject: "Hi", body: "Hello" });
    expect(referral.status).toBe(400);
    const hours = await browser.post("/settings?tab=leads", { intent: "reply-hours", from: "1200", until: "600" });
    expect(hours.status).toBe(400);
    expect(await rows(env.DB, "select id from lead_reply_templates where user_id = ?", user.id)).toEqual([]);
    expect(await rows(env.DB, "select reply_from_minute as f, reply_until_minute as u from user_preferences where user_id = ?", user.id)).toEqual([
      { f: 480, u: 1260 },
    ]);
  });
});

describe("a new lead", () => {
  it("gets the reply at once inside the sending hours: from the agent via Porchlight, replies to the agent, with one-click unsubscribe", async () => {
    const { user, browser, address } = await agentWithReply();
    await deliver(address, zillowLead(address));
    const [reply] = await repliesOf(user.id);
    expect(reply).toMatchObject({ status: "sent", reason: null });
    const [mail] = await outboxOf(user.id);
    expect(mail).toMatchObject({
      to_address: "jane.whitmore@example.com",
      subject: "Thanks for asking about 12 Oak St, Austin, TX 78704",
      from_name: "Dana Reyes",
      reply_to: user.email,
    });
    expect(mail!.text_body).toContain(
      "Hi Jane,\n\nThanks for asking about 12 Oak St, Austin, TX 78704. I'll call you within the hour.\n\nDana Reyes\n512-555-0100",
    );
    expect(mail!.text_body).toContain("You got this because you asked about a home through Zillow.");
    const headers = JSON.parse(mail!.headers) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost\/unsubscribe\?c=[\w-]+&s=[\w-]+>$/);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    // On the timeline as Porchlight's own record; the speed-to-lead timer still runs.
    const [contact] = await rows<{ first_response_at: number | null }>(
      env.DB,
      "select first_response_at from contacts where id = ?",
      reply!.contact_id,
    );
    expect(contact!.first_response_at).toBeNull();
    expect(await rows(env.DB, "select type, notes from crm_activities where contact_id = ?", reply!.contact_id)).toEqual([
      { type: "auto_reply", notes: "Thanks for asking about 12 Oak St, Austin, TX 78704" },
    ]);
    const page = (await browser.page(`/contacts/${reply!.contact_id}`)).replace(/<!-- -->/g, "");
    expect(page).toContain("Instant reply sent");
    expect((await browser.page("/settings?tab=leads")).replace(/<!-- -->/g, "")).toContain("On for Zillow.");
  });

  it("is replied to once: the same person again, a second send and the cron add nothing", async () => {
    const { user, address } = await agentWithReply();
    await deliver(address, zillowLead(address));
    await deliver(address, zillowLead(address)); // the same lead again: an enquiry on the contact, no second reply
    const [reply] = await repliesOf(user.id);
    expect(await repliesOf(user.id)).toHaveLength(1);
    expect(await sendFirstReply(sender(), reply!.id)).toBe("skipped");
    await sendDueFirstReplies(sender(), new Date(Date.now() + 60_000));
    expect(await outboxOf(user.id)).toHaveLength(1);
  });

  it("waits outside the sending hours and goes when they open, from the cron", async () => {
    const now = new Date();
    const from = closedNow(now);
    const { user, address } = await agentWithReply({ from, until: from + 30 });
    await deliver(address, zillowLead(address));
    const [waiting] = await repliesOf(user.id);
    expect(waiting!.status).toBe("pending");
    const opens = nextSendingMoment(now, { from, until: from + 30, timezone: "UTC" });
    expect(waiting!.due_at).toBe(opens.getTime());
    expect(new Date(opens).getUTCHours() * 60 + new Date(opens).getUTCMinutes()).toBe(from);
    expect(await outboxOf(user.id)).toEqual([]);

    // A run before the hours open sends nothing; the run when they open sends it.
    await sendDueFirstReplies(sender(), new Date(opens.getTime() - 60_000));
    expect((await repliesOf(user.id))[0]!.status).toBe("pending");
    await sendDueFirstReplies(sender(), opens);
    expect((await repliesOf(user.id))[0]!.status).toBe("sent");
    expect(await outboxOf(user.id)).toHaveLength(1);
  });

  it("is skipped when the agent reached out first, when the reply was turned off, or for another source", async () => {
    const from = closedNow();
    const { user, browser, address } = await agentWithReply({ from, until: from + 30 });
    await deliver(address, zillowLead(address));
    const [reply] = await repliesOf(user.id);
    // The agent calls before the hours open.
    const at = new Date().toISOString();
    const call = { intent: "log", type: "call", contactId: reply!.contact_id, date: at.slice(0, 10), time: at.slice(11, 16), outcome: "Talked" };
    expect((await browser.post("/activities", call)).status).toBe(200);
    const opens = new Date(reply!.due_at);
    await sendDueFirstReplies(sender(), opens);
    expect((await repliesOf(user.id))[0]).toMatchObject({ status: "skipped", reason: "You reached out first." });

    // Turned off: a new lead gets no reply row at all. A website lead (no reply on for it) neither.
    await turnOn(browser, "zillow", false);
    const other = zillowLead(address)
      .replace(/jane\.whitmore@example\.com/g, "sam.ortiz@example.com")
      .replace(/Jane Whitmore/g, "Sam Ortiz");
    await deliver(address, other);
    await deliver(address, fixtureEmail("website-form"));
    expect(await repliesOf(user.id)).toHaveLength(1);
    expect(await outboxOf(user.id)).toEqual([]);
  });

  it("from the lead API gets the reply of its source, and another agent's template is never used", async () => {
    const { user, browser } = await agentWithReply();
    const stranger = await agentWithReply();
    await turnOn(stranger.browser, "social_media");
    const made = await browser.post("/settings/api-keys", { intent: "create", name: "Zapier" });
    const { key } = (await made.json()) as { key: string };
    const lead = { name: "Ana Ruiz", email: "ana.ruiz@example.com", source: "social_media" };
    const post = () =>
      SELF.fetch("http://localhost/api/v1/leads", {
        method: "POST",
        headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
        body: JSON.stringify(lead),
      });
    expect((await post()).status).toBe(201);
    expect(await repliesOf(user.id)).toEqual([]); // social media is on for the stranger, not for this agent
    await turnOn(browser, "social_media");
    lead.email = "ana.ruiz.2@example.com";
    expect((await post()).status).toBe(201);
    const mails = await outboxOf(user.id);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to_address: "ana.ruiz.2@example.com",
      subject: "Thanks for asking about the home you asked about",
      from_name: "Dana Reyes",
    });
    expect(await outboxOf(stranger.user.id)).toEqual([]);
  });
});

describe("unsubscribe", () => {
  it("works by a person or a mail app's one-click POST with no sign-in, stops a waiting reply, and a forged link changes nothing", async () => {
    const from = closedNow();
    const { user, browser, address } = await agentWithReply({ from, until: from + 30 });
    await deliver(address, zillowLead(address));
    const [reply] = await repliesOf(user.id);
    const link = new URL(await contactUnsubscribeUrl(sender(), "http://localhost", reply!.contact_id));
    const page = await SELF.fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Stop the automatic e-mails this agent sends you");

    const other = await agentWithReply();
    await deliver(other.address, zillowLead(other.address));
    const [otherReply] = await repliesOf(other.user.id);
    for (const search of [`?c=${otherReply!.contact_id}&s=${link.searchParams.get("s")}`, `?c=${reply!.contact_id}&s=bad`, ""]) {
      const forged = await SELF.fetch(`http://localhost/unsubscribe${search}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(forged.status, search).toBe(400);
    }
    const optedOut = (id: string) => rows<{ o: number | null }>(env.DB, "select email_opt_out_at as o from contacts where id = ?", id);
    expect(await optedOut(reply!.contact_id)).toEqual([{ o: null }]);

    const oneClick = await SELF.fetch(link, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("you will get no more automatic e-mails");
    expect((await optedOut(reply!.contact_id))[0]!.o).toEqual(expect.any(Number));
    expect(await optedOut(otherReply!.contact_id)).toEqual([{ o: null }]);
    expect((await repliesOf(user.id))[0]).toMatchObject({ status: "skipped", reason: "The contact unsubscribed from e-mail." });
    await sendDueFirstReplies(sender(), new Date(reply!.due_at));
    expect(await outboxOf(user.id)).toEqual([]);
    expect((await browser.page(`/contacts/${reply!.contact_id}`)).replace(/<!-- -->/g, "")).toContain("Unsubscribed from automatic e-mails");
  });
});
