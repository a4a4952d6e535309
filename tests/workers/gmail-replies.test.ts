import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { sendWithGmail } from "~/modules/gmail/mailbox.server";
import { JOBS } from "../../workers/cron";
import { signInAs } from "../factories/browser";
import { activitiesOf, addContact, logOf, pushesOf, sentEmail, withPush } from "../factories/contact-emails";
import { requestContext } from "../factories/context";
import { connectGmail, fakeGoogle, googleEnv, mailboxPath } from "../factories/google";
import { rowsOf } from "../factories/rows";
import { createAgent } from "../factories/users";

// Replies in the agent's Gmail threads (ADR 0071): the five-minute cron's gmail-replies job reads the threads of the
// e-mails the agent sent from Gmail (the fake Google's mailbox), records each contact's reply once on the log and
// the timeline and pushes it, ignores the agent's own messages, skips a mailbox that needs reconnecting and takes
// the mail system's report as a bounce.

const job = JOBS["*/5 * * * *"]!.find((j) => j.name === "gmailRepliesJob")!;
const run = (runEnv: Env) => job(createDb(env.DB), { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, runEnv);

/** An agent with Gmail connected, their contact Jane and an e-mail sent to her from Gmail, on the log. */
async function gmailConversation() {
  const runEnv = await withPush(googleEnv());
  const agent = await createAgent(env.DB);
  const mailbox = `agent-${crypto.randomUUID().slice(0, 8)}@gmail.test`;
  expect((await connectGmail((await signInAs(agent)).using(runEnv), mailbox)).status).toBe(302);
  const deps = requestContext(runEnv);
  const contact = await addContact(env.DB, agent.id);
  const mail = await sendWithGmail(deps, agent.userId, { to: contact.email, subject: "12 Oak St", text: "Would Saturday suit you for a viewing?" });
  const sent = await sentEmail(env.DB, {
    userId: agent.id,
    contactId: contact.id,
    via: "gmail",
    from: mailbox,
    threadId: mail.threadId,
    providerMessageId: mail.messageId,
    occurredAt: Date.now() - 60_000,
  });
  const reply = (json: Record<string, unknown>) => fakeGoogle<{ id: string }>(`${mailboxPath(mailbox)}/threads/${mail.threadId}/reply`, json);
  return { runEnv, agent, deps, mailbox, contact, mail, sent, reply };
}

describe("the gmail-replies job", () => {
  it("records a contact's reply once across two runs, without the quote, pushes it, and ignores the agent's own messages", async () => {
    const { runEnv, agent, deps, contact, mail, sent, reply } = await gmailConversation();
    const { id } = await reply({
      from: "Jane Whitmore <jane.whitmore@example.com>",
      text: "Yes, Saturday works.\n\nOn Mon, Nov 2, 2026 at 9:14 AM Dana <dana@gmail.test> wrote:\n> Would Saturday suit you for a viewing?",
      at: Date.now() - 30_000,
    });
    // The agent writes again in the thread: theirs, not a reply.
    await sendWithGmail(deps, agent.userId, { to: contact.email, subject: "Re: 12 Oak St", text: "Great, see you then.", threadId: mail.threadId });

    expect(await run(runEnv)).toMatch(/^[\d,]+ repl(y|ies) and [\d,]+ bounces? from [\d,]+ threads? of [\d,]+ agents?/);
    await run(runEnv);
    const replies = await logOf(env.DB, agent.id, "in");
    expect(replies).toEqual([
      expect.objectContaining({
        contact_id: contact.id,
        via: "gmail",
        status: "received",
        from_address: "jane.whitmore@example.com",
        body: "Yes, Saturday works.",
        thread_id: mail.threadId,
        provider_message_id: id,
        replies_to: sent.id,
      }),
    ]);
    expect(replies[0]!.occurred_at).toBeLessThanOrEqual(Date.now());
    const activities = await activitiesOf(env.DB, agent.id, "email_received");
    expect(activities.map((a) => [a.id, a.notes])).toEqual([[replies[0]!.activity_id, "Yes, Saturday works."]]);
    expect(await pushesOf(env.DB, agent.id)).toEqual([
      { kind: "email_reply", title: "Jane Whitmore replied: 12 Oak St", body: "Yes, Saturday works.", url: `/contacts/${contact.id}` },
    ]);
    const [connection] = await rowsOf<{ last_checked_at: number | null }>(
      env.DB,
      "select last_checked_at from gmail_connections where user_id = ?",
      agent.id,
    );
    expect(connection!.last_checked_at).toEqual(expect.any(Number));
  });

  it("skips a mailbox that needs reconnecting, and marks a mail system's report as a bounce", async () => {
    const revoked = await gmailConversation();
    await revoked.reply({ from: "Jane Whitmore <jane.whitmore@example.com>", text: "Yes." });
    await fakeGoogle(`${mailboxPath(revoked.mailbox)}/revoke-all`, {});
    await fakeGoogle(`${mailboxPath(revoked.mailbox)}/expire`, {});

    const bounced = await gmailConversation();
    await bounced.reply({
      from: "Mail Delivery Subsystem <mailer-daemon@googlemail.com>",
      subject: "Delivery Status Notification (Failure)",
      text: "Address not found. Your message wasn't delivered to jane.whitmore@example.com.",
    });

    const detail = await run(await withPush(googleEnv()));
    expect(detail).toMatch(/[\d,]+ mailbox(es)? to reconnect skipped/);
    expect(await logOf(env.DB, revoked.agent.id, "in")).toEqual([]);
    const [connection] = await rowsOf<{ status: string }>(env.DB, "select status from gmail_connections where user_id = ?", revoked.agent.id);
    expect(connection!.status).toBe("needs_reconnect");

    expect(await logOf(env.DB, bounced.agent.id, "in")).toEqual([]);
    expect((await logOf(env.DB, bounced.agent.id, "out"))[0]).toMatchObject({ id: bounced.sent.id, status: "bounced" });
    const [activity] = await rowsOf<{ meta: string }>(env.DB, "select meta from crm_activities where id = ?", bounced.sent.activityId);
    expect(JSON.parse(activity!.meta)).toMatchObject({ status: "bounced" });
    const [contact] = await rowsOf<{ email_bounced_at: number | null }>(
      env.DB,
      "select email_bounced_at from contacts where id = ?",
      bounced.contact.id,
    );
    expect(contact!.email_bounced_at).toEqual(expect.any(Number));
    expect(await pushesOf(env.DB, bounced.agent.id)).toEqual([]);
  });
});
