import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "~/lib/env.server";
import { SVIX_TOLERANCE_SECONDS } from "~/lib/svix.server";
import { addContact, logOf, sentEmail } from "../factories/contact-emails";
import { rowsOf } from "../factories/rows";
import { agentOnShard1 } from "../factories/shards";
import { createAgent } from "../factories/users";

// The e-mail provider's events (ADR 0071): POST /api/email/events, signed in the Svix scheme with
// RESEND_WEBHOOK_SECRET. A bounce or a complaint about an e-mail sent as Porchlight marks it on the contact's log, on
// its timeline activity and on the contact (bounced; opted out), in the database the event's tags name or, without
// them, wherever it is. A bad or stale signature changes nothing; an unknown e-mail is answered 200.

const worker = (exports as unknown as { default: Fetcher }).default;
const SECRET = (env as Env).RESEND_WEBHOOK_SECRET!;

async function signature(secret: string, id: string, timestamp: number, body: string) {
  const keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (c) => c.charCodeAt(0));
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestamp}.${body}`)));
  return `v1,${btoa(String.fromCharCode(...mac))}`;
}

/** Posts an event as the provider does; `tamper` changes the body after signing, `timestamp` is in seconds. */
async function postEvent(event: unknown, options: { timestamp?: number; secret?: string; tamper?: boolean } = {}) {
  const body = JSON.stringify(event);
  const id = `msg_${crypto.randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  const signed = await signature(options.secret ?? SECRET, id, timestamp, body);
  return worker.fetch(
    new Request("http://localhost/api/email/events", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "svix-id": id,
        "svix-timestamp": String(timestamp),
        // A rotated-out secret's signature listed first, as the provider does while a secret rotates.
        "svix-signature": `v1,${btoa("an old secret's signature")} ${signed}`,
      },
      body: options.tamper ? body.replace("email.", "email.x") : body,
    }),
  );
}

const event = (type: string, emailId: string, data: Record<string, unknown> = {}) => ({
  type,
  created_at: new Date().toISOString(),
  data: { email_id: emailId, from: "Dana Reyes via Porchlight <hello@porchlight.app>", subject: "12 Oak St", ...data },
});

/** An agent, their contact and an e-mail sent to her as Porchlight through an outbox row the provider has taken. */
async function sentThroughProvider(d1: D1Database = env.DB, agent?: { id: string }) {
  const owner = agent ?? (await createAgent(d1));
  const contact = await addContact(d1, owner.id, "Jane Whitmore", `jane-${crypto.randomUUID().slice(0, 8)}@example.com`);
  const outboxId = crypto.randomUUID();
  const providerId = `re_${crypto.randomUUID()}`;
  await d1
    .prepare(
      `insert into email_outbox (id, user_id, kind, to_address, subject, text_body, html_body, status, provider, provider_message_id)
       values (?, ?, 'contact_email', ?, '12 Oak St', 'Hi', '<p>Hi</p>', 'sent', 'resend', ?)`,
    )
    .bind(outboxId, owner.id, contact.email, providerId)
    .run();
  const sent = await sentEmail(d1, { userId: owner.id, contactId: contact.id, outboxId, to: contact.email });
  return { agent: owner, contact, outboxId, providerId, sent };
}

const contactFlags = (d1: D1Database, id: string) =>
  rowsOf<{ email_bounced_at: number | null; email_opt_out_at: number | null }>(
    d1,
    "select email_bounced_at, email_opt_out_at from contacts where id = ?",
    id,
  ).then((rows) => rows[0]!);
const activityStatus = async (d1: D1Database, id: string | null) =>
  JSON.parse((await rowsOf<{ meta: string }>(d1, "select meta from crm_activities where id = ?", id))[0]!.meta).status as string;

describe("the provider's events", () => {
  it("refuse a bad, stale or missing signature and change nothing", async () => {
    const { agent, contact, providerId, outboxId } = await sentThroughProvider();
    const bounce = event("email.bounced", providerId, { to: [contact.email], tags: { shard: "0", outbox: outboxId } });
    expect((await postEvent(bounce, { tamper: true })).status).toBe(400);
    expect((await postEvent(bounce, { secret: `whsec_${btoa("another secret entirely")}` })).status).toBe(400);
    const stale = await postEvent(bounce, { timestamp: Math.floor(Date.now() / 1000) - SVIX_TOLERANCE_SECONDS - 60 });
    expect(stale.status).toBe(400);
    expect(await stale.json()).toEqual({ error: "Invalid signature." });
    const unsigned = await worker.fetch(
      new Request("http://localhost/api/email/events", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(bounce),
      }),
    );
    expect(unsigned.status).toBe(400);
    expect((await logOf(env.DB, agent.id, "out"))[0]!.status).toBe("sent");
    expect(await contactFlags(env.DB, contact.id)).toEqual({ email_bounced_at: null, email_opt_out_at: null });
  });

  it("a bounce marks the e-mail, its timeline activity and the contact, once; another agent's rows are never touched", async () => {
    const { agent, contact, providerId, outboxId, sent } = await sentThroughProvider();
    const bystander = await sentThroughProvider();
    const bounce = event("email.bounced", providerId, { to: [contact.email], tags: { shard: "0", outbox: outboxId }, bounce: { type: "Permanent" } });
    const first = await postEvent(bounce);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, result: "applied" });
    expect((await logOf(env.DB, agent.id, "out"))[0]).toMatchObject({ id: sent.id, status: "bounced" });
    expect(await activityStatus(env.DB, sent.activityId)).toBe("bounced");
    const marked = await contactFlags(env.DB, contact.id);
    expect(marked.email_bounced_at).toEqual(expect.any(Number));
    expect(marked.email_opt_out_at).toBeNull();
    // Delivered again: the same, the contact's date kept.
    expect((await postEvent(bounce)).status).toBe(200);
    expect(await contactFlags(env.DB, contact.id)).toEqual(marked);
    // Another agent's e-mail with the outbox id of this one but not its provider id: not found, nothing changes.
    const forged = await postEvent(event("email.bounced", bystander.providerId, { tags: { shard: "0", outbox: outboxId } }));
    expect(await forged.json()).toEqual({ received: true, result: "unknown" });
    expect((await logOf(env.DB, bystander.agent.id, "out"))[0]!.status).toBe("sent");
    expect(await activityStatus(env.DB, bystander.sent.activityId)).toBe("sent");
    expect(await contactFlags(env.DB, bystander.contact.id)).toEqual({ email_bounced_at: null, email_opt_out_at: null });
  });

  it("a complaint without tags is found by its recipient and opts the contact out; an unknown e-mail is answered 200", async () => {
    const { agent, contact, providerId, sent } = await sentThroughProvider();
    const complaint = await postEvent(event("email.complained", providerId, { to: [contact.email] }));
    expect(await complaint.json()).toEqual({ received: true, result: "applied" });
    expect((await logOf(env.DB, agent.id, "out"))[0]!.status).toBe("complained");
    expect(await activityStatus(env.DB, sent.activityId)).toBe("complained");
    expect(await contactFlags(env.DB, contact.id)).toEqual({ email_bounced_at: null, email_opt_out_at: expect.any(Number) });

    const unknown = await postEvent(event("email.bounced", `re_${crypto.randomUUID()}`, { to: ["nobody@example.com"] }));
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toEqual({ received: true, result: "unknown" });
    const delivered = await postEvent(event("email.delivered", providerId, { to: [contact.email] }));
    expect(await delivered.json()).toEqual({ received: true, result: "ignored" });
    expect((await logOf(env.DB, agent.id, "out"))[0]!.status).toBe("complained");
  });

  it("a bounced instant first reply marks the lead it went to", async () => {
    const agent = await createAgent(env.DB);
    const contact = await addContact(env.DB, agent.id, "Sam Ortiz", "sam.ortiz@example.com");
    const replyId = crypto.randomUUID();
    const providerId = `re_${crypto.randomUUID()}`;
    await env.DB.batch([
      env.DB.prepare(
        "insert into lead_first_replies (id, user_id, contact_id, source, due_at, status, outbox_id) values (?, ?, ?, 'zillow', ?, 'sent', ?)",
      ).bind(replyId, agent.id, contact.id, Date.now(), replyId),
      env.DB.prepare(
        `insert into email_outbox (id, user_id, kind, to_address, subject, text_body, html_body, status, provider, provider_message_id)
         values (?, ?, 'first_reply', ?, 'Thanks', 'Hi', '<p>Hi</p>', 'sent', 'resend', ?)`,
      ).bind(replyId, agent.id, contact.email, providerId),
    ]);
    const answer = await postEvent(
      event("email.bounced", providerId, {
        to: [contact.email],
        tags: [
          { name: "shard", value: "0" },
          { name: "outbox", value: replyId },
        ],
      }),
    );
    expect(await answer.json()).toEqual({ received: true, result: "applied" });
    expect((await contactFlags(env.DB, contact.id)).email_bounced_at).toEqual(expect.any(Number));
  });

  it("finds an e-mail of an account on the second database by the tag naming it, and without tags by looking there", async () => {
    const agent = await agentOnShard1();
    const tagged = await sentThroughProvider(env.DB_SHARD_1, agent);
    const untagged = await sentThroughProvider(env.DB_SHARD_1, agent);
    await postEvent(event("email.bounced", tagged.providerId, { to: [tagged.contact.email], tags: { shard: "1", outbox: tagged.outboxId } }));
    await postEvent(event("email.bounced", untagged.providerId, { to: [untagged.contact.email] }));
    const statuses = (await logOf(env.DB_SHARD_1, agent.id, "out")).map((r) => r.status);
    expect(statuses).toEqual(["bounced", "bounced"]);
    expect((await contactFlags(env.DB_SHARD_1, untagged.contact.id)).email_bounced_at).toEqual(expect.any(Number));
  });
});
