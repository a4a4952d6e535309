import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { expectWarningAbove0 } from "../factories/thresholds";
import { deliverBatch } from "../factories/queues";
import { createUser } from "../factories/users";
import { createDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import type { EmailQueueMessage, Env } from "~/lib/env.server";
import { sendEmail } from "~/lib/mailer.server";
import { EMAIL_DEAD_LETTER_QUEUE_NAME, EMAIL_QUEUE_NAME } from "~/modules/email/delivery.server";
import { OUTGOING_MAX_RETRIES as EMAIL_MAX_RETRIES } from "~/modules/outgoing/queue-delivery.server";
import { emailDeliveryFigures } from "~/modules/email/dead-letters.server";
import { loadMonitoring } from "~/modules/ops/monitoring.server";
import { readThresholdMetrics } from "~/modules/ops/thresholds.server";
import { accountDatabases } from "~/modules/shards/databases.server";

// Outgoing e-mail through the e-mail queue (ADR 0056). The provider (Resend) is faked at its boundary, fetch; the
// queue's consumer is the Worker's own queue() handler, handed batches built with createMessageBatch.

const db = createDb(env.DB);
const withProvider = { ...(env as Env), RESEND_API_KEY: "re_test_key" } as Env;
const uniqueEmail = (tag: string) => `${tag}-${crypto.randomUUID().slice(0, 8)}@example.com`;
const row = (id: string) => db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).get();

/** A sent e-mail's outbox row (queued) and the queue message that names it. */
async function queuedEmail(tag: string, headers?: Record<string, string>) {
  const to = uniqueEmail(tag);
  const sent = await sendEmail(requestContext(), { kind: "test", to, subject: `Hello ${tag}`, text: "Hi", html: "<p>Hi</p>", headers });
  return { ...sent, to };
}

/** Runs one batch through the Worker's queue() handler, as the queue would deliver it; answers what it acked and retried. */
const deliver = (queue: string, outboxIds: string[], attempts = 1, runEnv: Env = withProvider) =>
  deliverBatch<EmailQueueMessage>(
    queue,
    outboxIds.map((outboxId) => ({ outboxId })),
    attempts,
    runEnv,
  );

/** The provider: answers each call with the next of `answers` (the last one repeats), recording what was sent. */
function fakeProvider(...answers: ("ok" | "refuse")[]) {
  const calls: { headers: Headers; body: Record<string, unknown> }[] = [];
  const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const request = new Request(input as RequestInfo, init);
    if (request.url !== "https://api.resend.com/emails") throw new Error(`unexpected fetch ${request.url}`);
    calls.push({ headers: request.headers, body: (await request.json()) as Record<string, unknown> });
    const answer = answers[Math.min(calls.length, answers.length) - 1];
    return answer === "ok" ? Response.json({ id: `re_${calls.length}` }) : Response.json({ message: "domain not verified" }, { status: 403 });
  });
  return { calls, spy };
}

afterEach(() => vi.restoreAllMocks());

describe("the e-mail queue", () => {
  it("takes every sent e-mail: the Worker's consumer picks it up from wrangler.toml's queue (kept in the outbox without a provider)", async () => {
    const live = (env as unknown as { EMAIL_QUEUE_LIVE: Queue<EmailQueueMessage> }).EMAIL_QUEUE_LIVE;
    const to = uniqueEmail("live");
    const context = requestContext({ EMAIL_QUEUE: live } as Partial<Env>);
    const sent = await sendEmail(context, { kind: "test", to, subject: "Through the queue", text: "Hi", html: "<p>Hi</p>" });
    expect(sent.status).toBe("queued");
    // The local queue delivers within its batch timeout (1 s); wait for the consumer's mark, not for a time.
    await vi.waitFor(
      async () => {
        expect(await row(sent.id)).toMatchObject({ status: "outbox", attempts: 1, toAddress: to });
      },
      { timeout: 15_000, interval: 100 },
    );
  });

  it("delivers a sent e-mail through the provider and marks it sent, with the outbox id as the provider's idempotency key", async () => {
    const provider = fakeProvider("ok");
    const email = await queuedEmail("sent", { "List-Unsubscribe": "<https://porchlight.test/u>" });
    expect(email.status).toBe("queued");
    expect((await row(email.id))?.status).toBe("queued");
    const result = await deliver(EMAIL_QUEUE_NAME, [email.id]);
    expect(result.acked).toEqual(result.ids);
    expect(result.retried).toEqual([]);
    expect(provider.calls).toHaveLength(1);
    expect(provider.calls[0]!.headers.get("Authorization")).toBe("Bearer re_test_key");
    expect(provider.calls[0]!.headers.get("Idempotency-Key")).toBe(email.id);
    expect(provider.calls[0]!.body).toMatchObject({
      to: [email.to],
      subject: "Hello sent",
      headers: { "List-Unsubscribe": "<https://porchlight.test/u>" },
      // Echoed in the provider's bounce and complaint events: the database and the row (ADR 0071).
      tags: [
        { name: "shard", value: "0" },
        { name: "outbox", value: email.id },
      ],
    });
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 1, provider: "resend", providerMessageId: "re_1", error: null });
  });

  it("sends once when the same message is delivered twice, in one batch or later", async () => {
    const provider = fakeProvider("ok");
    const email = await queuedEmail("twice");
    const first = await deliver(EMAIL_QUEUE_NAME, [email.id, email.id]);
    const again = await deliver(EMAIL_QUEUE_NAME, [email.id], 2);
    expect(provider.calls).toHaveLength(1);
    expect(first.acked.sort()).toEqual(first.ids.sort());
    expect(again.acked).toEqual(again.ids);
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("retries a refused e-mail with exponential backoff and marks it sent when the provider takes it", async () => {
    const provider = fakeProvider("refuse", "refuse", "ok");
    const email = await queuedEmail("backoff");
    const first = await deliver(EMAIL_QUEUE_NAME, [email.id], 1);
    expect(first.retried).toEqual(first.ids);
    expect(first.delays).toEqual([30]);
    expect(first.acked).toEqual([]);
    expect(await row(email.id)).toMatchObject({ status: "retrying", attempts: 1, error: "domain not verified" });
    const second = await deliver(EMAIL_QUEUE_NAME, [email.id], 2);
    expect(second.retried).toEqual(second.ids);
    expect(second.delays).toEqual([60]);
    const third = await deliver(EMAIL_QUEUE_NAME, [email.id], 3);
    expect(third.acked).toEqual(third.ids);
    expect(provider.calls).toHaveLength(3);
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 3, error: null, providerMessageId: "re_3" });
  });
});

describe("dead e-mails", () => {
  /** An e-mail the provider refused on every attempt, then dead-lettered, as the queue would after max_retries. */
  async function deadEmail(tag: string) {
    const provider = fakeProvider("refuse");
    const email = await queuedEmail(tag);
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= EMAIL_MAX_RETRIES + 1; attempt++) {
      const result = await deliver(EMAIL_QUEUE_NAME, [email.id], attempt);
      expect(result.retried).toEqual(result.ids);
      delays.push(...result.delays);
    }
    const dead = await deliver(EMAIL_DEAD_LETTER_QUEUE_NAME, [email.id], 1);
    expect(dead.acked).toEqual(dead.ids);
    expect(provider.calls).toHaveLength(EMAIL_MAX_RETRIES + 1);
    vi.restoreAllMocks();
    return { ...email, delays };
  }

  it("lands dead after the last retry, shows in the Operations Center and trips the dead e-mail threshold", async () => {
    const before = await emailDeliveryFigures(accountDatabases(env as Env), Date.now());
    const email = await deadEmail("dead");
    expect(email.delays).toEqual([30, 60, 120, 240, 480, 960]);
    expect(await row(email.id)).toMatchObject({ status: "dead", attempts: EMAIL_MAX_RETRIES + 1, error: "domain not verified" });

    const now = Date.now();
    const figures = await emailDeliveryFigures(accountDatabases(env as Env), now);
    expect(figures.dead24h).toBeGreaterThanOrEqual(before.dead24h + 1);
    expect(figures.deadTotal).toBeGreaterThanOrEqual(before.deadTotal + 1);
    // One definition: the threshold's reading and the Monitoring tab's figures are the same number.
    const monitoring = await loadMonitoring(db, accountDatabases(env as Env), now);
    expect((await readThresholdMetrics(db, accountDatabases(env as Env), now)).dead_emails_24h).toBe(monitoring.email.figures.dead24h);
    expect(monitoring.watch.dead_emails_24h.reading).toBe(monitoring.email.figures.dead24h);
    expect(monitoring.email.dead.find((d) => d.id === email.id)).toMatchObject({ to: email.to, subject: "Hello dead", attempts: 6 });

    const admin = await signInAs(await createUser(env.DB, { role: "admin" }));
    const page = await admin.page("/operations");
    const panel = page.slice(page.indexOf('id="email-delivery-heading"'));
    expect(panel).toContain("Hello dead");
    expect(panel).toContain(`To ${email.to}`);
    expect(panel).toContain("Last error: domain not verified");
    expect(panel).toContain(`aria-label="Send again: Hello dead to ${email.to}"`);

    // The threshold (seeded as dead_emails_24h > 0) alerts like the others.
    await expectWarningAbove0("dead_emails_24h", now);
  });

  it("is sent again by an admin once, however often the button is pressed, and delivered once", async () => {
    const email = await deadEmail("again");
    const queued: EmailQueueMessage[] = [];
    // The real queue, watched: what the action puts on it.
    const watched = {
      send: async (body: EmailQueueMessage) => {
        queued.push(body);
        await env.EMAIL_QUEUE.send(body);
      },
    } as unknown as Queue;
    const admin = (await signInAs(await createUser(env.DB, { role: "admin" }))).using({ ...(env as Env), EMAIL_QUEUE: watched });
    const first = await admin.post("/operations", { intent: "resend-email", id: email.id });
    expect(first.status).toBe(302);
    expect(await row(email.id)).toMatchObject({ status: "queued", attempts: 0, deadAt: null });
    const second = await admin.post("/operations", { intent: "resend-email", id: email.id });
    expect(second.status).toBe(302);
    expect(queued).toEqual([{ outboxId: email.id }]);

    const provider = fakeProvider("ok");
    for (const message of queued) await deliver(EMAIL_QUEUE_NAME, [message.outboxId]);
    await deliver(EMAIL_QUEUE_NAME, [email.id], 2);
    expect(provider.calls).toHaveLength(1);
    // A new request to the provider (its earlier ones, under the outbox id, were all refused), and still one.
    expect(provider.calls[0]!.headers.get("Idempotency-Key")).toBe(`${email.id}/again-1`);
    expect(await row(email.id)).toMatchObject({ status: "sent", attempts: 1, sentAgain: 1 });

    const unknown = await admin.post("/operations", { intent: "resend-email", id: "no-such-email" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("That e-mail is not among the dead letters.");
  });

  it("is the admins' alone: anyone else gets 404 and the e-mail stays dead", async () => {
    const email = await deadEmail("notyours");
    const agent = await signInAs(await createUser(env.DB));
    expect((await agent.post("/operations", { intent: "resend-email", id: email.id })).status).toBe(404);
    expect(await row(email.id)).toMatchObject({ status: "dead" });
  });
});
