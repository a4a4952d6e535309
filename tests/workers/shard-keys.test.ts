import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { randomToken, sha256 } from "~/lib/crypto";
import type { DigestQueueMessage, Env } from "~/lib/env.server";
import type { UserId } from "~/modules/auth/session.server";
import { DIGEST_QUEUE_NAME } from "~/modules/digest/digest.server";
import { localNow } from "~/modules/tasks/due";
import { createTask } from "~/modules/tasks/tasks.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { recordingD1, requestContext } from "../factories/context";
import { atInstant } from "../factories/dates";
import { deliverBatch } from "../factories/queues";
import { agentOnShard1, listOnShard1 } from "../factories/shards";
import { taskInput } from "../factories/tasks";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";

// The public pages opened by a key, with no session (ADR 0060): a calendar feed, a team's lead form, the digest's
// unsubscribe link. The key of an account on shard n begins "s<n>_", shard 0's is bare (as before the shards); the
// request is routed by it before its first query, and reads no other database. A key with its prefix changed opens
// nothing.

/** A signed-out browser on a Worker whose two databases note every statement they are sent. */
function watchedVisitor() {
  const home: string[] = [];
  const far: string[] = [];
  const watched = { ...(env as Env), DB: recordingD1(env.DB, home), DB_SHARD_1: recordingD1(env.DB_SHARD_1, far) };
  return {
    visitor: new TestBrowser().using(watched),
    /** Statements sent to each database so far; emptied by each call. */
    sent() {
      const counts = { home: home.length, far: far.length };
      home.length = 0;
      far.length = 0;
      return counts;
    },
  };
}

/** Shard 1's key with its prefix changed: to home's or to none (the home database is read), to a database not bound. */
function tampered(key: string) {
  const secret = key.replace(/^s1_/, "");
  return { home: [`s0_${secret}`, secret], unbound: `s2_${secret}` };
}

const countIn = (d1: D1Database, sql: string, value: string) =>
  d1
    .prepare(sql)
    .bind(value)
    .first<{ n: number }>()
    .then((row) => row!.n);

const feedPath = (secret: string) => `/api/calendar/${secret}.ics`;

async function makeFeed(browser: TestBrowser): Promise<string> {
  const response = await browser.post("/calendar-feed", { intent: "create" });
  expect(response.status).toBe(200);
  const match = /\/api\/calendar\/([\w-]+)\.ics/.exec(await response.text());
  return match![1]!;
}

describe("a calendar feed's address names its database", () => {
  it("an agent on shard 1 gets an s1_ address that answers with their tasks from shard 1, and a changed prefix opens nothing", async () => {
    const agent = await agentOnShard1();
    const title = `Shard-one showing ${crypto.randomUUID().slice(0, 8)}`;
    expect((await createTask(requestContext({ DB: env.DB_SHARD_1 }), agent.id as UserId, taskInput({ title }))).ok).toBe(true);
    const secret = await makeFeed(await signInAs(agent));
    expect(secret).toMatch(/^s1_[\w-]{43}$/);
    expect(await countIn(env.DB_SHARD_1, "select count(*) as n from calendar_feeds where user_id = ?", agent.id)).toBe(1);

    const { visitor, sent } = watchedVisitor();
    const feed = await visitor.get(feedPath(secret));
    expect(feed.status).toBe(200);
    expect(feed.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(await feed.text()).toContain(`SUMMARY:${title}`);
    const read = sent();
    expect(read.home).toBe(0);
    expect(read.far).toBeGreaterThan(0);

    // Home's prefix or none is looked for at home only, and is not there; a database not bound is read nowhere.
    const changed = tampered(secret);
    for (const key of changed.home) {
      const response = await visitor.get(feedPath(key));
      expect(response.status, key).toBe(404);
      expect(await response.text()).toContain("No calendar feed at this address.");
      expect(sent().far, key).toBe(0);
    }
    const unbound = await visitor.get(feedPath(changed.unbound));
    expect(unbound.status).toBe(404);
    expect(await unbound.text()).toContain("No calendar feed at this address.");
    expect(sent()).toEqual({ home: 0, far: 0 });
  });

  it("a home agent's address stays bare and keeps working, also a secret made before the shards that happens to begin s1_", async () => {
    const agent = await createUser(env.DB);
    const title = `Home showing ${crypto.randomUUID().slice(0, 8)}`;
    expect((await createTask(requestContext(), agent.id as UserId, taskInput({ title }))).ok).toBe(true);
    const secret = await makeFeed(await signInAs(agent));
    expect(secret).toMatch(/^[\w-]{43}$/);
    const { visitor, sent } = watchedVisitor();
    const feed = await visitor.get(feedPath(secret));
    expect(feed.status).toBe(200);
    expect(await feed.text()).toContain(`SUMMARY:${title}`);
    expect(sent().far).toBe(0);
    // With s1_ in front, home's secret is looked for on shard 1 only, and is not there.
    expect((await visitor.get(feedPath(`s1_${secret}`))).status).toBe(404);
    expect(sent().home).toBe(0);

    // A bare secret is 43 base64url characters, "_" among them: one that begins "s1_" is still home's.
    const older = `s1_${randomToken(32).slice(3)}`;
    await env.DB.prepare("update calendar_feeds set token_hash = ? where user_id = ?")
      .bind(await sha256(older), agent.id)
      .run();
    const olderFeed = await visitor.get(feedPath(older));
    expect(olderFeed.status).toBe(200);
    expect(await olderFeed.text()).toContain(`SUMMARY:${title}`);
    expect(sent().far).toBe(0);
  });
});

const enquiry = (name: string) => ({ name, phone: "555-0142", email: "", message: "A house with a yard", consent: "on", website: "" });
const leadsNamed = (d1: D1Database, name: string) => countIn(d1, "select count(*) as n from team_leads where name = ?", name);

describe("a team's lead form address names its database", () => {
  it("a team on shard 1 gets an s1_ address whose leads land on shard 1, and a changed prefix finds no team", async () => {
    const t = await team("Shard One Realty", env.DB_SHARD_1);
    await listOnShard1(t.owner);
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team/leads", { intent: "form-on" })).status).toBe(302);
    const key = (await env.DB_SHARD_1.prepare("select lead_form_key as key from teams where id = ?").bind(t.teamId).first<{ key: string }>())!.key;
    expect(key).toMatch(/^s1_[\w-]{24}$/);
    expect(await owner.page("/team/leads")).toContain(`http://localhost/inquire/${key}`);

    const { visitor, sent } = watchedVisitor();
    const page = await visitor.get(`/inquire/${key}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Contact Shard One Realty");
    const name = `Shard Buyer ${crypto.randomUUID().slice(0, 8)}`;
    const posted = await visitor.post(`/inquire/${key}`, enquiry(name));
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain("Shard One Realty has your message");
    expect(sent().home).toBe(0);
    expect(await leadsNamed(env.DB_SHARD_1, name)).toBe(1);
    expect(await leadsNamed(env.DB, name)).toBe(0);

    // Another visitor (the team's e-mails about the lead above are still being written to shard 1 after its answer).
    const other = watchedVisitor();
    const refused = `Refused Buyer ${crypto.randomUUID().slice(0, 8)}`;
    const changed = tampered(key);
    for (const wrong of changed.home) {
      expect((await other.visitor.get(`/inquire/${wrong}`)).status, wrong).toBe(404);
      expect((await other.visitor.post(`/inquire/${wrong}`, enquiry(refused))).status, wrong).toBe(404);
      expect(other.sent().far, wrong).toBe(0);
    }
    expect((await other.visitor.get(`/inquire/${changed.unbound}`)).status).toBe(404);
    expect((await other.visitor.post(`/inquire/${changed.unbound}`, enquiry(refused))).status).toBe(404);
    expect(other.sent()).toEqual({ home: 0, far: 0 });
    expect(await leadsNamed(env.DB_SHARD_1, refused)).toBe(0);
    expect(await leadsNamed(env.DB, refused)).toBe(0);
  });

  it("a home team's address stays bare and keeps working, also a key made before the shards that happens to begin s1_", async () => {
    const t = await team("Home Realty");
    const owner = await signInAs(t.owner);
    expect((await owner.post("/team/leads", { intent: "form-on" })).status).toBe(302);
    const key = (await env.DB.prepare("select lead_form_key as key from teams where id = ?").bind(t.teamId).first<{ key: string }>())!.key;
    expect(key).toMatch(/^[\w-]{24}$/);
    const { visitor, sent } = watchedVisitor();
    expect((await visitor.get(`/inquire/${key}`)).status).toBe(200);
    expect(sent().far).toBe(0);
    // With s1_ in front, home's key is looked for on shard 1 only, and is not there.
    expect((await visitor.get(`/inquire/s1_${key}`)).status).toBe(404);
    expect(sent().home).toBe(0);

    const older = `s1_${randomToken(18).slice(3)}`;
    await env.DB.prepare("update teams set lead_form_key = ? where id = ?").bind(older, t.teamId).run();
    const name = `Home Buyer ${crypto.randomUUID().slice(0, 8)}`;
    expect((await visitor.post(`/inquire/${older}`, enquiry(name))).status).toBe(200);
    expect(await leadsNamed(env.DB, name)).toBe(1);
    expect(sent().far).toBe(0);
  });
});

/** 22:10 UTC: 07:10 the next morning in Tokyo, when the digest goes out. */
const TOKYO_MORNING = `${new Date().toISOString().slice(0, 10)}T22:10:00Z`;

describe("the digest's unsubscribe link names its database", () => {
  it("an agent on shard 1 gets a digest whose link carries s1_ and stops the digest on shard 1; a changed prefix is refused", async () => {
    const agent = await agentOnShard1();
    const day = localNow("Asia/Tokyo", new Date(TOKYO_MORNING)).date;
    await env.DB_SHARD_1.prepare(
      "update user_preferences set timezone = 'Asia/Tokyo', digest_email = 1, digest_origin = 'http://localhost', digest_sent_on = ? where user_id = ?",
    )
      .bind(day, agent.id)
      .run();
    // The digest queue's consumer, as the cron's pass over shard 1 queues it (the message names its database).
    const message: DigestQueueMessage = { userId: agent.id, day, shard: 1 };
    const delivered = await atInstant(TOKYO_MORNING, () => deliverBatch(DIGEST_QUEUE_NAME, [message]));
    expect(delivered.acked).toEqual(delivered.ids);
    const mail = await env.DB_SHARD_1.prepare("select headers from email_outbox where user_id = ? and kind = 'daily_digest'")
      .bind(agent.id)
      .first<{ headers: string }>();
    const header = (JSON.parse(mail!.headers) as Record<string, string>)["List-Unsubscribe"]!;
    const link = new URL(header.slice(1, -1));
    expect(link.searchParams.get("u")).toBe(`s1_${agent.id}`);

    const digestOn = () =>
      env.DB_SHARD_1.prepare("select digest_email as n from user_preferences where user_id = ?")
        .bind(agent.id)
        .first<{ n: number }>()
        .then((row) => row!.n);
    const oneClick = (search: string, visitor: TestBrowser) =>
      visitor.fetch(`/digest/unsubscribe${search}`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });

    // The prefix is signed with the agent's id: changed or dropped, the link is refused before any database is read.
    const { visitor, sent } = watchedVisitor();
    const signature = link.searchParams.get("s")!;
    const changed = tampered(`s1_${agent.id}`);
    for (const other of [...changed.home, changed.unbound]) {
      const search = `?u=${other}&s=${signature}`;
      expect((await visitor.get(`/digest/unsubscribe${search}`)).status, other).toBe(400);
      const refused = await oneClick(search, visitor);
      expect(refused.status, other).toBe(400);
      expect(await refused.text()).toContain("This unsubscribe link is not valid.");
    }
    expect(sent()).toEqual({ home: 0, far: 0 });
    expect(await digestOn()).toBe(1);

    const page = await visitor.get(link.pathname + link.search);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Stop the daily digest");
    const stopped = await oneClick(link.search, visitor);
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toContain("you will not get the daily digest any more");
    expect(await digestOn()).toBe(0);
    expect(sent().home).toBe(0);
  });
});
