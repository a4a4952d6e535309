import { and, eq, isNull, or, sql } from "drizzle-orm";
import { subscribers, userPreferences, users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { DigestQueueMessage } from "~/lib/env.server";
import { linkIdOn, requestShard, routeRequestByKey, shardOfLinkId, shardTag, unprefixedLinkId } from "~/lib/shards.server";
import { hmacSign, hmacVerify } from "~/lib/crypto";
import { DEFAULT_DISPLAY_PREFERENCES, formatDay, type DisplayPreferences } from "~/lib/format";
import { escapeHtml, sendEmail } from "~/lib/mailer.server";
import type { UserId } from "~/modules/auth/session.server";
import { SEND_BATCH_MAX, sendInBatches } from "~/modules/outgoing/queue-delivery.server";
import { WAITING_SHOWN } from "~/modules/reports/figures";
import { leadsWaitingNow } from "~/modules/reports/figures.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { localNow } from "~/modules/tasks/due";
import { formatClock } from "~/modules/tasks/due-label";
import { closingsQuery, listTasks } from "~/modules/tasks/tasks.server";

// The daily digest (ADR 0032): at 7:00 in the agent's timezone, one e-mail with today's tasks, what is
// overdue, closings in the next seven days and new leads still waiting. Opt-in (Settings → Notifications), one a
// day, with a one-click unsubscribe (RFC 8058) that needs no sign-in.

/** The digest queue, as wrangler.toml names it. */
export const DIGEST_QUEUE_NAME = "porchlight-digest";

/** The local hour the digest goes out at; the cron runs every five minutes, so it leaves between 7:00 and 7:05. */
export const DIGEST_HOUR = 7;
/** A digest the cron could not send by this local hour (an outage) is skipped for the day: it is a morning e-mail. */
const LAST_HOUR = 11;
/** Rows listed per section; the heading gives the full count. */
const LIST = 10;

export interface Digest {
  day: string;
  today: { title: string; time: string | null; contact: string | null }[];
  todayCount: number;
  overdue: { title: string; dueDate: string; contact: string | null }[];
  overdueCount: number;
  closings: { title: string; date: string }[];
  leads: { name: string; contact: string | null }[];
  /** Every lead waiting (figures.server.ts, as the dashboard counts them), of which `leads` lists the oldest. */
  leadsCount: number;
}

const closingsWeekEnd = (day: string) => {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 6);
  return date.toISOString().slice(0, 10);
};

/** What the agent's digest says on `at`, read from their own rows only. */
export async function buildDigest(context: RequestContext, userId: UserId, at = new Date()): Promise<Digest> {
  const prefs = await getDisplayPreferences(context, userId);
  const now = localNow(prefs.timezone, at);
  const start = { date: now.date, time: "00:00" };
  const [today, overdue, closings, leads] = await Promise.all([
    listTasks(context, userId, "today", start, LIST),
    listTasks(context, userId, "overdue", start, LIST),
    closingsQuery(context, userId, now.date, closingsWeekEnd(now.date)),
    leadsWaitingNow(context, userId, at.getTime(), LIST),
  ]);
  return {
    day: now.date,
    today: today.tasks.map((t) => ({ title: t.title, time: t.dueTime, contact: t.contactName })),
    todayCount: today.counts.today,
    overdue: overdue.tasks.map((t) => ({ title: t.title, dueDate: t.dueDate, contact: t.contactName })),
    overdueCount: overdue.counts.overdue,
    closings: closings.slice(0, LIST).map((d) => ({ title: d.title, date: (d.closingDate ?? d.expectedCloseDate)! })),
    leads: leads.leads.map((l) => ({ name: l.name, contact: l.phone ?? l.email })),
    leadsCount: leads.count,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The digest as an e-mail: subject, text and HTML, every value escaped; dates and times as the agent reads them. */
export function renderDigest(
  digest: Digest,
  links: { app: string; unsubscribe: string },
  prefs: Pick<DisplayPreferences, "dateFormat" | "timeFormat"> = DEFAULT_DISPLAY_PREFERENCES,
) {
  const subject = `Your day, ${formatDay(digest.day, prefs)}: ${plural(digest.todayCount, "task", "tasks")}, ${digest.overdueCount} overdue, ${plural(digest.closings.length, "closing", "closings")} this week`;
  const sections: { title: string; note?: string; lines: string[]; empty: string }[] = [
    {
      title: `New leads waiting (${digest.leadsCount})`,
      note: WAITING_SHOWN,
      lines: digest.leads.map((l) => `${l.name}${l.contact ? ` · ${l.contact}` : ""}`),
      empty: "No new lead is waiting for you.",
    },
    {
      title: `Today (${digest.todayCount})`,
      lines: digest.today.map((t) => `${t.time ? `${formatClock(t.time, prefs)} ` : ""}${t.title}${t.contact ? ` · ${t.contact}` : ""}`),
      empty: "Nothing due today.",
    },
    {
      title: `Overdue (${digest.overdueCount})`,
      lines: digest.overdue.map((t) => `${t.title} · due ${formatDay(t.dueDate, prefs)}${t.contact ? ` · ${t.contact}` : ""}`),
      empty: "Nothing overdue.",
    },
    {
      title: `Closing this week (${digest.closings.length})`,
      lines: digest.closings.map((c) => `${formatDay(c.date, prefs)} · ${c.title}`),
      empty: "No closing in the next seven days.",
    },
  ];
  const more = (shown: number, total: number) => (total > shown ? [`and ${total - shown} more in Porchlight`] : []);
  sections[0]!.lines.push(...more(digest.leads.length, digest.leadsCount));
  sections[1]!.lines.push(...more(digest.today.length, digest.todayCount));
  sections[2]!.lines.push(...more(digest.overdue.length, digest.overdueCount));
  const text = [
    `Your day in Porchlight, ${formatDay(digest.day, prefs)}`,
    ...sections.map((s) => `\n${s.title}\n${s.note ? `${s.note}\n` : ""}${(s.lines.length ? s.lines : [s.empty]).map((l) => `- ${l}`).join("\n")}`),
    `\nOpen Porchlight: ${links.app}`,
    `\nYou get this because you turned on the daily digest. Stop it with one click: ${links.unsubscribe}`,
  ].join("\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1c1917">
<h1 style="font-size:20px">Your day in Porchlight, ${escapeHtml(formatDay(digest.day, prefs))}</h1>
${sections
  .map(
    (s) =>
      `<h2 style="font-size:16px;margin-top:20px">${escapeHtml(s.title)}</h2>${s.note ? `<p style="font-size:14px;color:#57534e">${escapeHtml(s.note)}</p>` : ""}${
        s.lines.length
          ? `<ul>${s.lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>`
          : `<p style="color:#57534e">${escapeHtml(s.empty)}</p>`
      }`,
  )
  .join("\n")}
<p><a href="${escapeHtml(links.app)}" style="display:inline-block;padding:12px 20px;background:#b45309;color:#fff;border-radius:8px;text-decoration:none">Open Porchlight</a></p>
<p style="font-size:14px;color:#57534e">You get this because you turned on the daily digest. <a href="${escapeHtml(links.unsubscribe)}">Stop the daily digest</a>.</p>
</body></html>`;
  return { subject, text, html };
}

/**
 * The unsubscribe link's signature: the agent's id under the session secret, so it works without signing in. The id
 * of an agent on shard n carries the shard's prefix, as e-mailed links' ids do (ADR 0060), and is signed with it.
 */
const unsubscribeMessage = (agent: string) => `digest-unsubscribe:${agent}`;
export async function unsubscribeUrl(context: Pick<RequestContext, "config" | "cloudflare">, origin: string, userId: string): Promise<string> {
  const agent = linkIdOn(requestShard(context.cloudflare.env), userId);
  const signature = await hmacSign(context.config.SESSION_SECRET, unsubscribeMessage(agent));
  return `${origin}/digest/unsubscribe?u=${encodeURIComponent(agent)}&s=${signature}`;
}

/**
 * Checks an unsubscribe link's agent and signature, before any database read, and routes the request to the agent's
 * database; null when the link is not one of ours (or the request cannot read that database: signed in elsewhere).
 */
export async function verifyUnsubscribe(
  context: Pick<RequestContext, "config" | "cloudflare">,
  agent: string | null,
  signature: string | null,
): Promise<UserId | null> {
  if (!agent || !signature || agent.length > 64 || signature.length > 100) return null;
  if (!(await hmacVerify(context.config.SESSION_SECRET, unsubscribeMessage(agent), signature).catch(() => false))) return null;
  return routeRequestByKey(context.cloudflare.env, shardOfLinkId(agent)) ? (unprefixedLinkId(agent) as UserId) : null;
}

/** Turns the digest on or off. Turning it on remembers the app's address for the e-mail's links. */
export async function setDigest(context: RequestContext, userId: UserId, on: boolean, origin: string | null): Promise<void> {
  await context.db
    .insert(userPreferences)
    .values({ userId, digestEmail: on, digestOrigin: origin })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { digestEmail: on, ...(on && origin ? { digestOrigin: origin } : {}), updatedAt: new Date() },
    });
}

export async function digestOn(context: Pick<RequestContext, "db">, userId: UserId): Promise<boolean> {
  const row = await context.db.select({ on: userPreferences.digestEmail }).from(userPreferences).where(eq(userPreferences.userId, userId)).get();
  return row?.on ?? false;
}

/** Agents put on the digest queue per cron run: 50 claiming statements and 50 sendBatch calls at most. */
const QUEUED_PER_RUN = 5_000;

/**
 * The cron's run (ADR 0056): every agent with the digest on, a subscription in good standing, and 7:00 (to 11:00) on
 * their clock, who has not had today's, is claimed for their day and put on the digest queue, a hundred per
 * statement and per sendBatch; the queue's consumer builds and sends each digest (sendQueuedDigest). So a run costs
 * a few queries per hundred agents, and no invocation grows with the number of agents. Returns how many were queued.
 */
export async function queueDueDigests(context: Pick<RequestContext, "db" | "config">, at = new Date()): Promise<number> {
  const candidates = await context.db
    .select({
      userId: userPreferences.userId,
      timezone: userPreferences.timezone,
      sentOn: userPreferences.digestSentOn,
      origin: userPreferences.digestOrigin,
    })
    .from(userPreferences)
    .innerJoin(users, and(eq(users.id, userPreferences.userId), isNull(users.purgeAfter)))
    .innerJoin(subscribers, and(eq(subscribers.userId, userPreferences.userId), sql`${subscribers.subscriptionStatus} in ('active', 'trialing')`))
    .where(eq(userPreferences.digestEmail, true))
    .limit(QUEUED_PER_RUN)
    .all();
  const due: DigestQueueMessage[] = [];
  for (const agent of candidates) {
    const now = localNow(agent.timezone, at);
    const hour = Number(now.time.slice(0, 2));
    if (hour < DIGEST_HOUR || hour > LAST_HOUR || agent.sentOn === now.date) continue;
    if (!(context.config.PUBLIC_URL ?? agent.origin)) continue;
    due.push({ userId: agent.userId, day: now.date });
  }
  let queued = 0;
  for (let i = 0; i < due.length; i += SEND_BATCH_MAX) {
    const chunk = JSON.stringify(due.slice(i, i + SEND_BATCH_MAX));
    // Claimed for the day in one statement (the agents and their days as one JSON parameter), so two runs never
    // queue one agent twice; only those claimed here go on the queue.
    const dayOf = sql`(select json_extract(j.value, '$.day') from json_each(${chunk}) j where json_extract(j.value, '$.userId') = ${userPreferences.userId})`;
    const claimed = await context.db
      .update(userPreferences)
      .set({ digestSentOn: dayOf })
      .where(
        and(
          sql`${userPreferences.userId} in (select json_extract(value, '$.userId') from json_each(${chunk}))`,
          or(isNull(userPreferences.digestSentOn), sql`${userPreferences.digestSentOn} <> ${dayOf}`),
        ),
      )
      .returning({ userId: userPreferences.userId, day: userPreferences.digestSentOn });
    const messages = claimed.map((c) => ({ userId: c.userId, day: c.day!, ...shardTag(context.db.$client) }));
    if (messages.length === 0) continue;
    try {
      await sendInBatches(context.config.digestQueue, messages);
      queued += messages.length;
    } catch (error) {
      // The queue refused them: the claim is let go, so the next run (five minutes on) queues them again.
      console.error(
        JSON.stringify({ event: "digest_enqueue_failed", agents: messages.length, detail: error instanceof Error ? error.message : String(error) }),
      );
      await context.db
        .update(userPreferences)
        .set({ digestSentOn: null })
        .where(sql`${userPreferences.userId} in (select json_extract(value, '$.userId') from json_each(${JSON.stringify(messages)}))`);
    }
  }
  return queued;
}

/**
 * The digest queue's consumer, for one agent and day: builds the digest as of `at` and sends it under the key
 * `digest:<agent>:<day>`, so a message delivered twice is one e-mail. Nothing goes when the agent turned the digest
 * off, closed the account or lapsed since, or when the day is over on their clock. Returns whether it was sent.
 */
async function sendQueuedDigest(context: RequestContext, message: DigestQueueMessage, at = new Date()): Promise<boolean> {
  const agent = await context.db
    .select({
      email: users.email,
      timezone: userPreferences.timezone,
      dateFormat: userPreferences.dateFormat,
      timeFormat: userPreferences.timeFormat,
      origin: userPreferences.digestOrigin,
    })
    .from(userPreferences)
    .innerJoin(users, and(eq(users.id, userPreferences.userId), isNull(users.purgeAfter)))
    .innerJoin(subscribers, and(eq(subscribers.userId, userPreferences.userId), sql`${subscribers.subscriptionStatus} in ('active', 'trialing')`))
    .where(and(eq(userPreferences.userId, message.userId), eq(userPreferences.digestEmail, true), eq(userPreferences.digestSentOn, message.day)))
    .get();
  const origin = context.config.PUBLIC_URL ?? agent?.origin;
  if (!agent || !origin || localNow(agent.timezone, at).date !== message.day) return false;
  const userId = message.userId as UserId;
  const unsubscribe = await unsubscribeUrl(context, origin, userId);
  const mail = renderDigest(
    await buildDigest(context, userId, at),
    { app: `${origin}/dashboard`, unsubscribe },
    { dateFormat: agent.dateFormat, timeFormat: agent.timeFormat },
  );
  await sendEmail(context, {
    kind: "daily_digest",
    key: `digest:${userId}:${message.day}`,
    to: agent.email,
    userId,
    ...mail,
    headers: { "List-Unsubscribe": `<${unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  });
  return true;
}

/** The digest queue's handler: each agent's digest on its own, a failure retried (by the queue) without the others. */
export async function consumeDigestBatch(batch: MessageBatch<DigestQueueMessage>, context: RequestContext): Promise<void> {
  for (const message of batch.messages) {
    try {
      await sendQueuedDigest(context, message.body);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ event: "digest_failed", detail: error instanceof Error ? error.message : String(error) }));
      message.retry();
    }
  }
}
