import { Hono } from "hono";
import { getConfig } from "~/lib/env.server";
import { verifySvix } from "~/lib/svix.server";
import { applyEmailEvent } from "~/modules/conversations/email-events.server";
import type { ApiEnv } from "./api-env";

/** An event is a few kilobytes; anything far larger is not the provider's. */
const EVENT_MAX_BYTES = 256 * 1024;

/**
 * POST /api/email/events: the e-mail provider's events, signed in the Svix scheme. Bounces and complaints mark the
 * e-mail and its contact (ADR 0071); any other event, and one about an e-mail not found, is answered 200 so the
 * provider does not retry it. A bad or stale signature is a 400 and changes nothing.
 */
export const emailEventsApi = new Hono<ApiEnv>().post("/email/events", async (c) => {
  const secret = getConfig(c.env).RESEND_WEBHOOK_SECRET;
  if (!secret) return c.json({ error: "E-mail events are not configured." }, 503);
  if (Number(c.req.header("Content-Length") ?? 0) > EVENT_MAX_BYTES) return c.json({ error: "The event is too large." }, 413);
  const body = await c.req.text();
  if (body.length > EVENT_MAX_BYTES) return c.json({ error: "The event is too large." }, 413);
  const headers = {
    id: c.req.header("svix-id") ?? null,
    timestamp: c.req.header("svix-timestamp") ?? null,
    signature: c.req.header("svix-signature") ?? null,
  };
  if (!(await verifySvix(secret, headers, body))) {
    console.warn(JSON.stringify({ event: "email_event_rejected" }));
    return c.json({ error: "Invalid signature." }, 400);
  }
  let payload: unknown;
  try {
    payload = JSON.parse(body);
  } catch {
    return c.json({ error: "The event is not JSON." }, 400);
  }
  const result = await applyEmailEvent(c.env, payload);
  if (result === "invalid") return c.json({ error: "The event is not one Porchlight reads." }, 400);
  console.log(JSON.stringify({ event: "email_event", type: (payload as { type?: unknown }).type, result }));
  return c.json({ received: true, result });
});
