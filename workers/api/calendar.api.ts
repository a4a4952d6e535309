import { Hono } from "hono";
import { createRequestContext } from "~/lib/context.server";
import { decideBillingAccess } from "~/modules/billing/guard";
import { getSubscription } from "~/modules/billing/subscription.server";
import { findCalendarFeed, renderCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import type { ApiEnv } from "./api-env";

/**
 * GET /api/calendar/<secret>.ics: the user's private calendar feed (tasks and closing dates). Calendar apps
 * fetch it without a session, so the secret is the key. An unknown or revoked secret, and an account whose
 * subscription no longer gives access, get the same 404.
 */
export const calendarApi = new Hono<ApiEnv>().get("/calendar/:file{[A-Za-z0-9_-]+\\.ics}", async (c) => {
  const context = createRequestContext(c.env, c.executionCtx, "");
  const token = c.req.param("file").replace(/\.ics$/, "");
  const feed = await findCalendarFeed(context, token);
  const allowed = feed ? decideBillingAccess(await getSubscription(context, feed.userId)).allow : false;
  if (!feed || !allowed)
    return c.text("No calendar feed at this address. Make a new one in Porchlight settings.", 404, { "Cache-Control": "no-store" });
  const body = await renderCalendarFeed(context, feed, new URL(c.req.url).origin);
  return c.body(body, 200, {
    "Content-Type": "text/calendar; charset=utf-8",
    "Content-Disposition": 'inline; filename="porchlight.ics"',
    "Cache-Control": "private, no-cache",
    "X-Robots-Tag": "noindex",
  });
});
