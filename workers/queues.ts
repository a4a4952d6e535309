import { createDb } from "~/db/client.server";
import { createRequestContext } from "~/lib/context.server";
import { getConfig, type Env } from "~/lib/env.server";
import { shardEnv, shardOfMessage } from "~/lib/shards.server";
import { consumeCronBatch, CRON_QUEUE_NAME } from "./cron";
import { consumePurgeBatch, PURGE_QUEUE_NAME } from "~/modules/data/purge.server";
import { consumeDigestBatch, DIGEST_QUEUE_NAME } from "~/modules/digest/digest.server";
import { consumeEmailBatch, EMAIL_DEAD_LETTER_QUEUE_NAME, EMAIL_QUEUE_NAME } from "~/modules/email/delivery.server";
import { consumePushBatch, PUSH_DEAD_LETTER_QUEUE_NAME, PUSH_QUEUE_NAME } from "~/modules/push/push-delivery.server";

// The Worker's queue consumers by queue (wrangler.toml's [[queues.consumers]], ADR 0056): one handler per queue and
// its dead letters. A batch of a queue nobody handles is left to the queue's retries (and logged).

/**
 * The queue() handler: each message is handled on the database that holds its rows, the one its `shard` names (ADR
 * 0060), so a batch with messages of two databases is handled as one part per database.
 */
export async function consumeQueue(batch: MessageBatch, env: Env, ctx: ExecutionContext): Promise<void> {
  const parts = new Map<number, Message[]>();
  for (const message of batch.messages) {
    const shard = shardOfMessage(env, message.body);
    parts.set(shard, [...(parts.get(shard) ?? []), message]);
  }
  for (const [shard, messages] of parts) await consumeOnDatabase(partOf(batch, messages), shardEnv(env, shard), ctx);
}

/** The messages of one database as a batch of their own (acknowledging or retrying all of them acts on those only). */
function partOf(batch: MessageBatch, messages: Message[]): MessageBatch {
  if (messages.length === batch.messages.length) return batch;
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages,
    ackAll: () => {
      for (const message of messages) message.ack();
    },
    retryAll: (options) => {
      for (const message of messages) message.retry(options);
    },
  };
}

async function consumeOnDatabase(batch: MessageBatch, env: Env, ctx: ExecutionContext): Promise<void> {
  const db = createDb(env.DB);
  const config = getConfig(env);
  switch (batch.queue) {
    case EMAIL_QUEUE_NAME:
    case EMAIL_DEAD_LETTER_QUEUE_NAME:
      return consumeEmailBatch(batch as MessageBatch<never>, db, config);
    case PUSH_QUEUE_NAME:
    case PUSH_DEAD_LETTER_QUEUE_NAME:
      return consumePushBatch(batch as MessageBatch<never>, db, config);
    case DIGEST_QUEUE_NAME:
      // The digest reads what the app's pages read, through the same context (no request, no CSP nonce).
      return consumeDigestBatch(batch as MessageBatch<never>, createRequestContext(env, ctx, ""));
    case PURGE_QUEUE_NAME:
      return consumePurgeBatch(batch as MessageBatch<never>, env, db, config);
    case CRON_QUEUE_NAME:
      return consumeCronBatch(batch as MessageBatch<never>, env);
    default:
      console.error(JSON.stringify({ event: "queue_unknown", queue: batch.queue, messages: batch.messages.length }));
      batch.retryAll();
  }
}
