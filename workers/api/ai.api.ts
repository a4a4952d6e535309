import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { GenerateRequestSchema } from "~/modules/ai/ai.schema";
import { eventStreamResponse } from "~/lib/sse.server";
import { asServerSentEvents, generate } from "~/modules/ai/engines.server";
import { EnvelopeError, loadEnvelope } from "~/modules/ai/envelope.server";
import { countedOnSuccess, engineSettings, refundAiDraft, spendAiDraft } from "~/modules/ai/quota.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

/**
 * POST /api/ai/generate (spec section 7, generate-with-ai): { task, tone, userInput, contactId?, dealIds?,
 * location?, mlsLimit?, listing?: { bedrooms, bathrooms, squareFeet, price }, variant? } in; the answer out as server-sent events (engine, text…, final, done).
 * The envelope is built on the server from the user's own data; a bad request or an id that is not theirs
 * gets a JSON error and spends nothing; a draft that fails gives its place in the daily quota back.
 */
export const aiApi = new Hono<ApiEnv>().post("/ai/generate", async (c) => {
  const auth = await apiSubscriber(c);
  if (auth instanceof Response) return auth;
  const parsed = GenerateRequestSchema.safeParse(await readJson(c.req.raw));
  if (!parsed.success) return c.json({ ok: false, error: parsed.error.issues[0]?.message ?? "That request could not be read." }, 400);
  let envelope;
  try {
    envelope = await loadEnvelope(auth.context.db, auth.user.id, parsed.data);
  } catch (error) {
    if (error instanceof EnvelopeError) return c.json({ ok: false, error: error.message }, 404);
    throw error;
  }
  const spent = await spendAiDraft(auth.context, c.env.KV, auth.user.id, auth.context.config.AI_DAILY_QUOTA);
  if (!spent.ok) return c.json({ ok: false, error: spent.message }, 429, { "Retry-After": String(spent.retryAfterSeconds) });
  // A draft that fails (or is abandoned) gives its quota back, after the stream has ended (ADR 0051).
  const refund = () =>
    auth.context.cloudflare.ctx.waitUntil(
      refundAiDraft(auth.context, auth.user.id, spent.day).catch((error: unknown) =>
        console.error(JSON.stringify({ event: "ai_refund_failed", message: String(error) })),
      ),
    );
  const events = countedOnSuccess(generate(envelope, engineSettings(c.env, auth.context.config)), refund);
  return eventStreamResponse(asServerSentEvents(events));
});
