import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmTasks, deals, emailOutbox, leadAlerts, userPreferences } from "~/db/schema";
import type { DigestQueueMessage, Env } from "~/lib/env.server";
import { d1MeterOf, D1_LIMITS, limitD1 } from "~/lib/d1-limits";
import { digestJob } from "../../workers/cron/digest.job";
import { buildDigest, DIGEST_QUEUE_NAME, digestOn, queueDueDigests, renderDigest, setDigest, unsubscribeUrl } from "~/modules/digest/digest.server";
import { WAITING_SHOWN } from "~/modules/reports/figures";
import { localNow } from "~/modules/tasks/due";
import { JOBS } from "../../workers/cron";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { atInstant, shiftDay } from "../factories/dates";
import { capturingQueue as capturingQueueOf, deliverBatch } from "../factories/queues";
import { createAgent, setSubscriptionStatus } from "../factories/users";

// The daily digest e-mail: its content (the agent's own rows only), 7:00 in the agent's timezone, once a
// day, opt-in, and a one-click unsubscribe that needs no sign-in.

const db = createDb(env.DB);
const DAY = 86_400_000;
afterEach(() => vi.restoreAllMocks());

/** 22:10 UTC today: 07:10 the next morning in Tokyo, the afternoon in New York. Computed, so it holds on any day. */
function tokyoMorning(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 22, 10));
}

async function agentIn(timezone: string, digest = true) {
  const user = await createAgent(env.DB);
  await db
    .insert(userPreferences)
    .values({ userId: user.id, timezone, digestEmail: digest, digestOrigin: "https://app.porchlight.test" })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { timezone, digestEmail: digest, digestOrigin: "https://app.porchlight.test" } });
  return user;
}

let n = 0;
const task = (userId: string, title: string, dueDate: string, fields: Partial<typeof crmTasks.$inferInsert> = {}) =>
  db.insert(crmTasks).values({ id: `dg-t-${++n}-${crypto.randomUUID().slice(0, 6)}`, userId, title, dueDate, ...fields });
const deal = (userId: string, title: string, expectedCloseDate: string) =>
  db.insert(deals).values({
    id: `dg-d-${++n}-${crypto.randomUUID().slice(0, 6)}`,
    userId,
    title,
    stage: "under_contract",
    position: `a${n}`,
    dealValueCents: 40_000_000,
    commissionRate: 3,
    probability: 90,
    expectedCloseDate,
    createdAt: new Date(),
    stageChangedAt: new Date(),
  });

const capturingQueue = () => capturingQueueOf<DigestQueueMessage>();

/** The digest queue's consumer at `at`, in batches of 10 (wrangler.toml), each batch its own metered invocation. */
async function deliverDigests(bodies: DigestQueueMessage[], at: Date, overrides: Partial<Env> = {}) {
  let mostQueries = 0;
  for (let i = 0; i < bodies.length; i += 10) {
    const invocation = limitD1({ ...(env as Env), ...overrides }, `queue ${DIGEST_QUEUE_NAME}`);
    const result = await atInstant(at.toISOString(), () => deliverBatch(DIGEST_QUEUE_NAME, bodies.slice(i, i + 10), 1, invocation));
    expect(result.acked.sort()).toEqual(result.ids.sort());
    mostQueries = Math.max(mostQueries, d1MeterOf(invocation.DB)!.queries);
  }
  return { mostQueries };
}

/** The cron's digest run at `at`, then the digest queue's consumer for what it queued, as the queue would deliver it. */
async function sendDueDigests(context: { overrides?: Partial<Env> }, at: Date) {
  const { bodies, queue } = capturingQueue();
  await queueDueDigests(requestContext({ ...context.overrides, DIGEST_QUEUE: queue }), at);
  await deliverDigests(bodies, at, context.overrides);
  return bodies;
}

const digestsTo = (userId: string) =>
  db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.userId, userId), eq(emailOutbox.kind, "daily_digest")))
    .all();

describe("the digest's content", () => {
  it("lists today's tasks, what is overdue, closings in the next seven days and waiting leads, the agent's own only", async () => {
    const at = tokyoMorning();
    const user = await agentIn("Asia/Tokyo");
    const other = await agentIn("Asia/Tokyo");
    const today = localNow("Asia/Tokyo", at).date;
    await task(user.id, "Call the Okafors <today>", today, { dueTime: "09:30" });
    await task(user.id, "Send the comps", shiftDay(today, -2));
    await task(user.id, "Done already", today, { status: "completed", completedAt: new Date() });
    await task(user.id, "Next week's task", shiftDay(today, 7));
    await deal(user.id, "14 Birch Lane", shiftDay(today, 3));
    await deal(user.id, "Far-off close", shiftDay(today, 10));
    const lead = {
      id: crypto.randomUUID(),
      userId: user.id,
      name: "Rowan Lee",
      phone: "555 0142",
      createdAt: new Date(),
      lastActivity: new Date(),
      leadAt: new Date(at.getTime() - 60 * 60_000),
    };
    await db.insert(contacts).values(lead);
    await db.insert(leadAlerts).values({ contactId: lead.id, userId: user.id, arrivedAt: at.getTime() - 60 * 60_000 });
    await task(other.id, "Someone else's task", today);
    await deal(other.id, "Someone else's deal", shiftDay(today, 1));

    const digest = await buildDigest(requestContext(), user.userId, at);
    expect(digest).toMatchObject({
      day: today,
      today: [{ title: "Call the Okafors <today>", time: "09:30", contact: null }],
      todayCount: 1,
      overdue: [{ title: "Send the comps", dueDate: shiftDay(today, -2) }],
      overdueCount: 1,
      closings: [{ title: "14 Birch Lane", date: shiftDay(today, 3) }],
      leads: [{ name: "Rowan Lee", contact: "555 0142" }],
    });
    const mail = renderDigest(digest, {
      app: "https://app.porchlight.test/dashboard",
      unsubscribe: "https://app.porchlight.test/digest/unsubscribe?u=x&s=y",
    });
    expect(mail.subject).toMatch(/^Your day, .+: 1 task, 1 overdue, 1 closing this week$/);
    // Times as the agent reads them: 12-hour by default, 24-hour for an agent who chose it.
    expect(mail.text).toContain("- 9:30 AM Call the Okafors <today>");
    const european = renderDigest(
      digest,
      { app: "https://app.porchlight.test/dashboard", unsubscribe: "https://app.porchlight.test/digest/unsubscribe?u=x&s=y" },
      { dateFormat: "EU", timeFormat: "24h" },
    );
    expect(european.text).toContain("- 09:30 Call the Okafors <today>");
    expect(mail.text).toContain(`New leads waiting (1)\n${WAITING_SHOWN}\n- Rowan Lee · 555 0142`);
    expect(mail.text).toContain("Stop it with one click: https://app.porchlight.test/digest/unsubscribe?u=x&s=y");
    // Every value is escaped in the HTML.
    expect(mail.html).toContain("Call the Okafors &lt;today&gt;");
    expect(mail.html).not.toContain("<today>");
    expect(mail.text).not.toContain("Someone else");
  });
});

describe("sending", () => {
  it("goes at 7:00 in each agent's own timezone, once a day, only to agents who turned it on and are in good standing", async () => {
    const at = tokyoMorning();
    const tokyo = await agentIn("Asia/Tokyo");
    const newYork = await agentIn("America/New_York");
    const off = await agentIn("Asia/Tokyo", false);
    const lapsed = await agentIn("Asia/Tokyo");
    await setSubscriptionStatus(env.DB, lapsed.id, "canceled");
    const context = {};

    await sendDueDigests(context, at);
    expect(await digestsTo(tokyo.id)).toHaveLength(1);
    for (const user of [newYork, off, lapsed]) expect(await digestsTo(user.id)).toHaveLength(0);
    // Later the same morning: not again.
    await sendDueDigests(context, new Date(at.getTime() + 30 * 60_000));
    expect(await digestsTo(tokyo.id)).toHaveLength(1);
    // Before 7:00 in New York nothing; at 7:05 there, the New York agent's.
    const nyMorning = new Date(at.getTime() + 13 * 3_600_000);
    const [h, m] = localNow("America/New_York", nyMorning).time.split(":").map(Number) as [number, number];
    // 6:55 in New York, that morning.
    const nySeven = new Date(nyMorning.getTime() + (6 * 60 + 55 - (h * 60 + m)) * 60_000);
    await sendDueDigests(context, nySeven);
    expect(await digestsTo(newYork.id)).toHaveLength(0);
    await sendDueDigests(context, new Date(nySeven.getTime() + 10 * 60_000));
    const [mail] = await digestsTo(newYork.id);
    expect(mail?.subject).toMatch(/^Your day, /);
    expect(mail?.toAddress).toBe(newYork.email);
    // The next Tokyo morning brings the next one.
    await sendDueDigests(context, new Date(at.getTime() + DAY));
    expect(await digestsTo(tokyo.id)).toHaveLength(2);
  });

  it("writes each agent's times in their own 12- or 24-hour clock", async () => {
    const at = tokyoMorning();
    const twelve = await agentIn("Asia/Tokyo");
    const twentyFour = await agentIn("Asia/Tokyo");
    await db.update(userPreferences).set({ timeFormat: "24h" }).where(eq(userPreferences.userId, twentyFour.id));
    const today = localNow("Asia/Tokyo", at).date;
    for (const user of [twelve, twentyFour]) await task(user.id, "Showing at Birch Lane", today, { dueTime: "15:00" });
    await sendDueDigests({}, at);
    const [first] = await digestsTo(twelve.id);
    const [second] = await digestsTo(twentyFour.id);
    expect(first?.textBody).toContain("- 3:00 PM Showing at Birch Lane");
    expect(second?.textBody).toContain("- 15:00 Showing at Birch Lane");
    expect(first?.htmlBody).toContain("3:00 PM Showing at Birch Lane");
  });

  it("queues the digest with the one-click unsubscribe headers the consumer hands the mail provider", async () => {
    // The e-mail queue's consumer sends a row's headers as they are (tests/workers/email-queue.test.ts).
    const at = tokyoMorning();
    const user = await agentIn("Asia/Tokyo");
    await sendDueDigests({ overrides: { RESEND_API_KEY: "re_test" } }, at);
    const mine = await db
      .select({ headers: emailOutbox.headers, status: emailOutbox.status })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, user.email), eq(emailOutbox.kind, "daily_digest")))
      .get();
    expect(mine?.status).toBe("queued");
    expect(mine?.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mine?.headers?.["List-Unsubscribe"]).toMatch(
      new RegExp(`^<https://app\\.porchlight\\.test/digest/unsubscribe\\?u=${user.id}&s=[\\w-]+>$`),
    );
  });

  it("runs in the five-minute cron", () => {
    expect(JOBS["*/5 * * * *"]!.map((job) => job.name)).toContain("digestJob");
  });
});

describe("turning it on and off", () => {
  it("is off until the agent turns it on in Settings → Notifications", async () => {
    const user = await createAgent(env.DB);
    expect(await digestOn({ db }, user.userId)).toBe(false);
    const browser = await signInAs(user);
    expect(await (await browser.get("/settings?tab=notifications")).text()).toContain("The daily digest is off.");
    const turned = await browser.post("/settings?tab=notifications", { intent: "digest", on: "1" });
    expect(turned.status).toBe(302);
    expect(await digestOn({ db }, user.userId)).toBe(true);
    expect(await (await browser.get("/settings?tab=notifications")).text()).toContain("The daily digest is on.");
    await browser.post("/settings?tab=notifications", { intent: "digest", on: "0" });
    expect(await digestOn({ db }, user.userId)).toBe(false);
  });

  it("stops with the e-mail's link, signed in or not, by a person or a mail app's one-click POST; a forged link changes nothing", async () => {
    const user = await agentIn("Asia/Tokyo");
    const other = await agentIn("Asia/Tokyo");
    const context = requestContext();
    const link = new URL(await unsubscribeUrl(context, "http://localhost", user.id));
    const stranger = new TestBrowser();
    const page = await stranger.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Stop the daily digest");
    expect(await digestOn({ db }, user.userId)).toBe(true);

    // Forged: another agent's id under this signature, a bad signature, nothing at all.
    const forged = [`?u=${other.id}&s=${link.searchParams.get("s")}`, `?u=${user.id}&s=bad`, ""];
    for (const search of forged) {
      const response = await stranger.fetch(`/digest/unsubscribe${search}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(response.status, search).toBe(400);
    }
    expect(await digestOn({ db }, other.userId)).toBe(true);
    expect(await digestOn({ db }, user.userId)).toBe(true);

    // A mail app's one-click unsubscribe: a POST with no Origin and no cookie.
    const oneClick = await stranger.fetch(link.pathname + link.search, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain("you will not get the daily digest any more");
    expect(await digestOn({ db }, user.userId)).toBe(false);
    expect(await digestOn({ db }, other.userId)).toBe(true);
    await setDigest(context, user.userId, true, null);
  });
});

it("the cron job queues the digest of an agent for whom it is 8:00 now, with no request behind it, and the queue sends it", async () => {
  // A fixed-offset zone where it is 8 in the morning right now (Etc/GMT-N is UTC+N).
  let offset = (8 - new Date().getUTCHours() + 24) % 24;
  if (offset > 14) offset -= 24;
  const user = await agentIn(`Etc/GMT${offset >= 0 ? "-" : "+"}${Math.abs(offset)}`);
  const job = JOBS["*/5 * * * *"]!.find((j) => j.name === "digestJob")!;
  const { bodies, queue } = capturingQueue();
  await job(db, { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, { ...(env as Env), DIGEST_QUEUE: queue });
  expect(await digestsTo(user.id)).toHaveLength(0);
  expect(bodies.filter((b) => b.userId === user.id)).toHaveLength(1);
  await deliverDigests(bodies, new Date());
  expect(await digestsTo(user.id)).toHaveLength(1);
});

describe("the digest queue", () => {
  const scheduled = { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController;

  it("fans 300 due agents out from one cron run that stays inside D1's limits, and each gets exactly one digest", async () => {
    const at = tokyoMorning();
    const agents = [];
    for (let i = 0; i < 300; i++) agents.push(await agentIn("Asia/Tokyo"));
    const today = localNow("Asia/Tokyo", at).date;
    for (const agent of agents.slice(0, 20)) await task(agent.id, "Morning call", today);

    // The cron's run, metered as its own invocation (the harness enforces: a crossing throws).
    const { bodies, queue } = capturingQueue();
    const cron = limitD1({ ...(env as Env), DIGEST_QUEUE: queue }, "scheduled digest");
    await atInstant(at.toISOString(), () => digestJob(createDb(cron.DB), scheduled, cron));
    const cronQueries = d1MeterOf(cron.DB)!.queries;
    // A handful of statements per hundred agents, not a digest's worth per agent.
    expect(cronQueries).toBeLessThan(50);
    const ids = new Set<string>(agents.map((a) => a.id));
    const mine = bodies.filter((b) => ids.has(b.userId));
    expect(mine).toHaveLength(300);
    expect(mine.every((b) => b.day === today)).toBe(true);
    for (const agent of agents.slice(0, 3)) expect(await digestsTo(agent.id)).toHaveLength(0);

    // The consumer, ten agents a batch, each batch its own invocation under the harness.
    const { mostQueries } = await deliverDigests(mine, at);
    expect(mostQueries).toBeLessThanOrEqual(D1_LIMITS.queriesPerInvocation);
    for (const agent of agents) expect(await digestsTo(agent.id), agent.id).toHaveLength(1);
    expect((await digestsTo(agents[0]!.id))[0]?.textBody).toContain("Morning call");

    // Delivered again (Queues deliver at least once) and the cron run again the same morning: still one each.
    await deliverDigests(mine.slice(0, 30), at);
    const { bodies: again, queue: queueAgain } = capturingQueue();
    const rerun = limitD1({ ...(env as Env), DIGEST_QUEUE: queueAgain }, "scheduled digest");
    await atInstant(new Date(at.getTime() + 5 * 60_000).toISOString(), () => digestJob(createDb(rerun.DB), scheduled, rerun));
    expect(again.filter((b) => ids.has(b.userId))).toEqual([]);
    for (const agent of agents) expect(await digestsTo(agent.id), agent.id).toHaveLength(1);
  }, 60_000);

  it("sends nothing to an agent who turned the digest off after the cron queued it", async () => {
    const at = tokyoMorning();
    const user = await agentIn("Asia/Tokyo");
    const { bodies, queue } = capturingQueue();
    await queueDueDigests(requestContext({ DIGEST_QUEUE: queue }), at);
    await setDigest(requestContext(), user.userId, false, null);
    await deliverDigests(
      bodies.filter((b) => b.userId === user.id),
      at,
    );
    expect(await digestsTo(user.id)).toHaveLength(0);
  });
});
