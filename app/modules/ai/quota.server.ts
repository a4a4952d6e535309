import type { Env } from "~/lib/env.server";
import type { Config } from "~/lib/env.server";
import { hitRateLimit, type RateLimitRule } from "~/lib/rate-limit.server";
import type { EngineSettings } from "./engines.server";
import type { EngineId } from "./draft-types";

/** Bursts: this many drafts a minute per user (KV fixed window, docs/decisions/0003). */
export const AI_RATE: RateLimitRule = { limit: 10, windowSeconds: 60 };
const DAY_SECONDS = 86_400;

const hoursLeft = (seconds: number) => (seconds <= 3600 ? "within the hour" : `in about ${Math.round(seconds / 3600)} hours`);

/**
 * Counts one draft against the user's minute limit and daily quota (the day is UTC; windows are aligned to
 * midnight UTC). Returns null when allowed, else the message to show and when to retry.
 */
export async function spendAiDraft(kv: KVNamespace, userId: string, dailyQuota: number, now = Date.now()): Promise<{ message: string; retryAfterSeconds: number } | null> {
  const minute = await hitRateLimit(kv, "ai", userId, AI_RATE, now);
  if (!minute.allowed) {
    return { message: `That is ${AI_RATE.limit} drafts in a minute. Please wait ${minute.retryAfterSeconds} seconds and try again.`, retryAfterSeconds: minute.retryAfterSeconds };
  }
  const day = await hitRateLimit(kv, "ai-day", userId, { limit: dailyQuota, windowSeconds: DAY_SECONDS }, now);
  if (!day.allowed) {
    return {
      message: `You have used all ${dailyQuota} AI drafts for today. The quota resets at midnight UTC, ${hoursLeft(day.retryAfterSeconds)}.`,
      retryAfterSeconds: day.retryAfterSeconds,
    };
  }
  return null;
}

/** Drafts the user has made today (UTC), for the page's "N of 100 left". */
export async function aiDraftsToday(kv: KVNamespace, userId: string, now = Date.now()): Promise<number> {
  const windowStart = Math.floor(now / (DAY_SECONDS * 1000)) * DAY_SECONDS * 1000;
  return Number((await kv.get(`rl:ai-day:${userId}:${windowStart}`)) ?? 0);
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
