import { Hono } from "hono";
import { readJson } from "~/lib/body.server";
import { pushPublicKey, PushSubscriptionSchema, removeSubscription, saveSubscription } from "~/modules/push/push.server";
import type { ApiEnv } from "./api-env";
import { apiSubscriber } from "./session.api";

const NO_STORE = { "Cache-Control": "private, no-store" };
const OFF = "Push notifications are not turned on for this Porchlight.";

/**
 * New-lead alerts on a device (ADR 0032; Settings → Notifications). Only while PUSH_NOTIFICATIONS is on.
 * POST /api/push/subscriptions: the browser's PushSubscription (toJSON()); this device alerts the signed-in agent.
 * DELETE /api/push/subscriptions { endpoint }: this device stops.
 */
export const pushApi = new Hono<ApiEnv>()
  .post("/push/subscriptions", async (c) => {
    const auth = await apiSubscriber(c);
    if (auth instanceof Response) return auth;
    // The body is checked first: one that cannot be read or is not a subscription gets its 4xx whatever the flag says.
    const parsed = PushSubscriptionSchema.safeParse(await readJson(c.req.raw));
    if (!parsed.success) return c.json({ ok: false, error: parsed.error.issues[0]?.message ?? "Send the subscription as JSON." }, 400, NO_STORE);
    if (!pushPublicKey(auth.context.config)) return c.json({ ok: false, error: OFF }, 404, NO_STORE);
    const saved = await saveSubscription(auth.context, auth.user.id, parsed.data);
    return saved.ok ? c.json({ ok: true }, 201, NO_STORE) : c.json({ ok: false, error: saved.error }, saved.status, NO_STORE);
  })
  .delete("/push/subscriptions", async (c) => {
    const auth = await apiSubscriber(c);
    if (auth instanceof Response) return auth;
    const body = await readJson(c.req.raw);
    if (!pushPublicKey(auth.context.config)) return c.json({ ok: false, error: OFF }, 404, NO_STORE);
    const endpoint =
      body && typeof body === "object" && typeof (body as { endpoint?: unknown }).endpoint === "string"
        ? (body as { endpoint: string }).endpoint
        : null;
    if (!endpoint) return c.json({ ok: false, error: "Name the subscription's endpoint." }, 400, NO_STORE);
    return c.json({ ok: true, removed: await removeSubscription(auth.context, auth.user.id, endpoint) }, 200, NO_STORE);
  });
