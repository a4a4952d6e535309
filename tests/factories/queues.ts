import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { expect, vi } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { pushOutbox } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { d1MeterOf, limitD1 } from "~/lib/d1-limits";
import { PURGE_QUEUE_NAME, queueDueAccountPurges } from "~/modules/data/purge.server";
import { PUSH_QUEUE_NAME } from "~/modules/push/push-delivery.server";
import { atInstant } from "./dates";

// The Worker tests' queues have no consumer (vitest.config.ts): a test delivers what it queued itself, through the
// Worker's own queue() handler, as the queue would (ADR 0056).

let messageSeq = 0;

/**
 * Runs one batch of `bodies` through the Worker's queue() handler as delivery number `attempts`; answers which
 * messages it acknowledged and retried, and the delays the retries asked for.
 */
export async function deliverBatch<Body>(queue: string, bodies: Body[], attempts = 1, runEnv: Env = env as Env) {
  const messages = bodies.map((body) => ({ id: `msg-${++messageSeq}`, timestamp: new Date(), attempts, body }));
  const batch = createMessageBatch<Body>(queue, messages);
  // getQueueResult reports which messages were retried but not the delay asked for: the retry calls say it.
  const retries = batch.messages.map((m) => vi.spyOn(m, "retry"));
  const ctx = createExecutionContext();
  await worker.queue!(batch as MessageBatch, runEnv, ctx);
  const result = await getQueueResult(batch, ctx);
  const delays = retries.flatMap((spy) => spy.mock.calls.map(([options]) => options?.delaySeconds));
  return { ids: messages.map((m) => m.id), acked: result.explicitAcks, retried: result.retryMessages.map((r: { msgId: string }) => r.msgId), delays };
}

/** The agent's pushes waiting on the push queue (queued or retrying), oldest first. */
export async function waitingPushes(userId: string) {
  return createDb(env.DB)
    .select({ id: pushOutbox.id })
    .from(pushOutbox)
    .where(and(eq(pushOutbox.userId, userId), inArray(pushOutbox.status, ["queued", "retrying"])))
    .orderBy(pushOutbox.createdAt)
    .all();
}

/** Delivers every push waiting for the agent, once each, through the push queue's consumer. */
export async function drainPushes(userId: string, runEnv: Env) {
  const waiting = await waitingPushes(userId);
  if (waiting.length === 0) return { ids: [], acked: [], retried: [], delays: [] };
  return deliverBatch(
    PUSH_QUEUE_NAME,
    waiting.map((p) => ({ pushId: p.id })),
    1,
    runEnv,
  );
}

/** A queue that keeps what is put on it, for the test to deliver; it refuses a sendBatch of over 100, as Queues do. */
export function capturingQueue<Body>() {
  const bodies: Body[] = [];
  const queue = {
    send: async (body: Body) => void bodies.push(body),
    sendBatch: async (messages: { body: Body }[]) => {
      if (messages.length > 100) throw new Error(`sendBatch of ${messages.length} messages`);
      bodies.push(...messages.map((m) => m.body));
    },
  } as unknown as Queue;
  return { bodies, queue };
}

/**
 * The purge cron at `at`, then the purge queue's consumer for what it queued and for every slice a consumer queues
 * after it, one message a batch (wrangler.toml), each its own invocation under the limits harness, until the queue is
 * empty or `messages` were delivered (a consumer that stopped: what it queued next is lost). Returns the accounts the
 * cron queued, the messages delivered and the most queries one invocation ran.
 */
export async function runAccountPurges(at: Date, messages = Number.POSITIVE_INFINITY) {
  const { bodies, queue } = capturingQueue<{ userId: string }>();
  const runEnv = { ...(env as Env), PURGE_QUEUE: queue } as Env;
  return atInstant(at.toISOString(), async () => {
    const queued = await queueDueAccountPurges(createDb(env.DB), { purgeQueue: queue }, at);
    let delivered = 0;
    let mostQueries = 0;
    while (bodies.length > 0 && delivered < messages) {
      const invocation = limitD1(runEnv, `queue ${PURGE_QUEUE_NAME}`);
      const result = await deliverBatch(PURGE_QUEUE_NAME, [bodies.shift()!], 1, invocation);
      expect(result.acked).toEqual(result.ids);
      delivered += 1;
      mostQueries = Math.max(mostQueries, d1MeterOf(invocation.DB)!.queries);
    }
    return { queued, delivered, mostQueries };
  });
}
