import { and, asc, eq, sql } from "drizzle-orm";
import { contacts, deals } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { listContacts } from "~/modules/contacts/contacts.server";
import { ftsQuery } from "~/modules/contacts/search";
import { stageByKey } from "~/modules/pipeline/stages";
import { getStages } from "~/modules/pipeline/stages.server";
import {
  PALETTE_QUERY_MAX,
  PALETTE_RESULT_LIMIT,
  PICKER_RESULT_LIMIT,
  type PaletteDeal,
  type PaletteSearchResult,
  type PickerSearchResult,
} from "./search";

/** What the user typed as a literal LIKE pattern piece: %, _ and the escape character itself match only themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The user's deals whose title contains `q` (case-insensitive for ASCII), titles starting with it first.
 * A contains-match cannot use an index on the title; the user_id condition keeps the scan to the user's
 * own deals (the deals_user_* indexes lead with user_id).
 */
async function searchDeals(context: RequestContext, userId: UserId, q: string, limit = PALETTE_RESULT_LIMIT): Promise<PaletteDeal[]> {
  const term = escapeLike(q.trim());
  if (!term) return [];
  const [rows, stages] = await Promise.all([
    context.db
      .select({ id: deals.id, title: deals.title, stage: deals.stage, contactName: contacts.name })
      .from(deals)
      // The join repeats the owner test, so only the owner's contact can show.
      .leftJoin(contacts, and(eq(contacts.id, deals.contactId), eq(contacts.userId, userId)))
      .where(ownedBy(deals, userId, sql`${deals.title} like ${`%${term}%`} escape ${"\\"}`))
      .orderBy(sql`${deals.title} like ${`${term}%`} escape ${"\\"} desc`, sql`${deals.title} collate nocase`, asc(deals.id))
      .limit(limit),
    getStages(context, userId),
  ]);
  return rows.map((row) => ({ ...row, stage: stageByKey(stages, row.stage)?.name ?? row.stage }));
}

/** The command palette's search: the user's contacts (full-text, as the contact list searches) and deals by title. */
export async function paletteSearch(context: RequestContext, userId: UserId, q: string): Promise<PaletteSearchResult> {
  // Nothing searchable (only punctuation, say) finds no contacts, rather than listContacts' unfiltered page.
  const [page, dealRows] = await Promise.all([
    ftsQuery(q) ? listContacts(context, userId, { filters: { search: q }, sort: "name", limit: PALETTE_RESULT_LIMIT }) : null,
    searchDeals(context, userId, q),
  ]);
  return {
    contacts: (page?.contacts ?? []).map((contact) => ({ id: contact.id, name: contact.name, detail: contact.email ?? contact.phone })),
    deals: dealRows,
  };
}

/**
 * The contact pickers' search (the deal, task and activity dialogs): up to PICKER_RESULT_LIMIT of the user's
 * contacts matching q (full-text, as the list searches), by name; an empty q gives the most recent contacts. A q
 * longer than the palette takes is cut, not refused: a picker shows what it can.
 */
export async function pickerSearch(context: RequestContext, userId: UserId, text: string): Promise<PickerSearchResult> {
  const q = text.slice(0, PALETTE_QUERY_MAX);
  const page = await listContacts(context, userId, {
    filters: q.trim() ? { search: q } : {},
    sort: q.trim() ? "name" : "newest",
    limit: PICKER_RESULT_LIMIT,
  });
  return { contacts: page.contacts.map((contact) => ({ id: contact.id, name: contact.name, detail: contact.email ?? contact.phone })) };
}
