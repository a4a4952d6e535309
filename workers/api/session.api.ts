import type { Context } from "hono";
import { createRequestContext, type RequestContext } from "~/lib/context.server";
import { SECURITY_PATH } from "~/modules/auth/guards.server";
import type { SessionUser } from "~/modules/auth/session.server";
import { getSession } from "~/modules/auth/session.server";
import { decideBillingAccess } from "~/modules/billing/guard";
import { getSubscription } from "~/modules/billing/subscription.server";
import type { ApiEnv } from "./api-env";

/** Said by the JSON API to a member whose team requires two-factor sign-in they have not set up (ADR 0074). */
export const TWO_FACTOR_DUE = "Your team requires two-factor sign-in. Set it up under Settings → Security to continue.";

/**
 * The JSON twin of requireSubscriber: the signed-in, verified, subscribed user and a request context, or the
 * JSON answer to send instead (401 signed out, 403 with where to go when their team requires two-factor sign-in they
 * have not set up, 402 with where to go when billing does not allow access).
 */
export async function apiSubscriber(c: Context<ApiEnv>): Promise<{ context: RequestContext; user: SessionUser } | Response> {
  const context = createRequestContext(c.env, c.executionCtx, "");
  const user = (await getSession(context, c.req.raw))?.user;
  if (!user || !user.emailVerified) return c.json({ ok: false, error: "Please sign in again to continue." }, 401);
  // As the pages send them to Settings → Security first (guards.server.ts), the API serves them nothing until then.
  if (user.twoFactorSetupDue) return c.json({ ok: false, error: TWO_FACTOR_DUE, redirectTo: SECURITY_PATH }, 403);
  const decision = decideBillingAccess(await getSubscription(context, user.id));
  if (!decision.allow) return c.json({ ok: false, error: "Your subscription is not active.", redirectTo: decision.redirectTo }, 402);
  return { context, user };
}
