import * as z from "zod";
import { createDb } from "~/db/client.server";
import type { Env } from "~/lib/env.server";
import { shardDatabases } from "~/lib/shards.server";
import { findOutboxEmail, markOutboxProblem, type DeliveryProblem } from "./bounces.server";

// The e-mail provider's events (POST /api/email/events, signature checked by the caller): a bounce or a complaint about
// an e-mail sent as "Agent via Porchlight" names the provider's id of the e-mail and echoes the tags delivery gave it
// (app/modules/email/delivery.server.ts): the database it lives in and its outbox id. Without them, every bound
// database is looked in by recipient and provider id. An event about an e-mail not found is answered as taken, so the
// provider stops retrying: it will not be found later either.

const Tags = z.union([
  z.record(z.string(), z.string()),
  z.array(z.object({ name: z.string(), value: z.string() })).transform((tags) => Object.fromEntries(tags.map((t) => [t.name, t.value]))),
]);

const EmailEventSchema = z.object({
  type: z.string().max(100),
  data: z.object({
    email_id: z.string().min(1).max(200),
    to: z.array(z.string().max(320)).max(50).optional(),
    tags: Tags.optional(),
  }),
});

const PROBLEMS: Record<string, DeliveryProblem> = { "email.bounced": "bounced", "email.complained": "complained" };

export type EmailEventResult = "applied" | "ignored" | "unknown" | "invalid";

/** Applies one verified event: marks the e-mail and its contact for a bounce or a complaint. */
export async function applyEmailEvent(env: Env, payload: unknown, now = new Date()): Promise<EmailEventResult> {
  const parsed = EmailEventSchema.safeParse(payload);
  if (!parsed.success) return "invalid";
  const problem = PROBLEMS[parsed.data.type];
  if (!problem) return "ignored";
  const { email_id: providerId, to, tags = {} } = parsed.data.data;
  const databases = shardDatabases(env);
  const tagged = /^\d{1,3}$/.test(tags.shard ?? "") ? Number(tags.shard) : null;
  const candidates = tagged !== null && tagged < databases.length ? [databases[tagged]!] : databases;
  const hint = { outboxId: tags.outbox, to: to?.[0] };
  for (const database of candidates) {
    const db = createDb(database);
    const outbox = await findOutboxEmail(db, providerId, hint);
    if (outbox) return (await markOutboxProblem(db, outbox, problem, now)) ? "applied" : "unknown";
  }
  return "unknown";
}
