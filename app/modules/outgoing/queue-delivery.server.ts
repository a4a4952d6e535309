import { and, count, eq, gte, inArray, lt, or, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { newestAcross } from "~/modules/shards/databases.server";
import { DAY_MS, MINUTE_MS } from "~/lib/dates";

// What every outgoing-message queue shares (ADR 0056): e-mail (email_outbox) and push (push_outbox). A row, not the
// queue message, is the record of what has to go; a consumer claims it in one conditional UPDATE before sending, so
// a message delivered twice (Queues deliver at least once) or a retry racing a late first attempt sends once. A
// refusal is retried with exponential backoff; after the queue's max_retries the message goes to the dead letters,
// whose consumer marks the row dead for the Operations Center.

/** wrangler.toml's max_retries for the e-mail and push queues: after this many retries the message is dead-lettered. */
export const OUTGOING_MAX_RETRIES = 5;
/** The first retry's delay; each further retry waits twice as long (30 s, 60 s, 120 s, 240 s, 480 s). */
const RETRY_BASE_SECONDS = 30;
/** Queues accept delays of up to 12 hours (a retry's delaySeconds); the backoff never gets near it, but it is the ceiling. */
const RETRY_MAX_SECONDS = 12 * 60 * 60;
/**
 * A row left "sending" this long belongs to a consumer that ended without finishing (a queue consumer runs for 15
 * minutes at most), so a later delivery may claim it again.
 */
const STALE_SENDING_MS = 15 * MINUTE_MS;

/** How long to wait before the retry that follows the `attempts`-th failed attempt. */
function retryDelaySeconds(attempts: number): number {
  return Math.min(RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_SECONDS);
}

/** The columns of an outbox table the shared delivery reads. */
export interface OutboxColumns {
  id: SQLiteColumn;
  status: SQLiteColumn;
  lastAttemptAt: SQLiteColumn;
  deadAt: SQLiteColumn;
}

/** The row may be claimed now: queued or retrying, or "sending" for longer than a consumer lives. */
export function claimable(columns: OutboxColumns, id: string, now: number) {
  return and(
    eq(columns.id, id),
    or(
      inArray(columns.status, ["queued", "retrying"]),
      and(eq(columns.status, "sending"), lt(columns.lastAttemptAt, new Date(now - STALE_SENDING_MS))),
    ),
  );
}

/** A dead letter's row may be marked dead: it was not sent after all. */
export function dying(columns: OutboxColumns, id: string) {
  return and(eq(columns.id, id), inArray(columns.status, ["queued", "retrying", "sending"]));
}

export type DeliveryOutcome = { outcome: "sent" | "kept" | "skipped" } | { outcome: "failed"; attempts: number; error: string };

/**
 * A queue() handler for an outgoing queue and its dead letters: the queue delivers each message and retries a
 * refused one with exponential backoff; the dead-letter queue marks its messages' rows dead. Messages are handled
 * one by one, each acknowledged or retried on its own, so one refusal never sends the rest of the batch again.
 */
export async function consumeOutgoingBatch<Body>(
  batch: MessageBatch<Body>,
  handlers: {
    deadLetterQueue: string;
    idOf: (body: Body) => unknown;
    deliver: (id: string, now: number) => Promise<DeliveryOutcome>;
    markDead: (id: string, now: number) => Promise<unknown>;
  },
) {
  for (const message of batch.messages) {
    const id = message.body ? handlers.idOf(message.body) : undefined;
    if (typeof id !== "string") {
      message.ack();
      continue;
    }
    if (batch.queue === handlers.deadLetterQueue) {
      await handlers.markDead(id, Date.now());
      message.ack();
      continue;
    }
    const result = await handlers.deliver(id, Date.now());
    if (result.outcome === "failed") message.retry({ delaySeconds: retryDelaySeconds(result.attempts) });
    else message.ack();
  }
}

export interface DeliveryFigures {
  /** Messages the far end refused whose retries are still under way, last tried in the last 24 hours. */
  retrying24h: number;
  /** Messages that ran out of retries in the last 24 hours: the dead-letter threshold's reading. */
  dead24h: number;
  /** Every dead message (not sent again yet). */
  deadTotal: number;
}

/** An outbox's delivery figures as of `now`: one definition for the Monitoring tab and the threshold on it. */
async function deliveryFigures(db: Db, table: SQLiteTable, columns: OutboxColumns, now: number): Promise<DeliveryFigures> {
  const dayFrom = new Date(now - DAY_MS);
  const [retrying, dead] = await db.batch([
    db
      .select({ n: count() })
      .from(table)
      .where(and(eq(columns.status, "retrying"), gte(columns.lastAttemptAt, dayFrom))),
    db
      .select({ total: count(), recent: sql<number>`coalesce(sum(${columns.deadAt} >= ${dayFrom.getTime()}), 0)` })
      .from(table)
      .where(eq(columns.status, "dead")),
  ]);
  return { retrying24h: retrying[0]?.n ?? 0, dead24h: dead[0]?.recent ?? 0, deadTotal: dead[0]?.total ?? 0 };
}

/** deliveryFigures summed over every account database (ADR 0060): the Operations Center's one reading of a channel. */
export async function deliveryFiguresAcross(
  databases: readonly Db[],
  table: SQLiteTable,
  columns: OutboxColumns,
  now: number,
): Promise<DeliveryFigures> {
  const each = await Promise.all(databases.map((db) => deliveryFigures(db, table, columns, now)));
  return each.reduce(
    (sum, f) => ({ retrying24h: sum.retrying24h + f.retrying24h, dead24h: sum.dead24h + f.dead24h, deadTotal: sum.deadTotal + f.deadTotal }),
    { retrying24h: 0, dead24h: 0, deadTotal: 0 },
  );
}

/** The newest DEAD_LISTED dead messages over every account database, each with its database's index (shard). */
export function newestDeadAcross<T extends { deadAt: Date | null }>(
  databases: readonly Db[],
  list: (db: Db) => Promise<T[]>,
): Promise<(T & { shard: number })[]> {
  return newestAcross(
    databases,
    async (db, shard) => (await list(db)).map((row) => ({ ...row, shard })),
    (row) => row.deadAt?.getTime() ?? 0,
    DEAD_LISTED,
  );
}

/** Queues take at most 100 messages per sendBatch (https://developers.cloudflare.com/queues/limits). */
export const SEND_BATCH_MAX = 100;

/** Puts `bodies` on `queue` in sendBatch calls of at most SEND_BATCH_MAX messages each. */
export async function sendInBatches<Body>(queue: Queue<Body>, bodies: Body[]): Promise<void> {
  for (let i = 0; i < bodies.length; i += SEND_BATCH_MAX) await queue.sendBatch(bodies.slice(i, i + SEND_BATCH_MAX).map((body) => ({ body })));
}

/** How many dead messages the Operations Center lists per channel (newest first). */
export const DEAD_LISTED = 50;
