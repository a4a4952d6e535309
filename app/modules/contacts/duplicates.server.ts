import { eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { contacts, crmActivities, crmTasks, deals, type Contact } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { PossibleDuplicate } from "./contacts.messages";

// The duplicate finder: contacts of one user that share an e-mail (case-insensitive) or a phone number
// (digits only), and a merge that keeps the richer record. The same keys warn before a contact is saved with an
// e-mail or phone another contact has (possibleDuplicates).

/** A phone number as duplicates are matched: its digits, the separators and + dropped (contacts_user_phone_digits indexes it). */
const digits = (value: SQL | AnySQLiteColumn) =>
  sql`replace(replace(replace(replace(replace(replace(${value}, '-', ''), ' ', ''), '(', ''), ')', ''), '.', ''), '+', '')`;
const phoneDigits = digits(contacts.phone);
/** Fewer digits than this is not a phone number to match on (an extension, a typo). */
const MIN_PHONE_DIGITS = 7;
/** The same keys in the browser's terms, to tell whether an edit changed them. */
const emailKey = (email: string | null | undefined) => email?.trim().toLowerCase() || null;
const phoneKey = (phone: string | null | undefined) => {
  const key = phone?.replace(/[- ().+]/g, "") ?? "";
  return key.length >= MIN_PHONE_DIGITS ? key : null;
};

/**
 * Oldest first, sorted after the lookup: as plain columns SQLite would walk the agent's contacts by contacts_user_created
 * to skip the sort, reading every contact (100,001 rows a check on the bench's large account); `+` leaves the order to
 * a sort of the few matches, so the lookup goes through contacts_user_email or contacts_user_phone_digits.
 */
const OLDEST_FIRST = [sql`+${contacts.createdAt}`, sql`+${contacts.id}`] as const;

/**
 * The user's other contacts with the e-mail (case-insensitive) or the phone digits of `input`, the oldest first (at most
 * `limit`), for the warning before a save. With `previous` (an edit), only a changed e-mail or phone is checked, so a
 * contact that was a duplicate already is not warned about on every save. Two indexed reads in one batch.
 */
export async function possibleDuplicates(
  context: Pick<RequestContext, "db">,
  userId: UserId,
  input: { email?: string | null; phone?: string | null },
  options: { exceptId?: string; previous?: { email: string | null; phone: string | null }; limit?: number } = {},
): Promise<PossibleDuplicate[]> {
  const email = emailKey(input.email);
  const phone = phoneKey(input.phone);
  const checkEmail = email !== null && email !== emailKey(options.previous?.email);
  const checkPhone = phone !== null && phone !== phoneKey(options.previous?.phone);
  if (!checkEmail && !checkPhone) return [];
  const limit = options.limit ?? 3;
  const others = options.exceptId ? ne(contacts.id, options.exceptId) : undefined;
  const columns = { id: contacts.id, name: contacts.name, email: contacts.email, phone: contacts.phone };
  const byEmail = context.db
    .select(columns)
    .from(contacts)
    .where(ownedBy(contacts, userId, sql`lower(${contacts.email}) = ${checkEmail ? email : null}`, others))
    .orderBy(...OLDEST_FIRST)
    .limit(limit);
  const byPhone = context.db
    .select(columns)
    .from(contacts)
    .where(ownedBy(contacts, userId, sql`${phoneDigits} = ${digits(sql`${checkPhone ? input.phone : null}`)}`, others))
    .orderBy(...OLDEST_FIRST)
    .limit(limit);
  const [emailRows, phoneRows] = await context.db.batch([byEmail, byPhone]);
  const found = new Map<string, PossibleDuplicate>();
  for (const row of emailRows) found.set(row.id, { ...row, reason: "email" });
  for (const row of phoneRows) if (!found.has(row.id)) found.set(row.id, { ...row, reason: "phone" });
  return [...found.values()].slice(0, limit);
}

export interface DuplicateGroup {
  reason: "email" | "phone";
  key: string;
  contacts: Contact[];
}

/** Up to `limit` groups of the user's contacts that share an e-mail or a phone number. */
export async function findDuplicates(context: RequestContext, userId: UserId, limit = 50): Promise<DuplicateGroup[]> {
  const [byEmail, byPhone] = await Promise.all([
    context.db
      .select({ key: sql<string>`lower(${contacts.email})`, ids: sql<string>`group_concat(${contacts.id})` })
      .from(contacts)
      .where(ownedBy(contacts, userId, sql`${contacts.email} is not null`))
      .groupBy(sql`lower(${contacts.email})`)
      .having(sql`count(*) > 1`)
      .limit(limit),
    context.db
      .select({ key: sql<string>`${phoneDigits}`, ids: sql<string>`group_concat(${contacts.id})` })
      .from(contacts)
      .where(ownedBy(contacts, userId, sql`length(${phoneDigits}) >= ${MIN_PHONE_DIGITS}`))
      .groupBy(phoneDigits)
      .having(sql`count(*) > 1`)
      .limit(limit),
  ]);
  const groups = [
    ...byEmail.map((g) => ({ reason: "email" as const, key: g.key, ids: g.ids.split(",") })),
    ...byPhone.map((g) => ({ reason: "phone" as const, key: g.key, ids: g.ids.split(",") })),
  ];
  // A pair found by both e-mail and phone is shown once.
  const seen = new Set<string>();
  const unique = groups
    .filter((g) => {
      const signature = [...g.ids].sort().join(",");
      if (seen.has(signature)) return false;
      seen.add(signature);
      return true;
    })
    .slice(0, limit);
  const ids = [...new Set(unique.flatMap((g) => g.ids))];
  const rows: Contact[] = [];
  for (let i = 0; i < ids.length; i += 90)
    rows.push(
      ...(await context.db
        .select()
        .from(contacts)
        .where(ownedBy(contacts, userId, inArray(contacts.id, ids.slice(i, i + 90))))),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.map((g) => ({ reason: g.reason, key: g.key, contacts: g.ids.map((id) => byId.get(id)).filter((c): c is Contact => Boolean(c)) }));
}

const MERGED_FIELDS = ["phone", "email", "budgetMin", "budgetMax", "bedrooms", "bathrooms", "location", "company", "address", "timeline"] as const;

/** What the kept contact becomes: its own values first, gaps filled from the others, tags and notes united. */
function mergedValues(primary: Contact, others: Contact[]): Partial<Contact> {
  const merged: Partial<Contact> = {};
  for (const field of MERGED_FIELDS) {
    if (primary[field] == null) {
      const value = others.find((other) => other[field] != null)?.[field];
      if (value != null) (merged as Record<string, unknown>)[field] = value;
    }
  }
  const tags = [...primary.tags];
  for (const tag of others.flatMap((other) => other.tags)) if (!tags.some((t) => t.toLowerCase() === tag.toLowerCase())) tags.push(tag);
  merged.tags = tags;
  const notes = [primary.notes, ...others.map((other) => other.notes)].filter((note): note is string => Boolean(note?.trim()));
  merged.notes = notes.length ? [...new Set(notes)].join("\n\n") : null;
  // "Other" says nothing about where a contact came from: a merged record that knows more keeps it.
  if (primary.source === "other") {
    const informative = others.find((other) => other.source !== "other");
    if (informative) merged.source = informative.source;
  }
  merged.lastActivity = new Date(Math.max(primary.lastActivity.getTime(), ...others.map((o) => o.lastActivity.getTime())));
  merged.createdAt = new Date(Math.min(primary.createdAt.getTime(), ...others.map((o) => o.createdAt.getTime())));
  return merged;
}

/**
 * Merges `otherIds` into `primaryId`: one D1 batch updates the kept contact and deletes the rest. Every id
 * must be the user's own; otherwise nothing changes and null comes back.
 */
export async function mergeContacts(context: RequestContext, userId: UserId, primaryId: string, otherIds: string[]): Promise<Contact | null> {
  const ids = [...new Set([primaryId, ...otherIds])];
  if (ids.length < 2 || ids.length > 20) return null;
  const rows = await context.db
    .select()
    .from(contacts)
    .where(ownedBy(contacts, userId, inArray(contacts.id, ids)));
  const primary = rows.find((row) => row.id === primaryId);
  if (!primary || rows.length !== ids.length) return null;
  const others = rows.filter((row) => row.id !== primaryId);
  const values = mergedValues(primary, others);
  const otherIdList = others.map((o) => o.id);
  // The merged contacts' deals, tasks and activities move to the kept one before the others are deleted.
  const [updated] = await context.db.batch([
    context.db
      .update(contacts)
      .set({ ...values, updatedAt: new Date() })
      .where(ownedBy(contacts, userId, eq(contacts.id, primaryId)))
      .returning(),
    context.db
      .update(deals)
      .set({ contactId: primaryId })
      .where(ownedBy(deals, userId, inArray(deals.contactId, otherIdList))),
    context.db
      .update(crmTasks)
      .set({ contactId: primaryId })
      .where(ownedBy(crmTasks, userId, inArray(crmTasks.contactId, otherIdList))),
    context.db
      .update(crmActivities)
      .set({ contactId: primaryId })
      .where(ownedBy(crmActivities, userId, inArray(crmActivities.contactId, otherIdList))),
    context.db.delete(contacts).where(ownedBy(contacts, userId, inArray(contacts.id, otherIdList))),
  ]);
  return updated[0] ?? null;
}
