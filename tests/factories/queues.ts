import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, inArray } from "drizzle-orm";
import { vi } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { pushOutbox } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { PUSH_QUEUE_NAME } from "~/modules/push/push-delivery.server";

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
