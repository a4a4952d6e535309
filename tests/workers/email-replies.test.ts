import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { newReplyKey, replyAddress } from "~/modules/conversations/reply-address.server";
import { contactRepliedAt, REPLY_MESSAGES } from "~/modules/conversations/replies.server";
import { INTAKE_MAX_BYTES } from "~/modules/intake/intake.server";
import { activitiesOf, addContact, logOf, pushesOf, sentEmail, withPush } from "../factories/contact-emails";
import { deliverEmail } from "../factories/intake";
import { rowsOf } from "../factories/rows";
import { agentOnShard1 } from "../factories/shards";
import { createAgent } from "../factories/users";

// Contacts' replies to e-mail sent as "Agent via Porchlight" (ADR 0071): the e-mail's own reply address,
// reply-<key>@INTAKE_DOMAIN, reaches the Worker's email() handler, which records the reply on the contact's e-mail log
// and timeline once, without the quoted e-mail, and pushes the agent; anything not for a known conversation is
// rejected with its reason, and nothing is written.

const DOMAIN = "leads.porchlight.app";

/** A reply as a mail program sends it: the contact's words above the quoted e-mail. */
function replyMail(options: {
  to: string;
  messageId?: string;
  from?: string;
  subject?: string;
  text?: string;
  headers?: string[];
  sentAgoMs?: number;
}) {
  const date = new Date(Date.now() - (options.sentAgoMs ?? 60_000)).toUTCString().replace("GMT", "+0000");
  return [
    `From: ${options.from ?? "Jane Whitmore <jane.whitmore@example.com>"}`,
    `To: ${options.to}`,
    `Subject: ${options.subject ?? "Re: 12 Oak St"}`,
    `Date: ${date}`,
    `Message-ID: ${options.messageId ?? `<${crypto.randomUUID()}@mail.example.com>`}`,
    ...(options.headers ?? []),
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    options.text ??
      "Saturday at 10 works for me.\nSee you there!\n\nOn Mon, Nov 2, 2026 at 9:14 AM Dana Reyes via Porchlight <\nreply@leads.porchlight.app> wrote:\n> Would Saturday suit you for a viewing?\n> Dana",
    "",
  ].join("\r\n");
}

/** An agent, their contact Jane and an e-mail sent to her as Porchlight with a reply key on `d1`'s shard. */
async function conversation(d1: D1Database = env.DB, shard = 0) {
  const agent = shard === 0 ? await createAgent(d1) : await agentOnShard1();
  const contact = await addContact(d1, agent.id);
  const key = newReplyKey(shard);
  const sent = await sentEmail(d1, { userId: agent.id, contactId: contact.id, replyKey: key });
  return { agent, contact, key, sent, address: replyAddress(key, DOMAIN) };
}

describe("a reply to a reply address", () => {
  it("lands on the contact's log and timeline once, without the quoted e-mail, and the agent is pushed", async () => {
    const { agent, contact, sent, address } = await conversation();
    const runEnv = await withPush();
    const raw = replyMail({ to: address, messageId: `<twice-${crypto.randomUUID()}@mail.example.com>` });
    const before = Date.now();
    expect(await deliverEmail(address, raw, undefined, runEnv)).toBeNull();
    expect(await deliverEmail(address.toUpperCase(), raw, undefined, runEnv)).toBeNull();

    const replies = await logOf(env.DB, agent.id, "in");
    expect(replies).toHaveLength(1);
    const [reply] = replies;
    expect(reply).toMatchObject({
      contact_id: contact.id,
      via: "porchlight",
      status: "received",
      from_address: "jane.whitmore@example.com",
      subject: "Re: 12 Oak St",
      body: "Saturday at 10 works for me.\nSee you there!",
      replies_to: sent.id,
      rfc_message_id: expect.stringMatching(/^<twice-/),
    });
    // When it was written (the Date, whole seconds), never later than it arrived.
    expect(reply!.occurred_at).toBeLessThanOrEqual(Date.now());
    expect(Math.abs(reply!.occurred_at - (before - 60_000))).toBeLessThanOrEqual(1_000);

    const activities = await activitiesOf(env.DB, agent.id, "email_received");
    expect(activities).toEqual([
      {
        id: reply!.activity_id,
        contact_id: contact.id,
        notes: "Saturday at 10 works for me.\nSee you there!",
        meta: JSON.stringify({ emailId: reply!.id, subject: "Re: 12 Oak St" }),
        occurred_at: reply!.occurred_at,
      },
    ]);
    expect(await pushesOf(env.DB, agent.id)).toEqual([
      {
        kind: "email_reply",
        title: "Jane Whitmore replied: 12 Oak St",
        body: "Saturday at 10 works for me. See you there!",
        url: `/contacts/${contact.id}`,
      },
    ]);
    // What an action plan asks: she replied, at that time; not since a moment after it.
    const db = createDb(env.DB);
    expect((await contactRepliedAt(db, agent.id, contact.id, new Date(before - 3_600_000)))?.getTime()).toBe(reply!.occurred_at);
    expect(await contactRepliedAt(db, agent.id, contact.id, new Date(reply!.occurred_at + 1))).toBeNull();
  });

  it("an out-of-office is recorded flagged auto, not pushed and not a reply to plans; a deleted contact's reply is logged without an activity", async () => {
    const { agent, contact, address } = await conversation();
    const runEnv = await withPush();
    const away = replyMail({
      to: address,
      subject: "Automatic reply: 12 Oak St",
      text: "I am away until Monday.",
      headers: ["Auto-Submitted: auto-replied"],
    });
    expect(await deliverEmail(address, away, undefined, runEnv)).toBeNull();
    const [activity] = await activitiesOf(env.DB, agent.id, "email_received");
    expect(JSON.parse(activity!.meta)).toMatchObject({ auto: 1 });
    expect(await pushesOf(env.DB, agent.id)).toEqual([]);
    expect(await contactRepliedAt(createDb(env.DB), agent.id, contact.id, new Date(Date.now() - 3_600_000))).toBeNull();

    const orphan = await createAgent(env.DB);
    const key = newReplyKey(0);
    await sentEmail(env.DB, { userId: orphan.id, contactId: null, replyKey: key });
    expect(await deliverEmail(replyAddress(key, DOMAIN), replyMail({ to: replyAddress(key, DOMAIN) }), undefined, runEnv)).toBeNull();
    const [logged] = await logOf(env.DB, orphan.id, "in");
    expect(logged).toMatchObject({ contact_id: null, activity_id: null, body: "Saturday at 10 works for me.\nSee you there!" });
    expect(await activitiesOf(env.DB, orphan.id, "email_received")).toEqual([]);
    expect(await pushesOf(env.DB, orphan.id)).toEqual([]);
  });

  it("from the mail system marks the e-mail bounced and the contact, and adds no reply", async () => {
    const { agent, contact, sent, address } = await conversation();
    const report = replyMail({
      to: address,
      from: "Mail Delivery System <MAILER-DAEMON@mx.example.com>",
      subject: "Undelivered Mail Returned to Sender",
      text: "This is the mail system: the address was not found.",
    });
    expect(await deliverEmail(address, report)).toBeNull();
    expect(await logOf(env.DB, agent.id, "in")).toEqual([]);
    const [out] = await logOf(env.DB, agent.id, "out");
    expect(out).toMatchObject({ id: sent.id, status: "bounced" });
    const [marked] = await rowsOf<{ email_bounced_at: number | null }>(env.DB, "select email_bounced_at from contacts where id = ?", contact.id);
    expect(marked!.email_bounced_at).toEqual(expect.any(Number));
    const [activity] = await rowsOf<{ meta: string }>(env.DB, "select meta from crm_activities where id = ?", sent.activityId);
    expect(JSON.parse(activity!.meta)).toMatchObject({ status: "bounced" });
  });

  it("on the second database is read and recorded there", async () => {
    const { agent, address } = await conversation(env.DB_SHARD_1, 1);
    expect(address).toMatch(/^reply-s1_[a-z2-7]{24}@/);
    expect(await deliverEmail(address, replyMail({ to: address }))).toBeNull();
    expect(await logOf(env.DB_SHARD_1, agent.id, "in")).toHaveLength(1);
    expect(await logOf(env.DB, agent.id, "in")).toEqual([]);
  });

  it("is rejected with its reason when the key is unknown, another database's or not bound, too large or a flood, and nothing is written", async () => {
    const { agent, key, address } = await conversation();
    const unknown = replyAddress(newReplyKey(0), DOMAIN);
    expect(await deliverEmail(unknown, replyMail({ to: unknown }))).toBe(REPLY_MESSAGES.noSuchAddress);
    // The same key read on the second database (where it is not) or on a database this Worker does not bind.
    const elsewhere = replyAddress(`s1_${key}`, DOMAIN);
    expect(await deliverEmail(elsewhere, replyMail({ to: elsewhere }))).toBe(REPLY_MESSAGES.noSuchAddress);
    const unbound = replyAddress(`s7_${key}`, DOMAIN);
    expect(await deliverEmail(unbound, replyMail({ to: unbound }))).toBe(REPLY_MESSAGES.noSuchAddress);
    // On another domain it is not a reply address at all: lead intake rejects it.
    expect(await deliverEmail(`reply-${key}@other.example.com`, replyMail({ to: address }))).not.toBeNull();
    expect(await deliverEmail(address, replyMail({ to: address }), INTAKE_MAX_BYTES + 1)).toBe(REPLY_MESSAGES.tooLarge);
    expect(await logOf(env.DB, agent.id, "in")).toEqual([]);

    // A flood: the key's counter is at its limit for this hour (and the next, should the hour turn meanwhile).
    const windowMs = RATE_LIMITS.replyEmail.windowSeconds * 1000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    for (const window of [start, start + windowMs])
      await (env as Env).KV.put(`rl:reply-email:${key}:${window}`, String(RATE_LIMITS.replyEmail.limit), { expirationTtl: 7200 });
    expect(await deliverEmail(address, replyMail({ to: address }))).toBe(REPLY_MESSAGES.tooMany);
    expect(await logOf(env.DB, agent.id, "in")).toEqual([]);
    expect(await activitiesOf(env.DB, agent.id, "email_received")).toEqual([]);
  });
});
