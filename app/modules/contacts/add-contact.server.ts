import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { raiseLeadAlertLater } from "~/modules/push/lead-alerts.server";
import { SUBMISSION_KEY_FIELD } from "~/modules/sync/submission-key";
import { once, readSubmissionKey } from "~/modules/sync/submissions.server";
import { ContactInputSchema, fieldErrors } from "./contact.schema";
import { CONTACT_MESSAGES, SAVE_ANYWAY_FIELD, type PossibleDuplicate } from "./contacts.messages";
import { createLead, getContact } from "./contacts.server";
import { possibleDuplicates } from "./duplicates.server";

// The Add contact dialog's save: checked by the form's schema, warned about a duplicate unless saved anyway
// (duplicates.server.ts), made once per submission key (submissions.server.ts), a new lead whose alert goes out after
// the answer (ADR 0032).

export type AddContactResult =
  | { ok: true; contact: { id: string; name: string } }
  | { ok: false; status: 400 | 409 | 500; error: string; fieldErrors: Record<string, string>; duplicates?: PossibleDuplicate[] };

export async function addContactFromForm(context: RequestContext, userId: UserId, form: FormData): Promise<AddContactResult> {
  const parsed = ContactInputSchema.safeParse({ ...Object.fromEntries(form), tags: form.getAll("tags") });
  if (!parsed.success) return { ok: false, status: 400, error: CONTACT_MESSAGES.validationTitle, fieldErrors: fieldErrors(parsed.error) };
  const submission = readSubmissionKey(form.get(SUBMISSION_KEY_FIELD));
  if ("error" in submission) return { ok: false, status: 400, error: submission.error, fieldErrors: {} };
  const saveAnyway = form.get(SAVE_ANYWAY_FIELD) === "1";
  try {
    return await once<AddContactResult>(
      context,
      userId,
      "contact",
      submission.key,
      async (id) => {
        // Another contact with this e-mail or phone: warn, unless the agent saw the warning and saves anyway.
        const duplicates = saveAnyway ? [] : await possibleDuplicates(context, userId, parsed.data, { exceptId: id });
        if (duplicates.length > 0) return { ok: false, status: 409, error: CONTACT_MESSAGES.possibleDuplicate, fieldErrors: {}, duplicates };
        const contact = await createLead(context, userId, parsed.data, id);
        // A new lead: pushed to the agent's devices after the answer goes; a retry raises nothing.
        raiseLeadAlertLater(context, userId, contact);
        return { ok: true, contact: { id: contact.id, name: contact.name } };
      },
      async (id) => {
        const contact = await getContact(context, userId, id);
        return contact ? { ok: true, contact: { id: contact.id, name: contact.name } } : null;
      },
    );
  } catch (error) {
    console.error(JSON.stringify({ event: "contact_create_failed", message: String(error) }));
    return { ok: false, status: 500, error: CONTACT_MESSAGES.addFailed, fieldErrors: {} };
  }
}
