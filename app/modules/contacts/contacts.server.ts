import { and, asc, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { AuditWhere } from "~/modules/audit/audit.server";
import { contacts, contactStatusCounts, contactTagCounts, contactTags, userPreferences, type Contact } from "~/db/schema";
import type { ContactSort, ContactSource, ContactStatus, PropertyType } from "~/db/enums";
import { CONTACT_STATUSES } from "~/db/enums";
import type { Db } from "~/db/client.server";
import type { RequestContext } from "~/lib/context.server";
import { DEFAULT_DISPLAY_PREFERENCES } from "~/lib/format";
import { newId } from "~/lib/crypto";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { moveToTrash, type TrashResult } from "~/modules/trash/trash.server";
import type { ContactInput } from "./contact.schema";
import { newContactScore } from "./lead-score";
import { ftsQuery } from "./search";
import { DEFAULT_CONTACTS_VIEW } from "./view.server";

// Contacts: every read and write starts from ownedBy(contacts, userId). A contact id from the browser
// that belongs to someone else behaves exactly like one that does not exist.

export type { ContactSort };

export interface ContactFilters {
  search?: string;
  status?: ContactStatus;
  source?: ContactSource;
  propertyType?: PropertyType;
  tag?: string;
  budgetMin?: number;
  budgetMax?: number;
  location?: string;
}

const PAGE_SIZE = 25;

/** `id`: a row id chosen by the caller (a change queued offline derives it from its key, so a retry cannot add it twice). */
export async function createContact(
  context: Pick<RequestContext, "db">,
  userId: UserId,
  input: ContactInput,
  id = newId(),
  now = new Date(),
  lead = false,
): Promise<Contact> {
  const [row] = await insertContact(context.db, userId, input, id, now, lead).returning();
  return row!;
}

/**
 * The insert of a new contact, for a caller that runs it inside a batch (a team lead handed to an agent). One instant
 * for the row's times and its first score, which assumes activity "now" (ADR 0020: the app's clock, not SQLite's,
 * stamps rows). `lead`: the contact arrives as a new lead at `now` (contacts.lead_at, figures.server.ts), so the
 * dashboard and Reports count it at once; a team lead is created at the instant it was assigned.
 */
export function insertContact(db: Db, userId: string, input: ContactInput, id: string, now: Date, lead = false) {
  return db.insert(contacts).values({
    ...input,
    id,
    userId,
    createdAt: now,
    updatedAt: now,
    lastActivity: now,
    leadAt: lead ? now : null,
    ...newContactScore(input, now.getTime()),
  });
}

/**
 * A contact that arrives as a new lead (ADR 0032): added one at a time (the Add contact dialog, the phone's queue) or a
 * team lead given to the agent. It is a lead from `now` in the same insert; the caller raises its alert.
 */
export function createLead(
  context: Pick<RequestContext, "db">,
  userId: UserId,
  input: ContactInput,
  id = newId(),
  now = new Date(),
): Promise<Contact> {
  return createContact(context, userId, input, id, now, true);
}

export async function getContact(context: RequestContext, userId: UserId, id: string): Promise<Contact | undefined> {
  return context.db
    .select()
    .from(contacts)
    .where(ownedBy(contacts, userId, eq(contacts.id, id)))
    .get();
}

/** `requires`: a teammate's edit, whose relationship is re-checked by this same statement (false: nothing changes). */
export async function updateContact(
  context: RequestContext,
  userId: UserId,
  id: string,
  patch: Partial<ContactInput>,
  requires?: SQL,
): Promise<Contact | undefined> {
  const [row] = await context.db
    .update(contacts)
    .set({
      ...patch,
      // A new address has not bounced: e-mail may go to it again (the old one's bounce stays on the log).
      ...(patch.email !== undefined
        ? {
            emailBouncedAt: sql`case when coalesce(${contacts.email}, '') = coalesce(${patch.email}, '') then ${contacts.emailBouncedAt} else null end`,
          }
        : {}),
      updatedAt: new Date(),
    })
    .where(ownedBy(contacts, userId, eq(contacts.id, id), requires))
    .returning();
  return row;
}

// D1 allows 100 bound parameters per statement: the owner and a value take two, so 90 ids at a time.
const ID_CHUNK = 90;
const chunks = (ids: string[]) => Array.from({ length: Math.ceil(ids.length / ID_CHUNK) }, (_, i) => ids.slice(i * ID_CHUNK, (i + 1) * ID_CHUNK));

/** The user's contacts among `ids`, in the order asked; others' ids are ignored. */
export async function getContactsByIds(context: RequestContext, userId: UserId, ids: string[]): Promise<Contact[]> {
  const found: Contact[] = [];
  for (const part of chunks(ids))
    found.push(
      ...(await context.db
        .select()
        .from(contacts)
        .where(ownedBy(contacts, userId, inArray(contacts.id, part)))),
    );
  const byId = new Map(found.map((c) => [c.id, c]));
  return ids.map((id) => byId.get(id)).filter((c): c is Contact => Boolean(c));
}

/**
 * Deletes the user's contacts among `ids` (others' ids are ignored): each moves to the trash for 30 days
 * (ADR 0028), remembering the deals, tasks and activities the delete unlinks, so a restore puts it all back.
 * Returns the trash items, for an undo.
 */
export async function trashContacts(context: RequestContext, userId: UserId, ids: string[], where: AuditWhere): Promise<TrashResult> {
  return moveToTrash(context.cloudflare.env.DB, userId, "contact", ids, Date.now(), where);
}

/** Deletes (to the trash) the user's contacts among `ids`; returns how many were deleted. */
export async function deleteContacts(context: RequestContext, userId: UserId, ids: string[], where: AuditWhere): Promise<number> {
  return (await trashContacts(context, userId, ids, where)).moved;
}

/** Bulk: sets the status of the user's contacts among `ids`. */
export async function setStatus(context: RequestContext, userId: UserId, ids: string[], status: ContactStatus): Promise<number> {
  let changed = 0;
  for (const part of chunks(ids)) {
    changed += (
      await context.db
        .update(contacts)
        .set({ status, updatedAt: new Date() })
        .where(ownedBy(contacts, userId, inArray(contacts.id, part)))
        .returning({ id: contacts.id })
    ).length;
  }
  return changed;
}

/** Bulk: adds `tag` to, or removes it (case-insensitively) from, the user's contacts among `ids`. */
export async function changeTag(context: RequestContext, userId: UserId, ids: string[], tag: string, change: "add" | "remove"): Promise<number> {
  const tags =
    change === "add"
      ? sql`case when exists (select 1 from json_each(${contacts.tags}) where lower(value) = lower(${tag})) then ${contacts.tags} else json_insert(${contacts.tags}, '$[#]', ${tag}) end`
      : sql`(select coalesce(json_group_array(value), '[]') from json_each(${contacts.tags}) where lower(value) <> lower(${tag}))`;
  let changed = 0;
  for (const part of chunks(ids)) {
    changed += (
      await context.db
        .update(contacts)
        .set({ tags, updatedAt: new Date() })
        .where(ownedBy(contacts, userId, inArray(contacts.id, part)))
        .returning({ id: contacts.id })
    ).length;
  }
  return changed;
}

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Below this many candidates, a tag or search filter drives the query: its few contacts are fetched by key
 * and sorted. Above it, the list walks its sort index and tests each row, which stops after one page.
 */
const DRIVING_SET_LIMIT = 2_000;

/** How many contacts the tag and the search could match (the search capped just past the limit). */
async function candidateCounts(context: RequestContext, userId: UserId, tag: string | undefined, match: string | null) {
  if (!tag && !match) return { tag: null, search: null };
  const row = await context.db.get<{ tag: number | null; search: number | null }>(sql`select
    ${tag ? sql`(select coalesce(sum(${contactTagCounts.n}), 0) from ${contactTagCounts} where ${contactTagCounts.userId} = ${userId} and ${contactTagCounts.tag} = ${tag} collate nocase)` : sql`null`} as tag,
    ${match ? sql`(select count(*) from (select 1 from contacts_fts where contacts_fts match ${match} limit ${DRIVING_SET_LIMIT + 1}))` : sql`null`} as search`);
  return row ?? { tag: null, search: null };
}

/**
 * The WHERE of a filtered list, always starting from the owner. `drive` names the small candidate set (if
 * any) SQLite should start from: the owner test then gets a unary + (still applied, but no longer an index
 * choice), so the planner looks the candidates up by key instead of walking all the owner's contacts.
 * Measured on the bench's 100,000 contacts (ADR 0013): a 20-contact tag reads 81 rows instead of 100,021.
 */
function filterWhere(userId: UserId, filters: ContactFilters, match: string | null, drive: "tag" | "search" | null): SQL {
  const conditions: (SQL | undefined)[] = [];
  if (match) conditions.push(sql`${contacts.seq} in (select rowid from contacts_fts where contacts_fts match ${match})`);
  if (filters.status) conditions.push(eq(contacts.status, filters.status));
  if (filters.source) conditions.push(eq(contacts.source, filters.source));
  if (filters.propertyType) conditions.push(eq(contacts.propertyType, filters.propertyType));
  if (filters.tag) {
    conditions.push(
      drive === "tag" || drive === "search"
        ? // The tagged ids once, as a set, through the (user_id, tag collate nocase) index of migration 0005.
          sql`${contacts.id} in (select ${contactTags.contactId} from ${contactTags} where ${contactTags.userId} = ${userId} and ${contactTags.tag} = ${filters.tag} collate nocase)`
        : // A common tag: one primary-key probe per row the sort index yields.
          sql`exists (select 1 from ${contactTags} where ${contactTags.contactId} = ${contacts.id} and ${contactTags.tag} = ${filters.tag} collate nocase)`,
    );
  }
  // A budget filter keeps contacts whose range reaches into the asked range.
  if (filters.budgetMin != null) conditions.push(sql`coalesce(${contacts.budgetMax}, ${contacts.budgetMin}) >= ${filters.budgetMin}`);
  if (filters.budgetMax != null) conditions.push(sql`coalesce(${contacts.budgetMin}, ${contacts.budgetMax}) <= ${filters.budgetMax}`);
  if (filters.location) conditions.push(sql`${contacts.location} like ${`%${escapeLike(filters.location.trim())}%`} escape '\\'`);
  return drive ? and(sql`+${contacts.userId} = ${userId}`, ...conditions)! : ownedBy(contacts, userId, ...conditions);
}

// Each sort as its key expression and direction; the id breaks ties so the cursor is exact.
const SORTS: Record<ContactSort, { key: SQL; dir: "asc" | "desc"; read: (c: Contact) => string | number }> = {
  newest: { key: sql`${contacts.createdAt}`, dir: "desc", read: (c) => c.createdAt.getTime() },
  name: { key: sql`${contacts.name} collate nocase`, dir: "asc", read: (c) => c.name },
  activity: { key: sql`${contacts.lastActivity}`, dir: "desc", read: (c) => c.lastActivity.getTime() },
  budget: { key: sql`coalesce(${contacts.budgetMax}, -1)`, dir: "desc", read: (c) => c.budgetMax ?? -1 },
  score: { key: sql`${contacts.leadScore}`, dir: "desc", read: (c) => c.leadScore },
};

type Cursor = { k: string | number; id: string };
const encodeCursor = (cursor: Cursor) => btoa(JSON.stringify(cursor)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function decodeCursor(value: string | undefined): Cursor | null {
  if (!value) return null;
  try {
    const parsed = JSON.parse(atob(value.replace(/-/g, "+").replace(/_/g, "/"))) as Cursor;
    return (typeof parsed.k === "string" || typeof parsed.k === "number") && typeof parsed.id === "string" ? parsed : null;
  } catch {
    return null;
  }
}

export interface ContactPage {
  contacts: Contact[];
  nextCursor: string | null;
}

/** One page of the filtered list in the chosen order, after `cursor` (keyset pagination: no OFFSET scans). */
export async function listContacts(
  context: RequestContext,
  userId: UserId,
  options: {
    filters?: ContactFilters;
    sort?: ContactSort;
    cursor?: string;
    limit?: number;
    /** Tests set it to 0 to check that both query shapes return the same page. */
    drivingSetLimit?: number;
  } = {},
): Promise<ContactPage> {
  const sort = SORTS[options.sort ?? "newest"];
  const limit = Math.min(Math.max(options.limit ?? PAGE_SIZE, 1), 200);
  const filters = options.filters ?? {};
  const match = filters.search ? ftsQuery(filters.search) : null;
  const counts = await candidateCounts(context, userId, filters.tag, match);
  const smallest = [
    { set: "tag" as const, n: counts.tag },
    { set: "search" as const, n: counts.search },
  ]
    .filter((c): c is { set: "tag" | "search"; n: number } => c.n !== null && c.n <= (options.drivingSetLimit ?? DRIVING_SET_LIMIT))
    .sort((a, b) => a.n - b.n)[0];
  const where = [filterWhere(userId, filters, match, smallest?.set ?? null)];
  const cursor = decodeCursor(options.cursor);
  if (cursor) {
    where.push(
      sort.dir === "desc"
        ? sql`(${sort.key} < ${cursor.k} or (${sort.key} = ${cursor.k} and ${contacts.id} < ${cursor.id}))`
        : sql`(${sort.key} > ${cursor.k} or (${sort.key} = ${cursor.k} and ${contacts.id} > ${cursor.id}))`,
    );
  }
  const order = sort.dir === "desc" ? [desc(sort.key), desc(contacts.id)] : [asc(sort.key), asc(contacts.id)];
  const rows = await context.db
    .select()
    .from(contacts)
    .where(and(...where))
    .orderBy(...order)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { contacts: page, nextCursor: rows.length > limit && last ? encodeCursor({ k: sort.read(last), id: last.id }) : null };
}

const statusCountsQuery = (context: RequestContext, userId: UserId) =>
  context.db
    .select({ status: contactStatusCounts.status, count: contactStatusCounts.n })
    .from(contactStatusCounts)
    .where(ownedBy(contactStatusCounts, userId));

function toStatusCounts(rows: { status: ContactStatus; count: number }[]) {
  const counts = Object.fromEntries(CONTACT_STATUSES.map((status) => [status, 0])) as Record<ContactStatus, number>;
  for (const row of rows) counts[row.status] = row.count;
  return { ...counts, all: rows.reduce((sum, row) => sum + row.count, 0) };
}

/**
 * The account's contacts per status and in all, for the status tabs: read from the trigger-kept counters,
 * so it costs the same at 10 or 100,000 contacts. (Counting a filtered view would mean counting every
 * match; the list pages through matches instead.)
 */
export async function countByStatus(context: RequestContext, userId: UserId) {
  return toStatusCounts(await statusCountsQuery(context, userId));
}

const tagsQuery = (context: RequestContext, userId: UserId) =>
  context.db
    .select({ tag: contactTagCounts.tag, count: contactTagCounts.n })
    .from(contactTagCounts)
    .where(ownedBy(contactTagCounts, userId, sql`${contactTagCounts.n} > 0`))
    .orderBy(desc(contactTagCounts.n), asc(contactTagCounts.tag))
    .limit(200);

/** The user's tags with how many contacts carry each, most used first (trigger-kept counters). */
export async function listTags(context: RequestContext, userId: UserId) {
  return tagsQuery(context, userId);
}

/**
 * What the list page shows around the list (status counts, tags, the list's view and the display
 * preferences) in one D1 round trip.
 */
export async function loadListSurroundings(context: RequestContext, userId: UserId) {
  const preferences = context.db
    .select({
      contactsLayout: userPreferences.contactsLayout,
      contactsDensity: userPreferences.contactsDensity,
      contactsDetail: userPreferences.contactsDetail,
      dateFormat: userPreferences.dateFormat,
      timeFormat: userPreferences.timeFormat,
      timezone: userPreferences.timezone,
      currency: userPreferences.currency,
    })
    .from(userPreferences)
    .where(ownedBy(userPreferences, userId));
  const [statusRows, tags, [row]] = await context.db.batch([statusCountsQuery(context, userId), tagsQuery(context, userId), preferences]);
  const { contactsLayout, contactsDensity, contactsDetail, ...prefs } = row ?? { ...DEFAULT_CONTACTS_VIEW, ...DEFAULT_DISPLAY_PREFERENCES };
  return { counts: toStatusCounts(statusRows), tags, view: { contactsLayout, contactsDensity, contactsDetail }, prefs };
}
