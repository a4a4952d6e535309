import { userPreferences } from "~/db/schema";
import { memoize, type RequestContext } from "~/lib/context.server";
import { ownedBy, ownedByAny } from "~/lib/tenancy.server";
import { DEFAULT_DISPLAY_PREFERENCES, type DisplayPreferences } from "~/lib/format";
import type { UserId } from "~/modules/auth/session.server";
import type { DisplayPreferencesInput } from "./preferences.schema";

const memoKey = (userId: string) => `prefs:${userId}`;

/** The user's display preferences, read once per request however many loaders and modules ask. */
export function getDisplayPreferences(context: RequestContext, userId: UserId): Promise<DisplayPreferences> {
  return memoize(context, memoKey(userId), async () => {
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

/** The display preferences of several users in one read (a team view), kept for the request as getDisplayPreferences keeps them. */
export function displayPreferencesQuery(db: RequestContext["db"], userIds: readonly UserId[]) {
  return db
    .select({
      userId: userPreferences.userId,
      dateFormat: userPreferences.dateFormat,
      timeFormat: userPreferences.timeFormat,
      timezone: userPreferences.timezone,
      currency: userPreferences.currency,
    })
    .from(userPreferences)
    .where(ownedByAny(userPreferences, userIds));
}

/** Keeps the rows of displayPreferencesQuery for the request; a user with none gets the defaults. Returns them by user. */
export function keepDisplayPreferences(
  context: RequestContext,
  userIds: readonly UserId[],
  rows: Awaited<ReturnType<typeof displayPreferencesQuery>>,
): Map<string, DisplayPreferences> {
  const byUser = new Map<string, DisplayPreferences>();
  for (const id of userIds) {
    const { userId: _userId, ...prefs } = rows.find((r) => r.userId === id) ?? { userId: id, ...DEFAULT_DISPLAY_PREFERENCES };
    byUser.set(id, prefs);
    context.memo.set(memoKey(id), Promise.resolve(prefs));
  }
  return byUser;
}

export async function saveDisplayPreferences(context: RequestContext, userId: UserId, input: DisplayPreferencesInput) {
  await context.db
    .insert(userPreferences)
    .values({ userId, ...input })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...input, updatedAt: new Date() } });
  context.memo.delete(memoKey(userId));
}
