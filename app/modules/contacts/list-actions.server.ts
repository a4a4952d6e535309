import { CONTACT_STATUSES } from "~/db/schema";
import type { AuditWhere } from "~/modules/audit/audit.server";
import type { ActionResult } from "~/lib/action-result";
import type { RequestContext } from "~/lib/context.server";
import type { UserId } from "~/modules/auth/session.server";
import { normaliseTags } from "./contact.schema";
import { changeTag, setStatus, trashContacts } from "./contacts.server";
import { ContactsViewSchema, saveContactsView } from "./view.server";

// The contact list's actions on the selected contacts and on its view, each read from the list's form: the
// answer and the HTTP status it goes with (the route sends them as they are).

type Answer<T> = { body: T; status: 200 | 400 | 404 };
type BulkBody = ActionResult<{ changed: number }>;
const refused = (intent: string, error: string) => ({ ok: false as const, intent, error, fieldErrors: {} });

/** The selected contacts' ids (a selection larger than any page is cut, not refused). */
const selectedIds = (form: FormData) => form.getAll("id").map(String).slice(0, 5_000);

/** To the trash (ADR 0028): only the trash ids go back to the browser, for an Undo. */
export async function trashSelected(
  context: RequestContext,
  userId: UserId,
  form: FormData,
  where: AuditWhere,
): Promise<Answer<{ ok: boolean; deleted: number; trashIds: string[] }>> {
  const { moved, trashIds } = await trashContacts(context, userId, selectedIds(form), where);
  return { body: { ok: moved > 0, deleted: moved, trashIds }, status: moved > 0 ? 200 : 404 };
}

export async function setSelectedStatus(context: RequestContext, userId: UserId, form: FormData): Promise<Answer<BulkBody>> {
  const status = CONTACT_STATUSES.find((s) => s === form.get("status"));
  if (!status) return { body: refused("bulk-status", "Choose hot, warm or cold."), status: 400 };
  return { body: { ok: true, intent: "bulk-status", changed: await setStatus(context, userId, selectedIds(form), status) }, status: 200 };
}

export async function tagSelected(context: RequestContext, userId: UserId, form: FormData): Promise<Answer<BulkBody>> {
  const [tag] = normaliseTags(String(form.get("tag") ?? ""));
  const change = form.get("change") === "remove" ? "remove" : "add";
  if (!tag) return { body: refused("bulk-tag", "Type a tag first."), status: 400 };
  return { body: { ok: true, intent: "bulk-tag", changed: await changeTag(context, userId, selectedIds(form), tag, change) }, status: 200 };
}

/** The list's layout, density or detail, as the agent's own view. */
export async function saveViewFromForm(context: RequestContext, userId: UserId, form: FormData): Promise<Answer<ActionResult>> {
  const parsed = ContactsViewSchema.partial().safeParse(Object.fromEntries(form));
  if (!parsed.success) return { body: refused("view", "That view is not one the list has."), status: 400 };
  await saveContactsView(context, userId, parsed.data);
  return { body: { ok: true, intent: "view" }, status: 200 };
}
