import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "~/lib/env.server";
import { SEND_MESSAGES } from "~/modules/conversations/compose";
import { newReplyKey, readReplyAddress, replyAddress } from "~/modules/conversations/reply-address.server";
import { sendContactEmail } from "~/modules/conversations/send.server";
import { updateContact } from "~/modules/contacts/contacts.server";
import { MERGE_MESSAGES } from "~/modules/templates/merge";
import { signInAs, type TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { connectGmail, fakeGoogle, googleEnv, mailboxPath } from "../factories/google";
import { rowsOf as rows } from "../factories/rows";
import { createAgent } from "../factories/users";

// Sending an e-mail to a contact (ADR 0071): through the agent's Gmail when connected, else as "Agent via Porchlight"
// with a reply address of its own; checked first (the agent's contact, a working address, no unfilled merge field,
// the Fair Housing phrases reviewed) and logged on the contact's e-mail log and timeline with how it went.

const DOMAIN = "leads.porchlight.app";
type EmailRow = {
  id: string;
  via: string;
  status: string;
  reply_key: string | null;
  outbox_id: string | null;
  thread_id: string | null;
  template_id: string | null;
  activity_id: string;
  subject: string;
  to_address: string;
  from_address: string;
};
const emailsOf = (userId: string) => rows<EmailRow>(env.DB, "select * from contact_emails where user_id = ? order by occurred_at", userId);

async function agentWithContact(email: string | null = "jane@example.com", browserEnv?: Env) {
  const agent = await createAgent(env.DB);
  await env.DB.prepare("insert into agent_profiles (user_id, agent_name) values (?, 'Dana Reyes')").bind(agent.id).run();
  const contactId = crypto.randomUUID();
  await env.DB.prepare("insert into contacts (id, user_id, name, email, status) values (?, ?, 'Jane Whitmore', ?, 'hot')")
    .bind(contactId, agent.id, email)
    .run();
  const signedIn = await signInAs(agent);
  return { agent, contactId, browser: browserEnv ? signedIn.using(browserEnv) : signedIn };
}

const send = (browser: TestBrowser, contactId: string, fields: Record<string, string>) =>
  browser.post(`/contacts/${contactId}/email`, { subject: "Saturday's showing", body: "Hi Jane,\n\nSee you at 10.\n\nDana", ...fields });

describe("reply addresses", () => {
  it("name their e-mail's key and database, in any case, and nothing else reads as one", () => {
    const home = newReplyKey(0);
    const other = newReplyKey(1);
    expect(readReplyAddress(replyAddress(home, DOMAIN), DOMAIN)).toEqual({ key: home, shard: 0 });
    expect(readReplyAddress(replyAddress(other, DOMAIN).toUpperCase(), DOMAIN)).toEqual({ key: other, shard: 1 });
    expect(readReplyAddress(`reply-${home}+tag@${DOMAIN}`, DOMAIN)).toEqual({ key: home, shard: 0 });
    for (const address of [`${home}@${DOMAIN}`, `reply-${home}@example.com`, `reply-short@${DOMAIN}`, `reply-${home}x@${DOMAIN}`]) {
      expect(readReplyAddress(address, DOMAIN), address).toBeNull();
    }
  });
});

describe("sending an e-mail to a contact", () => {
  it("goes as “Dana Reyes via Porchlight” with its own reply address, on the log and the timeline, and counts as the answer", async () => {
    const { agent, contactId, browser } = await agentWithContact();
    const response = await send(browser, contactId, {});
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, via: "porchlight" });
    const [email] = await emailsOf(agent.id);
    expect(email).toMatchObject({ via: "porchlight", status: "sent", to_address: "jane@example.com", subject: "Saturday's showing" });
    expect(email!.reply_key).toMatch(/^[a-z2-7]{24}$/);
    const [outbox] = await rows<{ to_address: string; from_name: string; reply_to: string; kind: string; text_body: string }>(
      env.DB,
      "select * from email_outbox where id = ?",
      email!.outbox_id,
    );
    expect(outbox).toMatchObject({
      kind: "contact_email",
      to_address: "jane@example.com",
      from_name: "Dana Reyes",
      reply_to: `reply-${email!.reply_key}@${DOMAIN}`,
    });
    // A personal e-mail: no unsubscribe footer.
    expect(outbox!.text_body).toBe("Hi Jane,\n\nSee you at 10.\n\nDana");
    const [activity] = await rows<{ type: string; meta: string; notes: string }>(
      env.DB,
      "select * from crm_activities where id = ?",
      email!.activity_id,
    );
    expect(activity!.type).toBe("email_sent");
    expect(JSON.parse(activity!.meta)).toEqual({ emailId: email!.id, subject: "Saturday's showing", via: "porchlight", status: "sent" });
    const [contact] = await rows<{ first_response_at: number | null }>(env.DB, "select first_response_at from contacts where id = ?", contactId);
    expect(contact!.first_response_at).not.toBeNull();
    expect(await browser.page(`/contacts/${contactId}`)).toContain("Sent via Porchlight");
  });

  it("goes from the agent's connected Gmail, in a thread Porchlight keeps, with nothing for the provider", async () => {
    const mailbox = `agent-${crypto.randomUUID().slice(0, 8)}@gmail.test`;
    const { agent, contactId, browser } = await agentWithContact("jane@example.com", googleEnv());
    expect((await connectGmail(browser, mailbox)).status).toBe(302);
    const response = await send(browser, contactId, { subject: "Café on Saturday?" });
    expect(await response.json()).toMatchObject({ ok: true, via: "gmail", from: mailbox });
    const [email] = await emailsOf(agent.id);
    expect(email).toMatchObject({ via: "gmail", status: "sent", from_address: mailbox, reply_key: null, outbox_id: null });
    const sent = await fakeGoogle<{ threadId: string; headers: { name: string; value: string }[]; text: string }[]>(`${mailboxPath(mailbox)}/sent`);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.threadId).toBe(email!.thread_id);
    expect(sent[0]!.headers.find((h) => h.name.toLowerCase() === "to")?.value).toBe("jane@example.com");
    // The subject as RFC 2047 encodes it (UTF-8, base64), read back.
    const encoded = /^=\?UTF-8\?B\?(.+)\?=$/.exec(sent[0]!.headers.find((h) => h.name.toLowerCase() === "subject")!.value)![1]!;
    expect(new TextDecoder().decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)))).toBe("Café on Saturday?");
    expect(sent[0]!.text).toContain("See you at 10.");
    expect(await rows(env.DB, "select id from email_outbox where user_id = ? and kind = 'contact_email'", agent.id)).toEqual([]);
  });

  it("says Gmail needs reconnecting, and sends nothing another way", async () => {
    const mailbox = `agent-${crypto.randomUUID().slice(0, 8)}@gmail.test`;
    const { agent, contactId, browser } = await agentWithContact("jane@example.com", googleEnv());
    await connectGmail(browser, mailbox);
    await fakeGoogle(`${mailboxPath(mailbox)}/revoke-all`, {});
    await fakeGoogle(`${mailboxPath(mailbox)}/expire`, {});
    const response = await send(browser, contactId, {});
    expect(response.status).toBe(502);
    expect(((await response.json()) as { error: string }).error).toBe(SEND_MESSAGES.gmailReconnect);
    expect(await emailsOf(agent.id)).toEqual([]);
  });

  it("refuses, with its sentence and nothing sent: another agent's contact, no address, a bounced one, an unfilled field, an empty subject", async () => {
    const { agent, contactId, browser } = await agentWithContact();
    const other = await agentWithContact();
    expect((await send(other.browser, contactId, {})).status).toBe(404);

    const noAddress = await agentWithContact(null);
    const none = await send(noAddress.browser, noAddress.contactId, {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe(SEND_MESSAGES.noAddress("Jane Whitmore"));

    const unfilled = await send(browser, contactId, { body: "Hi Jane, about {property address}." });
    expect(unfilled.status).toBe(400);
    expect(((await unfilled.json()) as { error: string }).error).toBe(MERGE_MESSAGES.unfilled(["property address"]));
    expect((await send(browser, contactId, { subject: "  " })).status).toBe(400);

    await env.DB.prepare("update contacts set email_bounced_at = ? where id = ?").bind(Date.now(), contactId).run();
    const bounced = await send(browser, contactId, {});
    expect(((await bounced.json()) as { error: string }).error).toBe(SEND_MESSAGES.bounced("Jane Whitmore"));
    expect(await emailsOf(agent.id)).toEqual([]);
    expect(await emailsOf(other.agent.id)).toEqual([]);

    // The same address saved again still bounces; a new one may be written to.
    await updateContact(requestContext(), agent.userId, contactId, { email: "jane@example.com" });
    expect((await send(browser, contactId, {})).status).toBe(400);
    await updateContact(requestContext(), agent.userId, contactId, { email: "jane.new@example.com" });
    expect((await send(browser, contactId, {})).status).toBe(200);
    expect((await emailsOf(agent.id)).map((e) => e.to_address)).toEqual(["jane.new@example.com"]);
  });

  it("holds a Fair Housing phrase for review, then sends it as written once the agent has reviewed it", async () => {
    const { agent, contactId, browser } = await agentWithContact();
    const body = "Hi Jane,\n\nIt is a great home, perfect for young families, with excellent schools.\n\nDana";
    const held = await send(browser, contactId, { body });
    expect(held.status).toBe(409);
    const answer = (await held.json()) as { error: string; flags: { phrase: string }[] };
    expect(answer.error).toBe(SEND_MESSAGES.fairHousing);
    expect(answer.flags.map((f) => f.phrase.toLowerCase())).toEqual(expect.arrayContaining(["excellent schools"]));
    expect(await emailsOf(agent.id)).toEqual([]);
    expect((await send(browser, contactId, { body, reviewed: "1" })).status).toBe(200);
    expect(await emailsOf(agent.id)).toHaveLength(1);
  });

  it("offers the agent's e-mail and text templates, and says who the e-mail comes from", async () => {
    const { agent, browser, contactId } = await agentWithContact();
    await env.DB.prepare("update contacts set phone = '512-555-0148' where id = ?").bind(contactId).run();
    await env.DB.prepare(
      "insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Hello', 'Hi', 'Hi {first name}')",
    )
      .bind(crypto.randomUUID(), agent.id)
      .run();
    await env.DB.prepare(
      "insert into crm_templates (id, user_id, kind, name, body) values (?, ?, 'text', 'Running late', 'Running 10 minutes late!')",
    )
      .bind(crypto.randomUUID(), agent.id)
      .run();
    const options = (await (await browser.get(`/contacts/${contactId}/email`)).json()) as {
      templates: { name: string }[];
      texts: { name: string }[];
      from: { via: string; label: string };
    };
    expect(options.templates.map((t) => t.name)).toEqual(["Hello"]);
    expect(options.texts.map((t) => t.name)).toEqual(["Running late"]);
    expect(options.from).toMatchObject({ via: "porchlight", label: "Dana Reyes via Porchlight" });
    expect(await browser.page(`/contacts/${contactId}`)).toContain("Text from a template");
  });

  it("keeps the template it came from only when the template is the agent's to use", async () => {
    const { agent, contactId, browser } = await agentWithContact();
    const other = await createAgent(env.DB);
    const theirs = crypto.randomUUID();
    await env.DB.prepare("insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Theirs', 'S', 'B')")
      .bind(theirs, other.id)
      .run();
    const mine = crypto.randomUUID();
    await env.DB.prepare("insert into crm_templates (id, user_id, kind, name, subject, body) values (?, ?, 'email', 'Mine', 'S', 'B')")
      .bind(mine, agent.id)
      .run();
    await send(browser, contactId, { templateId: theirs });
    await send(browser, contactId, { templateId: mine });
    const sent = await emailsOf(agent.id);
    expect(sent.map((e) => e.template_id)).toEqual([null, mine]);
    // Its activity keeps the template too: deleting the template clears the log's template_id, and Reports still counts
    // the e-mail under a deleted template rather than as written by hand.
    await env.DB.prepare("delete from crm_templates where id = ?").bind(mine).run();
    const [activity] = await rows<{ meta: string }>(env.DB, "select meta from crm_activities where id = ?", sent[1]!.activity_id);
    expect(JSON.parse(activity!.meta)).toMatchObject({ templateId: mine });
    expect((await emailsOf(agent.id)).map((e) => e.template_id)).toEqual([null, null]);
  });

  it("adds the postal address and a one-click unsubscribe to marketing e-mail, and never sends it to a contact who unsubscribed", async () => {
    const { agent, contactId } = await agentWithContact();
    const context = requestContext();
    const input = { subject: "Market update", body: "Hi Jane, prices held steady this month.", templateId: null, reviewed: false };
    const noAddress = await sendContactEmail(context, agent.userId, contactId, input, { marketing: true, origin: "https://app.example" });
    expect(noAddress).toMatchObject({ ok: false, error: SEND_MESSAGES.noPostalAddress });
    await env.DB.prepare("update agent_profiles set postal_address = '100 Congress Ave, Austin, TX 78701' where user_id = ?").bind(agent.id).run();
    const sent = await sendContactEmail(context, agent.userId, contactId, input, { marketing: true, origin: "https://app.example" });
    expect(sent.ok).toBe(true);
    const [outbox] = await rows<{ text_body: string; html_body: string; headers: string }>(
      env.DB,
      "select * from email_outbox where id = ?",
      sent.ok ? sent.emailId : "",
    );
    expect(outbox!.text_body).toContain("100 Congress Ave, Austin, TX 78701");
    expect(outbox!.html_body).toContain("100 Congress Ave, Austin, TX 78701");
    const headers = JSON.parse(outbox!.headers) as Record<string, string>;
    expect(headers["List-Unsubscribe"]).toMatch(/^<https:\/\/app\.example\/unsubscribe\?c=/);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");

    await env.DB.prepare("update contacts set email_opt_out_at = ? where id = ?").bind(Date.now(), contactId).run();
    expect(await sendContactEmail(context, agent.userId, contactId, input, { marketing: true, origin: "https://app.example" })).toMatchObject({
      ok: false,
      error: SEND_MESSAGES.optedOut("Jane Whitmore"),
    });
  });
});
