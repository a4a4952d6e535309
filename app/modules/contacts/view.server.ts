import * as z from "zod";
import { userPreferences } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { CONTACTS_LAYOUTS } from "./list-layout";

// How the contact list looks, kept per user in user_preferences (spec section 3).
export const ContactsViewSchema = z.object({
  contactsLayout: z.enum(CONTACTS_LAYOUTS),
  contactsDensity: z.enum(["comfortable", "compact"]),
  contactsDetail: z.enum(["summary", "full"]),
});
export type ContactsView = z.infer<typeof ContactsViewSchema>;
export const DEFAULT_CONTACTS_VIEW: ContactsView = { contactsLayout: "list", contactsDensity: "comfortable", contactsDetail: "summary" };

export async function saveContactsView(context: RequestContext, userId: UserId, view: Partial<ContactsView>) {
  await context.db
    .insert(userPreferences)
    .values({ userId, ...view })
    .onConflictDoUpdate({ target: userPreferences.userId, set: { ...view, updatedAt: new Date() } });
}
