import { Hono } from "hono";
import { createRequestContext } from "~/lib/context.server";
import { getSession } from "~/modules/auth/session.server";
import { getSubscription } from "~/modules/billing/subscription.server";
import type { ApiEnv } from "./api-env";

/** GET /api/check-subscription (spec section 7): the signed-in user's subscription. */
export const billingApi = new Hono<ApiEnv>().get("/check-subscription", async (c) => {
  const context = createRequestContext(c.env, c.executionCtx, "");
  const session = await getSession(context, c.req.raw);
  if (!session) return c.json({ error: "Authentication required" }, 401);
  const state = await getSubscription(context, session.user.id);
  if (!state.known) return c.json({ error: "Unable to verify subscription status" }, 503);
  const subscribed = state.status === "active" || state.status === "trialing";
  return c.json({ subscribed, status: state.status, plan: state.plan }, 200, { "Cache-Control": "private, no-store" });
});
