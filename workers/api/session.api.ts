import type { Context } from "hono";
import { createRequestContext, type RequestContext } from "~/lib/context.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getSession } from "~/modules/auth/session.server";
import { decideBillingAccess } from "~/modules/billing/guard";
import { getSubscription } from "~/modules/billing/subscription.server";
import type { ApiEnv } from "./api-env";

/**
 * The JSON twin of requireSubscriber: the signed-in, verified, subscribed user and a request context, or the
 * JSON answer to send instead (401 signed out, 402 with where to go when billing does not allow access).
 */
export async function apiSubscriber(c: Context<ApiEnv>): Promise<{ context: RequestContext; user: SessionUser } | Response> {
  const context = createRequestContext(c.env, c.executionCtx, "");
  const user = (await getSession(context, c.req.raw))?.user;
  if (!user || !user.emailVerified) return c.json({ ok: false, error: "Please sign in again to continue." }, 401);
  const decision = decideBillingAccess(await getSubscription(context, user.id));
  if (!decision.allow) return c.json({ ok: false, error: "Your subscription is not active.", redirectTo: decision.redirectTo }, 402);
  return { context, user };
}
