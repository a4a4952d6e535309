import { DAY_MS } from "~/lib/dates";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import { aiDraftDays } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";
import type { Config } from "~/lib/env.server";
import { hitRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import type { EngineSettings, GenerationEvent } from "./engines.server";
import type { EngineId } from "./draft-types";

/** Bursts: this many drafts a minute per user (KV fixed window, docs/decisions/0003). */
export const AI_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 };
/** Days of counts kept: today's is the one that counts; yesterday's may still be given back by a draft that ran past midnight. */
const KEEP_DAYS = 2;

const utcDay = (now: number) => new Date(now).toISOString().slice(0, 10);
const hoursLeft = (seconds: number) => (seconds <= 3600 ? "within the hour" : `in about ${Math.round(seconds / 3600)} hours`);

export type AiDraftSpend = { ok: true; day: string } | { ok: false; message: string; retryAfterSeconds: number };

/**
 * Starts one draft against the user's minute limit (KV) and daily quota (D1, the day is UTC). The quota is taken in one
 * statement that refuses past it (ADR 0051): two drafts at once cannot both take the last one. A draft that then fails
 * gives it back (refundAiDraft, with the day returned here).
 */
export async function spendAiDraft(
  context: Pick<RequestContext, "db">,
  kv: KVNamespace,
  userId: string,
  dailyQuota: number,
  now = Date.now(),
): Promise<AiDraftSpend> {
  const minute = await hitRateLimit(kv, "ai", userId, AI_RATE, now);
  if (!minute.allowed) {
    return {
      ok: false,
      message: `That is ${AI_RATE.limit} drafts in a minute. Please wait ${minute.retryAfterSeconds} seconds and try again.`,
      retryAfterSeconds: minute.retryAfterSeconds,
    };
  }
  const day = utcDay(now);
  const [taken] = await context.db
    .insert(aiDraftDays)
    .values({ userId, day, drafts: 1 })
    .onConflictDoUpdate({
      target: [aiDraftDays.userId, aiDraftDays.day],
      set: { drafts: sql`${aiDraftDays.drafts} + 1` },
      setWhere: sql`${aiDraftDays.drafts} < ${dailyQuota}`,
    })
    .returning({ drafts: aiDraftDays.drafts });
  if (taken && taken.drafts <= dailyQuota) return { ok: true, day };
  // A quota lowered below today's count leaves a first insert over it: give that one back too.
  if (taken) await refundAiDraft(context, userId, day);
  const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(`${day}T00:00:00Z`) + DAY_MS - now) / 1000));
  return {
    ok: false,
    message: `You have used all ${dailyQuota} AI drafts for today. The quota resets at midnight UTC, ${hoursLeft(retryAfterSeconds)}.`,
    retryAfterSeconds,
  };
}

/** Gives back a draft that failed, in one statement, to the day it was counted on. */
export async function refundAiDraft(context: Pick<RequestContext, "db">, userId: string, day: string): Promise<void> {
  await context.db
    .update(aiDraftDays)
    .set({ drafts: sql`${aiDraftDays.drafts} - 1` })
    .where(and(eq(aiDraftDays.userId, userId), eq(aiDraftDays.day, day), gt(aiDraftDays.drafts, 0)));
}

/** Drafts the user has used today (UTC), for the page's "N of 100 left". */
export async function aiDraftsToday(context: Pick<RequestContext, "db">, userId: string, now = Date.now()): Promise<number> {
  const row = await context.db
    .select({ drafts: aiDraftDays.drafts })
    .from(aiDraftDays)
    .where(and(eq(aiDraftDays.userId, userId), eq(aiDraftDays.day, utcDay(now))))
    .get();
  return row?.drafts ?? 0;
}

/** The cron's upkeep: counts of days that can no longer count or be given back. */
export async function pruneAiDraftDays(context: Pick<RequestContext, "db">, now = Date.now()): Promise<number> {
  const removed = await context.db.delete(aiDraftDays).where(lt(aiDraftDays.day, utcDay(now - KEEP_DAYS * DAY_MS)));
  return removed.meta.changes ?? 0;
}

/**
 * Follows a draft's events and calls `refund` once, if it did not end in a finished answer: a model that stopped early
 * or took too long (an error event), the canned fallback (every engine failed), an exception, or a reader that went
 * away before the end. A finished answer from a model or the offline drafter is the one that counts.
 */
export async function* countedOnSuccess(events: AsyncGenerator<GenerationEvent>, refund: () => void): AsyncGenerator<GenerationEvent> {
  let failed = false;
  let finished = false;
  try {
    for await (const event of events) {
      if (event.type === "error") failed = true;
      if (event.type === "engine" && event.engine === "fallback") failed = true;
      if (event.type === "final" && event.text.trim()) finished = true;
      yield event;
    }
  } finally {
    if (failed || !finished) refund();
  }
}

/** The engines this deployment has, from its bindings and settings. */
export function engineSettings(env: Env, config: Config): EngineSettings {
  return {
    ai: env.AI as unknown as EngineSettings["ai"],
    model: config.AI_MODEL,
    gatewayUrl: config.AI_GATEWAY_URL,
    gatewayKey: config.AI_GATEWAY_KEY,
    gatewayModel: config.AI_GATEWAY_MODEL,
  };
}

/** Which engine will write first. */
export function primaryEngine(settings: EngineSettings): EngineId {
  return settings.ai ? "workers-ai" : settings.gatewayUrl ? "gateway" : "offline";
}
