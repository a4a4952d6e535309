import { env } from "cloudflare:workers";
import type { Env } from "~/lib/env.server";
import { vapidKeys } from "../fakes/push-service";
import { rowsOf } from "./rows";

// A contact's e-mail log for the replies and bounces tests (ADR 0071): contacts and the e-mails the agent sent them,
// written straight into D1 as the sending side writes them (the log row and its "email_sent" timeline activity).

/** A contact of the agent's, with an e-mail address. */
export async function addContact(d1: D1Database, userId: string, name = "Jane Whitmore", email = "jane.whitmore@example.com") {
  const id = crypto.randomUUID();
  await d1.prepare("insert into contacts (id, user_id, name, email, status) values (?, ?, ?, ?, 'hot')").bind(id, userId, name, email).run();
  return { id, name, email };
}

export interface SentEmailOptions {
  userId: string;
  contactId: string | null;
  via?: "porchlight" | "gmail";
  subject?: string;
  to?: string;
  from?: string;
  replyKey?: string;
  outboxId?: string;
  threadId?: string;
  providerMessageId?: string;
  occurredAt?: number;
}

/** An e-mail the agent sent, on the log (direction "out", status "sent") with its timeline activity. */
export async function sentEmail(d1: D1Database, options: SentEmailOptions) {
  const id = crypto.randomUUID();
  const activityId = options.contactId ? crypto.randomUUID() : null;
  const via = options.via ?? "porchlight";
  const subject = options.subject ?? "12 Oak St";
  const at = options.occurredAt ?? Date.now() - 60 * 60_000;
  const statements = [];
  if (activityId)
    statements.push(
      d1
        .prepare("insert into crm_activities (id, user_id, contact_id, type, occurred_at, notes, meta) values (?, ?, ?, 'email_sent', ?, ?, ?)")
        .bind(activityId, options.userId, options.contactId, at, subject, JSON.stringify({ emailId: id, subject, via, status: "sent" })),
    );
  statements.push(
    d1
      .prepare(
        `insert into contact_emails (id, user_id, contact_id, direction, via, from_address, to_address, subject, body, status, reply_key,
          thread_id, provider_message_id, outbox_id, activity_id, occurred_at)
         values (?, ?, ?, 'out', ?, ?, ?, ?, 'Would Saturday suit you for a viewing?', 'sent', ?, ?, ?, ?, ?, ?)`,
      )
      .bind(
        id,
        options.userId,
        options.contactId,
        via,
        options.from ?? "dana@example.com",
        options.to ?? "jane.whitmore@example.com",
        subject,
        options.replyKey ?? null,
        options.threadId ?? null,
        options.providerMessageId ?? null,
        options.outboxId ?? null,
        activityId,
        at,
      ),
  );
  await d1.batch(statements);
  return { id, activityId };
}

/** The agent's e-mail log rows of one direction, oldest first. */
export function logOf(d1: D1Database, userId: string, direction: "in" | "out") {
  return rowsOf<{
    id: string;
    contact_id: string | null;
    via: string;
    status: string;
    from_address: string;
    subject: string;
    body: string;
    replies_to: string | null;
    activity_id: string | null;
    rfc_message_id: string | null;
    thread_id: string | null;
    provider_message_id: string | null;
    occurred_at: number;
  }>(d1, "select * from contact_emails where user_id = ? and direction = ? order by occurred_at, rowid", userId, direction);
}

/** The agent's timeline activities of a type. */
export function activitiesOf(d1: D1Database, userId: string, type: string) {
  return rowsOf<{ id: string; contact_id: string | null; notes: string | null; meta: string; occurred_at: number }>(
    d1,
    "select id, contact_id, notes, meta, occurred_at from crm_activities where user_id = ? and type = ? order by occurred_at",
    userId,
    type,
  );
}

/** The pushes written for the agent. */
export function pushesOf(d1: D1Database, userId: string) {
  return rowsOf<{ kind: string; title: string; body: string; url: string }>(
    d1,
    "select kind, title, body, url from push_outbox where user_id = ?",
    userId,
  );
}

/** The Worker's settings with push notifications on (VAPID keys of the test's own). */
export async function withPush(base: Env = env as Env): Promise<Env> {
  return { ...base, FEATURE_FLAGS: "PUSH_NOTIFICATIONS=on", ...(await vapidKeys()) };
}
