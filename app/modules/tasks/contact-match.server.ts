import { sql } from "drizzle-orm";
import { contacts } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { UserId } from "~/modules/auth/session.server";
import { nameWords, rankContactMatches, type ContactLinkOffer } from "./contact-match";

/**
 * The user's contacts whose name has a word of the task title, ranked (contact-match.ts). Whole-word matches
 * through the name column of the full-text index, so "Al" does not find "Alice" and a large book stays fast.
 */
export async function contactMatchesFor(context: RequestContext, userId: UserId, title: string): Promise<ContactLinkOffer> {
  const words = nameWords(title);
  if (!words.length) return { linked: null, candidates: [] };
  // nameWords leaves only letters and digits, so quoting each word makes a query no input can break.
  const match = `name : (${words.map((word) => `"${word}"`).join(" OR ")})`;
  const rows = await context.db
    .select({ id: contacts.id, name: contacts.name })
    .from(contacts)
    .where(ownedBy(contacts, userId, sql`${contacts.seq} in (select rowid from contacts_fts where contacts_fts match ${match})`))
    .limit(50)
    .all();
  return rankContactMatches(words, rows);
}
