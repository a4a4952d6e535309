import { and, desc, eq, gte, isNotNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contactEmails, contacts, gmailConnections } from "~/db/schema";
import type { Config } from "~/lib/env.server";
import type { UserId } from "~/lib/tenancy.server";
import { gmailSetup } from "~/modules/gmail/connection.server";
import { GmailError, openGmailMailbox, type ThreadMessage } from "~/modules/gmail/mailbox.server";
import { isMailSystem } from "~/modules/intake/mail.server";
import { markEmailProblem } from "./bounces.server";
import { boundedArrival, pushReply, recordReply, type IncomingReply } from "./replies.server";
import { replyText } from "./reply-text";

// Replies in the agent's Gmail threads (ADR 0071), read by the five-minute cron in each database: for each connected
// mailbox, the threads of the e-mails the agent sent from it in the last 30 days. A message in one that is not the
// agent's and not on the log yet is a reply (recorded and pushed like one to a reply address); one from the mail system
// (mailer-daemon@, postmaster@, a delivery status notification) marks the e-mail it answers bounced. Sized for a
// Worker: at most GMAIL_REQUESTS_PER_RUN Gmail requests a pass, agents least recently checked first.

/** Gmail requests one pass makes at most (a thread read each, and one per agent for its token). */
const GMAIL_REQUESTS_PER_RUN = 40;
/** Threads of e-mails sent this long ago or less are read. */
const REPLY_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
/** The most threads of one agent considered (their latest first); an agent's pass reads the next ones in turn. */
const THREADS_LISTED = 500;

const DSN_SUBJECT =
  /^\s*(delivery status notification|undeliverable|undelivered mail|mail delivery (failed|failure|subsystem)|returned mail|delivery failure)/i;

/** The addr-spec of "Name <addr>", lower case. */
const addressOf = (value: string) => (/<([^>]+)>/.exec(value)?.[1] ?? value).trim().toLowerCase();

/** The mail system's report on an e-mail (a bounce), rather than a person's reply. */
function isDeliveryReport(message: Pick<ThreadMessage, "from" | "subject">): boolean {
  return isMailSystem(addressOf(message.from)) || DSN_SUBJECT.test(message.subject);
}

export interface GmailPass {
  agents: number;
  threads: number;
  replies: number;
  bounces: number;
  /** Agents whose mailbox needs reconnecting: skipped. */
  skipped: number;
  /** Thread reads that failed (Gmail refused or was unreachable): tried again next pass. */
  errors: number;
}

interface Deps {
  db: Db;
  config: Config;
  kv: KVNamespace;
}

/** The connected agents with e-mails sent from Gmail within the window, least recently checked first. */
function agentsToCheck(db: Db, since: Date) {
  return db
    .select({ userId: gmailConnections.userId })
    .from(gmailConnections)
    .where(
      and(
        eq(gmailConnections.status, "connected"),
        sql`exists (select 1 from contact_emails e where e.user_id = ${gmailConnections.userId} and e.direction = 'out'
          and e.via = 'gmail' and e.thread_id is not null and e.occurred_at >= ${since.getTime()})`,
      ),
    )
    .orderBy(sql`${gmailConnections.lastCheckedAt} is not null`, gmailConnections.lastCheckedAt)
    .limit(GMAIL_REQUESTS_PER_RUN)
    .all();
}

/** The agent's threads within the window, latest first. */
async function threadsOf(db: Db, userId: string, since: Date): Promise<string[]> {
  const rows = await db
    .select({ threadId: contactEmails.threadId })
    .from(contactEmails)
    .where(
      and(
        eq(contactEmails.userId, userId),
        eq(contactEmails.via, "gmail"),
        eq(contactEmails.direction, "out"),
        isNotNull(contactEmails.threadId),
        gte(contactEmails.occurredAt, since),
      ),
    )
    .groupBy(contactEmails.threadId)
    .orderBy(desc(sql`max(${contactEmails.occurredAt})`))
    .limit(THREADS_LISTED)
    .all();
  return rows.map((r) => r.threadId!);
}

/**
 * The next `n` of the agent's threads, taking up where their last pass stopped (a cursor in KV, kept only for an
 * agent with more threads than one pass reads), so every thread is read in turn.
 */
async function nextThreads(kv: KVNamespace, userId: string, threads: string[], n: number): Promise<string[]> {
  if (threads.length <= n) return threads;
  const key = `gmail-replies:cursor:${userId}`;
  const start = Number((await kv.get(key)) ?? 0) % threads.length;
  await kv.put(key, String((start + n) % threads.length), { expirationTtl: Math.ceil(REPLY_WINDOW_MS / 1000) });
  return Array.from({ length: n }, (_, i) => threads[(start + i) % threads.length]!);
}

/** The thread's rows on the log, with the contact of each. */
function threadRows(db: Db, userId: string, threadId: string) {
  return db
    .select({
      id: contactEmails.id,
      userId: contactEmails.userId,
      direction: contactEmails.direction,
      contactId: contactEmails.contactId,
      contactName: contacts.name,
      activityId: contactEmails.activityId,
      providerMessageId: contactEmails.providerMessageId,
      occurredAt: contactEmails.occurredAt,
    })
    .from(contactEmails)
    .leftJoin(contacts, and(eq(contacts.id, contactEmails.contactId), eq(contacts.userId, contactEmails.userId)))
    .where(and(eq(contactEmails.userId, userId), eq(contactEmails.threadId, threadId)))
    .orderBy(contactEmails.occurredAt)
    .all();
}

/** Records what is new in one thread; counts replies and bounces into `pass`. */
async function readThreadReplies(deps: Deps, userId: string, threadId: string, messages: ThreadMessage[], pass: GmailPass, now: Date) {
  const rows = await threadRows(deps.db, userId, threadId);
  const known = new Set(rows.map((r) => r.providerMessageId).filter(Boolean));
  const sent = rows.filter((r) => r.direction === "out");
  for (const message of messages) {
    if (message.isFromMe || known.has(message.id)) continue;
    // The e-mail it answers: the agent's latest before it, else their latest.
    const answered = sent.filter((r) => r.occurredAt.getTime() <= message.date).at(-1) ?? sent.at(-1);
    if (!answered) continue;
    if (isDeliveryReport(message)) {
      await markEmailProblem(deps.db, answered, "bounced", now);
      pass.bounces++;
      continue;
    }
    const reply: IncomingReply = {
      repliesTo: answered,
      via: "gmail",
      from: addressOf(message.from),
      to: addressOf(message.to),
      subject: message.subject,
      text: replyText(message.text),
      occurredAt: boundedArrival(message.date > 0 ? new Date(message.date) : null, now),
      identity: message.id,
      rfcMessageId: null,
      threadId,
      providerMessageId: message.id,
      auto: false,
    };
    const recorded = await recordReply(deps.db, reply);
    if (!recorded.isNew) continue;
    pass.replies++;
    await pushReply(deps, reply, recorded.id).catch((error: unknown) =>
      console.error(JSON.stringify({ event: "reply_push_failed", message: error instanceof Error ? error.message : String(error) })),
    );
  }
}

/** One pass over this database's connected mailboxes. */
export async function pollGmailReplies(deps: Deps, now = new Date()): Promise<GmailPass | null> {
  if (!gmailSetup(deps.config).ready) return null;
  const pass: GmailPass = { agents: 0, threads: 0, replies: 0, bounces: 0, skipped: 0, errors: 0 };
  const since = new Date(now.getTime() - REPLY_WINDOW_MS);
  let budget = GMAIL_REQUESTS_PER_RUN;
  for (const { userId } of await agentsToCheck(deps.db, since)) {
    if (budget < 2) break;
    budget--; // the agent's token (a refresh, when it ran out)
    pass.agents++;
    await deps.db.update(gmailConnections).set({ lastCheckedAt: now }).where(eq(gmailConnections.userId, userId));
    const mailbox = await openGmailMailbox(deps, userId as UserId);
    if (!mailbox) continue;
    const threads = await nextThreads(deps.kv, userId, await threadsOf(deps.db, userId, since), budget);
    for (const threadId of threads) {
      budget--;
      pass.threads++;
      try {
        await readThreadReplies(deps, userId, threadId, await mailbox.threadMessages(threadId), pass, now);
      } catch (error) {
        if (error instanceof GmailError && (error.code === "needs_reconnect" || error.code === "not_connected")) {
          // The connection says so already (Settings → E-mail asks them to reconnect): nothing more to read for them.
          pass.skipped++;
          break;
        }
        pass.errors++;
        console.error(JSON.stringify({ event: "gmail_replies_failed", code: error instanceof GmailError ? error.code : "error" }));
      }
    }
  }
  return pass;
}
