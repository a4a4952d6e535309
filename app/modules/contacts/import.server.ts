import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { contacts, type NewContact } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { jsonArraysWithin } from "~/lib/utf8";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import type { ContactInput } from "./contact.schema";
import type { ColumnMapping } from "./csv";
import { validateRows, type DuplicateMode, type ImportSummary } from "./import";
import { newContactScore } from "./lead-score";
import { pushImportedLeadsLater } from "~/modules/push/lead-alerts.server";
import { answeredBefore, isUniqueViolation, rememberAnswer } from "~/modules/sync/submissions.server";

// CSV import: every row is mapped and validated first; then all writes go to D1 in one batch,
// which D1 runs as a single transaction, so a failure anywhere leaves no partial import.

/** The file's non-empty values over an existing contact: blanks never erase, tags are united. */
function patchFrom(contact: ContactInput, existingTags: string[]): Partial<NewContact> {
  const patch: Partial<NewContact> = {};
  for (const [key, value] of Object.entries(contact) as [keyof ContactInput, unknown][]) {
    if (key === "tags") continue;
    if (value !== null && value !== undefined && value !== "") (patch as Record<string, unknown>)[key] = value;
  }
  const seen = new Set(existingTags.map((t) => t.toLowerCase()));
  patch.tags = [...existingTags, ...contact.tags.filter((t) => !seen.has(t.toLowerCase()))];
  return patch;
}

// D1 binds at most 100 parameters per statement, so new rows travel as one JSON array bound as a single
// parameter, which SQLite unpacks with json_each. D1 also limits a string or BLOB value (a bound parameter
// included) to 2,000,000 bytes (it was 1,000,000 until 2024, https://developers.cloudflare.com/d1/platform/limits/)
// and a batch runs as one transaction within D1's 30-second query limit. Arrays are therefore cut by their bytes,
// not their rows (ADR 0021): 250 rows of 9,000-character notes made a 2.25 MB value that D1 refused, and the
// whole import answered 500. 500,000 bytes is half the old limit; one contact's JSON stays under 100 KB.
export const INSERT_PAYLOAD_MAX_BYTES = 500_000;
// Each new contact carries its lead score (no activities or deals yet) and the time it was scored (?3).
const INSERT_COLUMNS = [
  "id",
  "name",
  "phone",
  "email",
  "status",
  "budgetMin",
  "budgetMax",
  "propertyType",
  "bedrooms",
  "bathrooms",
  "location",
  "source",
  "tags",
  "company",
  "address",
  "timeline",
  "notes",
] as const;

/** Each new contact as the JSON object insertMany (and alertMany) read, scored as of `now`. */
function insertRowJson(row: NewContact, now: number, newLead: boolean): string {
  const { leadScore, leadScoreFactors } = newContactScore(row, now);
  const values = Object.fromEntries(INSERT_COLUMNS.map((key) => [key, key === "tags" ? JSON.stringify(row.tags ?? []) : (row[key] ?? null)]));
  // json_extract gives an array back as its JSON text, which is how the column stores it.
  return JSON.stringify({ ...values, leadScore, leadScoreFactors, newLead: newLead ? 1 : 0 });
}

/** One INSERT … SELECT over json_each for the contacts in `payload` (a JSON array), always owned by `userId`. */
function insertMany(context: RequestContext, userId: UserId, payload: string, now: number): D1PreparedStatement {
  const columns = [...INSERT_COLUMNS, "leadScore", "leadScoreFactors"] as const;
  const names = columns.map((key) => `"${contacts[key].name}"`).join(", ");
  const values = columns.map((key) => `json_extract(value, '$.${key}')`).join(", ");
  // A row marked New is a lead from the import's instant (contacts.lead_at, figures.server.ts); others are not leads.
  return context.cloudflare.env.DB.prepare(
    `insert into contacts ("user_id", ${names}, "lead_scored_at", "lead_at") select ?1, ${values}, ?3, case when json_extract(value, '$.newLead') = 1 then ?3 end from json_each(?2)`,
  ).bind(userId, payload, now);
}

/**
 * The new-lead alerts (ADR 0032) of the contacts in `payload` marked New, written in the same batch as the
 * contacts, so an import is alerted whole or not at all. They arrive at the import's time.
 */
function alertMany(context: RequestContext, userId: UserId, payload: string, now: number): D1PreparedStatement {
  return context.cloudflare.env.DB.prepare(
    `insert into lead_alerts ("contact_id", "user_id", "arrived_at") select json_extract(value, '$.id'), ?1, ?3 from json_each(?2) where json_extract(value, '$.newLead') = 1`,
  ).bind(userId, payload, now);
}

/** A drizzle query as a D1 statement, to share one D1 batch (one transaction) with raw statements. */
function prepared(context: RequestContext, query: { toSQL(): { sql: string; params: unknown[] } }): D1PreparedStatement {
  const { sql: text, params } = query.toSQL();
  return context.cloudflare.env.DB.prepare(text).bind(...params);
}

/** Rejected rows kept with a stored answer: a retry is answered with the counts and the first of them. */
const STORED_REJECTED_ROWS = 500;

/**
 * Imports the file's rows. With a submission key (the import screen sends one, ADR 0051), the answer is stored in the
 * import's own batch: a retry of the same import (a slow answer, a reload) finds it and gets it back, and one racing
 * the first fails as a whole on the key and is answered with the first's summary. Nothing is imported twice.
 */
export async function importContacts(
  context: RequestContext,
  userId: UserId,
  file: { rows: string[][]; mapping: ColumnMapping; mode: DuplicateMode },
  key: string | null = null,
): Promise<ImportSummary> {
  const stored = key ? `import:${key}` : null;
  const replay = async () => (stored ? ((await answeredBefore<{ summary: ImportSummary }>(context, userId, stored))?.summary ?? null) : null);
  const before = await replay();
  if (before) return before;
  const { valid, rejected } = validateRows(file.rows, file.mapping);

  // Existing contacts with the file's e-mails (case-insensitive), looked up 90 at a time.
  const emails = [...new Set(valid.map((row) => row.contact.email).filter((e): e is string => Boolean(e)))];
  const existing = new Map<string, { id: string; tags: string[] }>();
  if (file.mode !== "create" && emails.length > 0) {
    // 90 e-mails per statement (D1's 100-parameter limit), all statements in one round trip.
    const lookups = [];
    for (let i = 0; i < emails.length; i += 90) {
      lookups.push(
        context.db
          .select({ id: contacts.id, email: contacts.email, tags: contacts.tags })
          .from(contacts)
          .where(ownedBy(contacts, userId, inArray(sql`lower(${contacts.email})`, emails.slice(i, i + 90)))),
      );
    }
    const results = await context.db.batch(lookups as [(typeof lookups)[number], ...(typeof lookups)[number][]]);
    for (const row of results.flat())
      if (row.email && !existing.has(row.email.toLowerCase())) existing.set(row.email.toLowerCase(), { id: row.id, tags: row.tags });
  }

  const inserts: NewContact[] = [];
  // Created rows marked New (a later row for the same person can mark it too).
  const newLeads = new Set<NewContact>();
  const pendingByEmail = new Map<string, NewContact>();
  const updates = new Map<string, Partial<NewContact>>();
  let skipped = 0;
  for (const { contact, newLead } of valid) {
    const email = contact.email?.toLowerCase();
    const match = email ? existing.get(email) : undefined;
    const pending = email ? pendingByEmail.get(email) : undefined;
    if (file.mode === "create" || (!match && !pending)) {
      const row: NewContact = { ...contact, id: newId(), userId };
      inserts.push(row);
      if (newLead) newLeads.add(row);
      if (email && file.mode !== "create") pendingByEmail.set(email, row);
    } else if (file.mode === "skip") {
      skipped += 1;
    } else if (match) {
      const before = updates.get(match.id);
      const patch = patchFrom(contact, (before?.tags as string[] | undefined) ?? match.tags);
      updates.set(match.id, { ...before, ...patch });
    } else if (pending) {
      // The same person twice in the file: the later row fills in and overrides the earlier one.
      Object.assign(pending, patchFrom(contact, pending.tags ?? []));
      if (newLead) newLeads.add(pending);
    }
  }

  const statements: D1PreparedStatement[] = [];
  const now = new Date();
  const payloads = jsonArraysWithin(
    inserts.map((row) => insertRowJson(row, now.getTime(), newLeads.has(row))),
    INSERT_PAYLOAD_MAX_BYTES,
  );
  for (const payload of payloads) {
    statements.push(insertMany(context, userId, payload, now.getTime()));
    if (newLeads.size > 0) statements.push(alertMany(context, userId, payload, now.getTime()));
  }
  for (const [id, patch] of updates) {
    statements.push(
      prepared(
        context,
        context.db
          .update(contacts)
          .set({ ...patch, updatedAt: now })
          .where(and(ownedBy(contacts, userId), eq(contacts.id, id)) as SQL),
      ),
    );
  }
  const leads = [...newLeads].map((row) => ({ id: row.id!, name: row.name, phone: row.phone ?? null, email: row.email ?? null }));
  const summary: ImportSummary = { created: inserts.length, updated: updates.size, skipped, newLeads: leads.length, rejected };
  if (statements.length > 0) {
    if (stored)
      statements.unshift(
        prepared(
          context,
          rememberAnswer(context, userId, stored, { summary: { ...summary, rejected: rejected.slice(0, STORED_REJECTED_ROWS) } }, now.getTime()),
        ),
      );
    try {
      await context.cloudflare.env.DB.batch(statements);
    } catch (error) {
      // The same import went in first (its key is taken): answer as it was answered.
      const first = isUniqueViolation(error) ? await replay() : null;
      if (first) return first;
      throw error;
    }
  }
  pushImportedLeadsLater(context, userId, leads, now.getTime());
  return summary;
}
