import type { SQL } from "drizzle-orm";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema, fieldErrors } from "./contact.schema";
import { CONTACT_MESSAGES, SAVE_ANYWAY_FIELD, type PossibleDuplicate } from "./contacts.messages";
import { getContact, updateContact } from "./contacts.server";
import { possibleDuplicates } from "./duplicates.server";

// The contact page's edit form: checked by the form's schema, and warned about an e-mail or phone another contact
// has (duplicates.server.ts) unless the agent saw the warning and saves anyway.

export type EditContactResult =
  | { ok: true }
  | { ok: false; status: 400 | 409; error: string; fieldErrors: Record<string, string>; duplicates: PossibleDuplicate[] }
  | null;

/** Saves the edit form to the agent's own contact; null when the contact is not theirs (or gone). */
/** `requires`: a teammate's edit (team/member-records.server.ts), re-checked by the update itself. */
export async function updateContactFromForm(
  context: RequestContext,
  userId: UserId,
  id: string,
  form: FormData,
  requires?: SQL,
): Promise<EditContactResult> {
  const parsed = ContactInputSchema.safeParse({ ...Object.fromEntries(form), tags: form.getAll("tags") });
  if (!parsed.success)
    return { ok: false, status: 400, error: CONTACT_MESSAGES.validationTitle, fieldErrors: fieldErrors(parsed.error), duplicates: [] };
  const before = await getContact(context, userId, id);
  if (!before) return null;
  const duplicates =
    form.get(SAVE_ANYWAY_FIELD) === "1" ? [] : await possibleDuplicates(context, userId, parsed.data, { exceptId: id, previous: before });
  if (duplicates.length > 0) return { ok: false, status: 409, error: CONTACT_MESSAGES.possibleDuplicate, fieldErrors: {}, duplicates };
  return (await updateContact(context, userId, id, parsed.data, requires)) ? { ok: true } : null;
}
