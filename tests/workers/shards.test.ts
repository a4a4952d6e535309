import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BOOKMARK_COOKIE } from "~/lib/d1-session.server";
import type { CronQueueMessage, EmailQueueMessage, Env, PurgeQueueMessage } from "~/lib/env.server";
import { PURGE_QUEUE_NAME } from "~/modules/data/purge.server";
import { EMAIL_QUEUE_NAME } from "~/modules/email/delivery.server";
import worker from "../../workers/app";
import { CRON_QUEUE_NAME, EVERY_DATABASE, runJob } from "../../workers/cron";
import { accountPurgeJob } from "../../workers/cron/account-purge.job";
import { databaseFigures } from "~/modules/shards/figures.server";
import { databaseSize } from "~/modules/shards/directory.server";
import { postContact, signInAs, TestBrowser } from "../factories/browser";
import { failingD1 } from "../factories/context";
import { linkFromLatestEmail } from "../factories/mail";
import { postWebhook, stripeEvent, subscriptionObject } from "../factories/stripe";
import { capturingQueue, deliverBatch } from "../factories/queues";
import { agentOnShard1 } from "../factories/shards";
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from "../factories/users";

// One database per shard (ADR 0060): DB is shard 0 (the home database, with the directory of accounts), DB_SHARD_1 is
// shard 1. Every request is routed once, by its session or by the key a signed-out flow carries, and reads and writes
// that one database.

async function addContact(browser: TestBrowser, name: string) {
  expect((await postContact(browser, name)).status).toBe(200);
}

async function contactIdIn(d1: D1Database, userId: string, name: string) {
  const row = await d1.prepare("select id from contacts where user_id = ? and name = ?").bind(userId, name).first<{ id: string }>();
  return row?.id ?? null;
}

const countIn = (d1: D1Database, table: string, column: string, value: string) =>
  d1
    .prepare(`select count(*) as n from "${table}" where "${column}" = ?`)
    .bind(value)
    .first<{ n: number }>()
    .then((row) => row!.n);

/** The Worker with new accounts going to the shards listed. */
const accepting = (shards: string): Env => ({ ...(env as Env), SHARDS_ACCEPTING: shards });

describe("one database per shard", () => {
  it("an agent on shard 1 signs in by e-mail, and their requests read and write shard 1 only", async () => {
    const agent = await agentOnShard1();
    const browser = await signInAs(agent);
    const name = `Shard One ${crypto.randomUUID().slice(0, 8)}`;
    await addContact(browser, name);

    const id = await contactIdIn(env.DB_SHARD_1, agent.id, name);
    expect(id).not.toBeNull();
    expect(await countIn(env.DB, "contacts", "user_id", agent.id)).toBe(0);
    expect(await countIn(env.DB, "users", "id", agent.id)).toBe(0);
    expect(await browser.page("/contacts")).toContain(name);
    expect(await browser.page(`/contacts/${id}`)).toContain(name);
    // The write's bookmark names its database, so the next request starts its session on the same one.
    expect(browser.cookies.get(BOOKMARK_COOKIE)).toMatch(/^1(:|%3A)/);
  });

  it("keeps accounts apart across databases: another agent's id is 404 either way", async () => {
    const far = await agentOnShard1();
    const home = await createUser(env.DB);
    const farBrowser = await signInAs(far);
    const homeBrowser = await signInAs(home);
    const farName = `Far ${crypto.randomUUID().slice(0, 8)}`;
    const homeName = `Home ${crypto.randomUUID().slice(0, 8)}`;
    await addContact(farBrowser, farName);
    await addContact(homeBrowser, homeName);
    const farId = (await contactIdIn(env.DB_SHARD_1, far.id, farName))!;
    const homeId = (await contactIdIn(env.DB, home.id, homeName))!;

    expect((await farBrowser.get(`/contacts/${homeId}`)).status).toBe(404);
    expect((await homeBrowser.get(`/contacts/${farId}`)).status).toBe(404);
    const farList = await farBrowser.page("/contacts");
    expect(farList).toContain(farName);
    expect(farList).not.toContain(homeName);
    const homeList = await homeBrowser.page("/contacts");
    expect(homeList).toContain(homeName);
    expect(homeList).not.toContain(farName);
    // Neither database holds the other's rows.
    expect(await countIn(env.DB_SHARD_1, "contacts", "user_id", home.id)).toBe(0);
    expect(await countIn(env.DB, "contacts", "user_id", far.id)).toBe(0);
  });

  it("a wrong password on shard 1 is counted on shard 1", async () => {
    const agent = await agentOnShard1();
    const response = await new TestBrowser().post("/auth", { mode: "signin", email: agent.email, password: "not the password", website_url: "" });
    expect(response.status).toBe(401);
    const row = await env.DB_SHARD_1.prepare("select failed_signin_count as n from users where id = ?").bind(agent.id).first<{ n: number }>();
    expect(row?.n).toBe(1);
  });

  it("sign-up places the account in a shard taking new accounts, lists it, and its e-mailed link finds it signed out", async () => {
    const email = uniqueEmail("shard-signup");
    const browser = new TestBrowser().using(accepting("1"));
    const signup = await browser.post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" });
    expect(signup.status).toBe(302);

    const listed = await env.DB.prepare("select user_id, shard from account_directory where email = ?")
      .bind(email)
      .first<{ user_id: string; shard: number }>();
    expect(listed?.shard).toBe(1);
    const userId = listed!.user_id;
    expect(await countIn(env.DB_SHARD_1, "users", "id", userId)).toBe(1);
    expect(await countIn(env.DB_SHARD_1, "subscribers", "user_id", userId)).toBe(1);
    expect(await countIn(env.DB, "users", "id", userId)).toBe(0);

    // The e-mail is the account's, in its database; its link, opened in a browser that is not signed in, reaches it.
    const link = await linkFromLatestEmail(env.DB_SHARD_1, email);
    expect(link).toMatch(/token=s1_/);
    const opened = await new TestBrowser().using(accepting("1")).get(link);
    expect(opened.status).toBe(302);
    const verified = await env.DB_SHARD_1.prepare("select email_verified_at as at from users where id = ?")
      .bind(userId)
      .first<{ at: number | null }>();
    expect(verified?.at).not.toBeNull();

    // The new agent's own pages read shard 1: verified, not yet subscribed, the billing guard sends them to start a trial.
    const settings = await browser.get("/settings");
    expect(settings.status).toBe(302);
    expect(settings.headers.get("Location")).toBe("/trial/start");
  });

  it("an address is one account across every database: signing up again elsewhere is refused and changes nothing", async () => {
    const agent = await agentOnShard1();
    const response = await new TestBrowser()
      .using(accepting("0"))
      .post("/auth", { mode: "signup", email: agent.email, password: DEFAULT_PASSWORD, website_url: "" });
    expect(response.status).toBe(409);
    expect(await countIn(env.DB, "users", "email", agent.email)).toBe(0);
    const listings = await env.DB.prepare("select shard from account_directory where email = ?").bind(agent.email).all<{ shard: number }>();
    expect(listings.results).toEqual([{ shard: 1 }]);
  });

  it("with both shards open, sign-up picks the one with the most room", async () => {
    const [home, far] = await Promise.all([databaseSize(env.DB), databaseSize(env.DB_SHARD_1)]);
    const roomiest = far < home ? 1 : 0;
    const email = uniqueEmail("shard-room");
    const response = await new TestBrowser()
      .using(accepting("0,1"))
      .post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" });
    expect(response.status).toBe(302);
    const listed = await env.DB.prepare("select shard from account_directory where email = ?").bind(email).first<{ shard: number }>();
    expect(listed?.shard).toBe(roomiest);
    expect(home).toBeGreaterThan(0);
  });

  it("an e-mail of an agent on shard 1 is queued with its database, and the consumer delivers it from there", async () => {
    const sent: EmailQueueMessage[] = [];
    const queue = { send: async (body: EmailQueueMessage) => void sent.push(body) } as unknown as Queue<EmailQueueMessage>;
    const email = uniqueEmail("shard-mail");
    const browser = new TestBrowser().using({ ...accepting("1"), EMAIL_QUEUE: queue });
    expect((await browser.post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" })).status).toBe(302);
    const row = await env.DB_SHARD_1.prepare("select id from email_outbox where to_address = ?").bind(email).first<{ id: string }>();
    expect(row).not.toBeNull();
    expect(sent).toEqual([{ outboxId: row!.id, shard: 1 }]);

    // The Worker's consumer (no provider configured: the row is kept in the outbox, claimed once) reads shard 1.
    const batch = createMessageBatch<EmailQueueMessage>(EMAIL_QUEUE_NAME, [
      { id: `shard-${row!.id}`, timestamp: new Date(), attempts: 1, body: sent[0]! },
    ]);
    const ctx = createExecutionContext();
    await worker.queue!(batch, env as Env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([`shard-${row!.id}`]);
    const after = await env.DB_SHARD_1.prepare("select status, attempts from email_outbox where id = ?").bind(row!.id).first();
    expect(after).toEqual({ status: "outbox", attempts: 1 });
  });

  it("the cron's jobs on accounts run over every database: a shard-1 account due for its purge is purged there, then unlisted", async () => {
    const agent = await agentOnShard1();
    await env.DB_SHARD_1.prepare("update users set purge_after = ? where id = ?")
      .bind(Date.now() - 60_000, agent.id)
      .run();
    const controller = createScheduledController({ cron: "*/5 * * * *", scheduledTime: new Date() });
    const { bodies, queue } = capturingQueue<PurgeQueueMessage>();
    const runEnv = { ...(env as Env), PURGE_QUEUE: queue } as Env;
    // The home database's pass does not see the account; the second database's pass (the cron queue's) does.
    expect(await runJob("account-purge", accountPurgeJob, controller, runEnv)).toMatch(/^database 0: \d+ accounts? queued for purging$/);
    expect(bodies.filter((b) => b.userId === agent.id)).toEqual([]);
    expect(await runJob("account-purge", accountPurgeJob, controller, runEnv, 1)).toBe("database 1: 1 account queued for purging");
    // The message names the account's database, and the purge queue's consumer purges it there, slice by slice.
    expect(bodies.filter((b) => b.userId === agent.id)).toEqual([{ userId: agent.id, shard: 1 }]);
    expect(await countIn(env.DB_SHARD_1, "users", "id", agent.id)).toBe(1);
    while (bodies.length > 0) await deliverBatch(PURGE_QUEUE_NAME, [bodies.shift()!], 1, runEnv);
    expect(await countIn(env.DB_SHARD_1, "users", "id", agent.id)).toBe(0);
    expect(await countIn(env.DB, "account_directory", "user_id", agent.id)).toBe(0);
  });

  it("a database's cron pass that fails is recorded with its database's name, and the message is not retried", async () => {
    const scheduledTime = Date.UTC(2093, 2, 14, 6, 30);
    // The trash purge's statement fails on the second database; the other jobs' passes there run.
    const broken = { ...(env as Env), DB_SHARD_1: failingD1(env.DB_SHARD_1 as D1Database, /t\.deleted_at <= \?/) } as Env;
    const delivered = await deliverBatch(CRON_QUEUE_NAME, [{ cron: "*/5 * * * *", scheduledTime, shard: 1 } satisfies CronQueueMessage], 1, broken);
    expect(delivered.acked).toEqual(delivered.ids);
    const runs = await env.DB.prepare("select job, status, detail from cron_runs where scheduled_at = ? order by id")
      .bind(scheduledTime)
      .all<{ job: string; status: string; detail: string }>();
    expect(runs.results.map((r) => r.job)).toEqual([...EVERY_DATABASE]);
    for (const run of runs.results) expect(run.detail).toMatch(/^database 1: /);
    const failed = runs.results.filter((r) => r.status === "error");
    expect(failed).toEqual([{ job: "trash-purge", status: "error", detail: "database 1: D1_ERROR: simulated storage outage" }]);
  });

  it("the Operations Center counts accounts, agents and size per database, and sums them over every database", async () => {
    const before = await databaseFigures(env as Env);
    await agentOnShard1();
    const after = await databaseFigures(env as Env);
    expect(after.databases.map((d) => d.binding)).toEqual(["DB", "DB_SHARD_1"]);
    const [, farBefore] = before.databases;
    const [, farAfter] = after.databases;
    expect(farAfter!.agents - farBefore!.agents).toBe(1);
    expect(farAfter!.accounts - farBefore!.accounts).toBe(1);
    expect(farAfter!.listed - farBefore!.listed).toBe(1);
    expect(farAfter!.bytes).toBeGreaterThan(0);
    // The totals are the rows summed: one definition for the figure on both.
    for (const key of ["accounts", "agents", "listed", "bytes"] as const) {
      expect(after.totals[key]).toBe(after.databases.reduce((sum, d) => sum + d[key], 0));
    }

    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    const page = await admin.page("/operations?tab=databases");
    expect(page).toContain("DB_SHARD_1");
    expect(page).toContain("All databases");
    expect((await (await signInAs(await agentOnShard1())).get("/operations?tab=databases")).status).toBe(404);
  });

  it("a Stripe event about an agent on shard 1 is applied there: the subscription's and the invoice's user id find it", async () => {
    const agent = await agentOnShard1();
    const status = () =>
      env.DB_SHARD_1.prepare("select subscription_status as s from subscribers where user_id = ?")
        .bind(agent.id)
        .first<{ s: string }>()
        .then((row) => row?.s);
    const customer = `cus_${crypto.randomUUID().slice(0, 12)}`;
    const updated = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, userId: agent.id, status: "past_due" }));
    expect((await postWebhook(updated)).status).toBe(200);
    expect(await status()).toBe("past_due");
    const paid = stripeEvent("invoice.paid", {
      id: `in_${customer}`,
      object: "invoice",
      customer,
      amount_paid: 4000,
      parent: { type: "subscription_details", subscription_details: { metadata: { userId: agent.id }, subscription: `sub_${customer}` } },
    });
    expect((await postWebhook(paid)).status).toBe(200);
    expect(await status()).toBe("active");
    expect(await countIn(env.DB, "subscribers", "user_id", agent.id)).toBe(0);
  });
});
