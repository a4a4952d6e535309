import { and, eq, inArray, isNotNull, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { users } from "~/db/schema";
import { HOUR_MS } from "~/lib/dates";
import type { Config, Env, PurgeQueueMessage } from "~/lib/env.server";
import { shardTag } from "~/lib/shards.server";
import { sendInBatches } from "~/modules/outgoing/queue-delivery.server";
import { purgeAccountSlice } from "./account.server";

// The 30-day account purge through the purge queue (ADR 0056). The cron puts each due account on the queue; a
// consumer deletes one slice of it (a bounded number of statements), puts the account back on the queue when rows
// are left, and finishes it when none are, so an account of any size is purged without one invocation crossing D1's
// 1,000 queries. users.purge_queued_at is the lease: a purge under way refreshes it with every slice, and the cron
// queues an account again only when its lease is an hour old (a consumer died and its message was lost).

/** The purge queue, as wrangler.toml names it. */
export const PURGE_QUEUE_NAME = "porchlight-purge";
/**
 * Statements one slice may run: 400 chunks of 500 rows, plus its few queries of bookkeeping, well inside 1,000 per
 * invocation (wrangler.toml hands the consumer one message at a time).
 */
const SLICE_STATEMENTS = 400;
/** A purge whose last slice is this old has stopped: the cron queues it again. */
const LEASE_MS = HOUR_MS;
/** Accounts queued per cron run, those due longest first. */
const QUEUED_PER_RUN = 100;

/** Claims the accounts due for the purge (not under way) and puts them on the purge queue. Returns their ids. */
export async function queueDueAccountPurges(db: Db, config: Pick<Config, "purgeQueue">, now: Date): Promise<string[]> {
  const due = db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        isNotNull(users.purgeAfter),
        lte(users.purgeAfter, now),
        or(isNull(users.purgeQueuedAt), lt(users.purgeQueuedAt, new Date(now.getTime() - LEASE_MS))),
      ),
    )
    .orderBy(users.purgeAfter)
    .limit(QUEUED_PER_RUN);
  const claimed = (await db.update(users).set({ purgeQueuedAt: now }).where(inArray(users.id, due)).returning({ id: users.id })).map((r) => r.id);
  try {
    await sendInBatches(
      config.purgeQueue,
      claimed.map((userId) => ({ userId, ...shardTag(db.$client) })),
    );
  } catch (error) {
    // The queue refused them: the claim is let go, so the next run queues them again.
    await db.update(users).set({ purgeQueuedAt: null }).where(inArray(users.id, claimed));
    throw error;
  }
  return claimed;
}

/**
 * One message of the purge queue: when the account is still due and queued (not kept, not purged already), deletes
 * one slice and puts the account back on the queue if rows are left. Returns what it did.
 */
async function purgeQueuedAccount(
  env: Pick<Env, "DB" | "INSIGHTS">,
  db: Db,
  config: Pick<Config, "purgeQueue">,
  userId: string,
  now: Date,
): Promise<"done" | "more" | "skipped"> {
  const [held] = await db
    .update(users)
    .set({ purgeQueuedAt: now })
    .where(and(eq(users.id, userId), isNotNull(users.purgeQueuedAt), isNotNull(users.purgeAfter), lte(users.purgeAfter, now)))
    .returning({ id: users.id });
  if (!held) return "skipped";
  const step = await purgeAccountSlice(env, db, userId, now, SLICE_STATEMENTS);
  if (step === "more") await config.purgeQueue.send({ userId, ...shardTag(db.$client) });
  return step;
}

/** The purge queue's handler: each account on its own; a failure is retried by the queue and picks up where it stopped. */
export async function consumePurgeBatch(
  batch: MessageBatch<PurgeQueueMessage>,
  env: Pick<Env, "DB" | "INSIGHTS">,
  db: Db,
  config: Pick<Config, "purgeQueue">,
): Promise<void> {
  for (const message of batch.messages) {
    try {
      const step = await purgeQueuedAccount(env, db, config, message.body.userId, new Date());
      if (step === "done") console.log(JSON.stringify({ event: "account_purged" }));
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ event: "account_purge_failed", detail: error instanceof Error ? error.message : String(error) }));
      message.retry();
    }
  }
}
