import { userPreferences } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import { DEFAULT_DISPLAY_PREFERENCES, type DisplayPreferences } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import type { DisplayPreferencesInput } from "./preferences.schema";

/** The user's display preferences, read once per request however many loaders and modules ask. */
export function getDisplayPreferences(context: RequestContext, userId: UserId): Promise<DisplayPreferences> {
  return memoize(context, `prefs:${userId}`, async () => {
    const row = await context.db
      .select({
        dateFormat: userPreferences.dateFormat,
        timeFormat: userPreferences.timeFormat,
        timezone: userPreferences.timezone,
        currency: userPreferences.currency,
      })
      .from(userPreferences)
      .where(ownedBy(userPreferences, userId))
      .get();
    return row ?? DEFAULT_DISPLAY_PREFERENCES;
  });
}

export async function saveDisplayPreferences(context: RequestContext, userId: UserId, input: DisplayPreferencesInput) {
  await context.db
    .insert(userPreferences)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...input, updatedAt: new Date() } });
  context.memo.delete(`prefs:${userId}`);
}
