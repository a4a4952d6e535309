import { and, count, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { cronRuns, emailOutbox, probeResults, stripeEvents } from "~/db/schema";
import { getConfig, type Env } from "~/lib/env.server";
import { engineSettings } from "~/modules/ai/quota.server";
import { generate } from "~/modules/ai/engines.server";
import { accountDatabases } from "~/modules/shards/databases.server";
import type { DraftEnvelope } from "~/modules/ai/draft-types";

// The cron's probes (ADR 0024): every five minutes each component is checked for real and the
// result kept in probe_results (90 days: the public status page's daily bars read them). `ok` says whether
// the component answered as it should; `value` carries what a probe measures besides its own latency.

export const PROBE_COMPONENTS = ["d1", "kv", "durable_object", "outbox", "ai", "stripe", "webhooks", "cron"] as const;
type ProbeComponent = (typeof PROBE_COMPONENTS)[number];

export interface ProbeResult {
  component: ProbeComponent;
  ok: boolean;
  ms: number;
  value: number | null;
  detail: string | null;
}

/** How long a probe may take before it counts as failed. */
const PROBE_TIMEOUT_MS = 10_000;

async function timed(
  component: ProbeComponent,
  run: () => Promise<{ ok?: boolean; value?: number | null; detail?: string | null } | void>,
): Promise<ProbeResult> {
  const started = Date.now();
  try {
    const result = await Promise.race([
      run(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS)),
    ]);
    return { component, ok: result?.ok ?? true, ms: Date.now() - started, value: result?.value ?? null, detail: result?.detail ?? null };
  } catch (error) {
    return { component, ok: false, ms: Date.now() - started, value: null, detail: error instanceof Error ? error.message : String(error) };
  }
}

/** The AI probe's request: a one-sentence question, with no agent's data in it. */
const PROBE_ENVELOPE: DraftEnvelope = {
  task: "advice",
  userInput: "In one sentence: what is one good habit for following up with new leads?",
  tone: "professional",
  contact: null,
  deals: [],
  agent: { name: null, brokerage: null, market: null },
  tasks: [],
  today: "2026-01-05",
  currency: "USD",
  mlsLimit: null,
  listing: null,
  variant: 0,
};

/** Messages waiting in the outbox this long count as a backlog (a sender that keeps up clears them in seconds). */
const OUTBOX_BACKLOG_AFTER_MS = 5 * 60_000;
/**
 * E-mails waiting over OUTBOX_BACKLOG_AFTER_MS to be sent, in every account database (ADR 0060): on the queue (queued,
 * being retried or being sent) or kept in the outbox for want of a provider. The outbox probe's reading and the QA
 * Dashboard's check.
 */
export async function outboxBacklog(databases: readonly Db[], now: number): Promise<number> {
  const each = await Promise.all(
    databases.map(async (db) => {
      const [row] = await db
        .select({ n: count() })
        .from(emailOutbox)
        .where(
          and(
            inArray(emailOutbox.status, ["queued", "sending", "retrying", "outbox"]),
            lt(emailOutbox.createdAt, new Date(now - OUTBOX_BACKLOG_AFTER_MS)),
          ),
        );
      return row?.n ?? 0;
    }),
  );
  return each.reduce((sum, n) => sum + n, 0);
}

/** Webhook delivery lag is read over the events of the last day. */
const WEBHOOK_WINDOW_MS = 24 * 60 * 60_000;

export async function runProbes(db: Db, env: Env, controller: { scheduledTime: number; cron: string }, now = Date.now()): Promise<ProbeResult[]> {
  const config = getConfig(env);
  const accounts = accountDatabases(env);
  const results = await Promise.all([
    timed("d1", async () => {
      // Every account database answers (ADR 0060).
      const failing: string[] = [];
      await Promise.all(
        accounts.map((account, n) =>
          account.$client
            .prepare("select 1")
            .first()
            .catch((error: unknown) => failing.push(`database ${n}: ${error instanceof Error ? error.message : String(error)}`)),
        ),
      );
      if (failing.length > 0) throw new Error(failing.join("; "));
      return { detail: accounts.length === 1 ? null : `${accounts.length} databases answered` };
    }),
    timed("kv", async () => {
      await env.KV.get("health:probe");
    }),
    timed("durable_object", async () => {
      const pending = await env.OPS.get(env.OPS.idFromName("shard-0")).pendingSamples();
      return { value: pending };
    }),
    timed("outbox", async () => {
      return { value: await outboxBacklog(accounts, now), detail: "messages waiting over 5 minutes" };
    }),
    timed("ai", async () => {
      let engine = "none";
      let text = "";
      for await (const event of generate(PROBE_ENVELOPE, { ...engineSettings(env, config), firstTokenMs: 5_000, totalMs: 8_000 })) {
        if (event.type === "engine") engine = event.engine;
        if (event.type === "final") text = event.text;
      }
      // The fallback text means every configured engine failed.
      return { ok: text.trim().length > 0 && engine !== "fallback", detail: `engine: ${engine}` };
    }),
    timed("stripe", async () => {
      if (!config.STRIPE_SECRET_KEY) {
        // Without keys the app takes payments through its local test checkout: fine anywhere but production.
        return {
          ok: config.APP_ENV !== "production",
          detail: config.APP_ENV === "production" ? "STRIPE_SECRET_KEY is not set" : "local test checkout (no Stripe keys)",
        };
      }
      const missing = (["STRIPE_WEBHOOK_SECRET", "STRIPE_PRICE_MONTHLY", "STRIPE_PRICE_YEARLY"] as const).filter((key) => !config[key]);
      return { ok: missing.length === 0, detail: missing.length ? `not set: ${missing.join(", ")}` : "keys, webhook secret and prices set" };
    }),
    timed("webhooks", async () => {
      // Seconds from Stripe creating an event to this app applying it, the slowest of the last day, in every account
      // database (an event is recorded in its agent's).
      const rows = await Promise.all(
        accounts.map(async (account) => {
          const [row] = await account
            .select({ lag: sql<number | null>`max(${stripeEvents.processedAt} - ${stripeEvents.stripeCreatedAt})`, n: count() })
            .from(stripeEvents)
            .where(gte(stripeEvents.processedAt, new Date(now - WEBHOOK_WINDOW_MS)));
          return { lag: row?.lag ?? null, n: row?.n ?? 0 };
        }),
      );
      const lags = rows.flatMap((r) => (r.lag == null ? [] : [r.lag]));
      const events = rows.reduce((sum, r) => sum + r.n, 0);
      return { value: lags.length === 0 ? null : Math.max(0, ...lags) / 1000, detail: `${events} events in the last 24 hours` };
    }),
    timed("cron", async () => {
      // How late the scheduler's previous run started, and whether a run was missed since.
      const [previous] = await db
        .select({ scheduledAt: cronRuns.scheduledAt, startedAt: cronRuns.startedAt })
        .from(cronRuns)
        .where(and(eq(cronRuns.job, "heartbeat"), lt(cronRuns.scheduledAt, new Date(controller.scheduledTime))))
        .orderBy(desc(cronRuns.scheduledAt))
        .limit(1);
      if (!previous) return { value: null, detail: "first run" };
      const late = Math.max(0, previous.startedAt.getTime() - previous.scheduledAt.getTime()) / 1000;
      const gapMinutes = (controller.scheduledTime - previous.scheduledAt.getTime()) / 60_000;
      const missed = Math.max(0, Math.round(gapMinutes / 5) - 1);
      return { ok: missed === 0, value: late, detail: missed ? `${missed} run${missed === 1 ? "" : "s"} missed before this one` : null };
    }),
  ]);
  await db.insert(probeResults).values(results.map((r) => ({ ...r, at: now })));
  return results;
}
