import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { emailOutbox, gdprRequests } from "~/db/schema";
import type { EmailQueueMessage, Env } from "~/lib/env.server";
import { loadCompliance } from "~/modules/data/compliance.server";
import { emailDeliveryFigures, listDeadEmails } from "~/modules/email/dead-letters.server";
import { loadMonitoring } from "~/modules/ops/monitoring.server";
import { outboxBacklog, runProbes } from "~/modules/ops/probes.server";
import { readThresholdMetrics } from "~/modules/ops/thresholds.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import { signInAs } from "../factories/browser";
import { agentOnShard1 } from "../factories/shards";
import { createUser } from "../factories/users";

// The Operations Center over every account database (ADR 0060): the e-mail and push figures, the dead letters, the
// outbox backlog and the D1 probe read each database, and "Send again" acts in the database the e-mail is in.

const home = createDb(env.DB);
const away = createDb(env.DB_SHARD_1);
const accounts = () => accountDatabases(env as Env);

/** An e-mail that ran out of retries, in database 1. */
async function deadAway(tag: string) {
  const id = `away-${tag}-${crypto.randomUUID().slice(0, 8)}`;
  const now = Date.now();
  await away.insert(emailOutbox).values({
    id,
    kind: "test",
    toAddress: `${tag}@example.com`,
    subject: `Away ${tag}`,
    textBody: "x",
    htmlBody: "<p>x</p>",
    status: "dead",
    attempts: 6,
    deadAt: new Date(now),
    lastAttemptAt: new Date(now),
    error: "domain not verified",
  });
  return id;
}

describe("the Operations Center over every database", () => {
  it("counts and lists an e-mail that died in database 1, the threshold's reading the same number", async () => {
    const before = await emailDeliveryFigures(accounts(), Date.now());
    const id = await deadAway("count");
    const now = Date.now();
    const figures = await emailDeliveryFigures(accounts(), now);
    // Other test files may add dead e-mails meanwhile: at least this one more.
    expect(figures.dead24h).toBeGreaterThanOrEqual(before.dead24h + 1);
    expect(figures.deadTotal).toBeGreaterThanOrEqual(before.deadTotal + 1);
    // The home database alone does not see it.
    expect((await listDeadEmails([home])).some((d) => d.id === id)).toBe(false);
    expect((await listDeadEmails(accounts())).find((d) => d.id === id)).toMatchObject({ shard: 1, subject: "Away count" });
    const monitoring = await loadMonitoring(home, accounts(), now);
    expect(monitoring.email.figures.dead24h).toBe(figures.dead24h);
    expect((await readThresholdMetrics(home, accounts(), now)).dead_emails_24h).toBe(figures.dead24h);
  });

  it("sends a dead e-mail of database 1 again there, its queue message naming the database", async () => {
    const id = await deadAway("again");
    const queued: EmailQueueMessage[] = [];
    const watched = { send: async (body: EmailQueueMessage) => void queued.push(body) } as unknown as Queue;
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using({ ...(env as Env), EMAIL_QUEUE: watched });
    const page = await admin.page("/operations");
    expect(page).toContain(`value="${id}"`);
    // Without its database the id is not among the home database's dead letters: refused, nothing changed.
    const wrong = await admin.post("/operations", { intent: "resend-email", id });
    expect(wrong.status).toBe(400);
    expect(await away.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.id, id)).get()).toEqual({ status: "dead" });
    expect((await admin.post("/operations", { intent: "resend-email", id, shard: "9" })).status).toBe(400);

    const sent = await admin.post("/operations", { intent: "resend-email", id, shard: "1" });
    expect(sent.status).toBe(302);
    expect(await away.select({ status: emailOutbox.status }).from(emailOutbox).where(eq(emailOutbox.id, id)).get()).toEqual({ status: "queued" });
    expect(queued).toEqual([{ outboxId: id, shard: 1 }]);
  });

  it("counts database 1's waiting e-mails in the outbox backlog, and probes every database", async () => {
    const before = await outboxBacklog(accounts(), Date.now());
    await away.insert(emailOutbox).values({
      id: `away-wait-${crypto.randomUUID().slice(0, 8)}`,
      kind: "test",
      toAddress: "wait@example.com",
      subject: "Waiting",
      textBody: "x",
      htmlBody: "<p>x</p>",
      status: "queued",
      createdAt: new Date(Date.now() - 10 * 60_000),
    });
    expect(await outboxBacklog(accounts(), Date.now())).toBeGreaterThanOrEqual(before + 1);
    expect(await outboxBacklog([away], Date.now())).toBeGreaterThanOrEqual(1);
    const probes = await runProbes(home, env as Env, { scheduledTime: Date.now(), cron: "*/5 * * * *" });
    expect(probes.find((p) => p.component === "d1")).toMatchObject({ ok: true, detail: "2 databases answered" });
    expect(probes.find((p) => p.component === "outbox")!.value).toBeGreaterThanOrEqual(before + 1);
  });

  it("lists and counts a data request an agent of database 1 made on the Compliance tab", async () => {
    const agent = await agentOnShard1();
    const id = `gdpr-away-${crypto.randomUUID().slice(0, 8)}`;
    await away
      .insert(gdprRequests)
      .values({ id, userId: agent.id, type: "portability", status: "completed", description: "Export (JSON): Contacts" });
    const compliance = await loadCompliance(accounts(), Date.now());
    expect(compliance.recent.find((r) => r.id === id)).toMatchObject({ email: agent.email, type: "portability" });
    expect(compliance.counts.find((c) => c.type === "portability" && c.status === "completed")!.n).toBeGreaterThanOrEqual(1);
    expect((await loadCompliance([home], Date.now())).recent.some((r) => r.id === id)).toBe(false);
    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    expect(await admin.page("/operations?tab=compliance")).toContain(agent.email);
  });
});
