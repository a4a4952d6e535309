import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { requireSubscriber } from "~/modules/auth/guards.server";
import type { CalendarFeedResult } from "~/modules/tasks/task.schema";
import { calendarFeedPath, createCalendarFeed, revokeCalendarFeed } from "~/modules/tasks/calendar-feed.server";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";

// Action only (Settings → Calendar feed): make a new private feed URL, which replaces any earlier one, or
// turn the feed off. The URL is in this answer only: the server keeps just a hash of its secret.
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireSubscriber(request, context);
  return dispatchIntent(await readForm(request), {
    create: async () => {
      const token = await createCalendarFeed(context, user.id);
      return data<CalendarFeedResult>({ ok: true, intent: "create", url: new URL(calendarFeedPath(token), request.url).toString() });
    },
    revoke: async () => {
      await revokeCalendarFeed(context, user.id);
      return data<CalendarFeedResult>({ ok: true, intent: "revoke" });
    },
  });
}
