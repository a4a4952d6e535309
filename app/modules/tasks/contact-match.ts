// Quick add links the agent's contact a task names: "call Priya tomorrow 3pm" → Priya Shah. Pure rules here;
// the owner-scoped lookup is contact-match.server.ts.

export interface ContactChoice {
  id: string;
  name: string;
}

/** What quick add did about contacts: linked the one clear match, or offers the equally good ones. */
export interface ContactLinkOffer {
  linked: ContactChoice | null;
  candidates: ContactChoice[];
}

// Words of a task title that are the task, not a person: a contact whose name has them is not matched by them.
const NOT_NAMES = new Set(
  (
    "a an and about after at before by call calls check client contact doc docs e email for from get go has have his her " +
    "home house in inspection into listing mail meet meeting message new of on open or offer out paperwork phone re remind " +
    "ring see send sign showing show talk text the their them to tour up update visit with"
  ).split(" "),
);

/** Lower-case words without accents, as the full-text index folds them ("José" → "jose"). */
function foldedWords(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}+/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** The words of a task title that may name a contact (at most 8, at least 2 letters, not task words). */
export function nameWords(title: string): string[] {
  return [...new Set(foldedWords(title).filter((word) => word.length >= 2 && !NOT_NAMES.has(word) && !/^\d+$/.test(word)))].slice(0, 8);
}

/**
 * Ranks contacts by how many words of their name the title has. One best contact is linked; a tie offers
 * the tied ones (at most 5), because guessing between two Priyas would be wrong half the time.
 */
export function rankContactMatches(words: string[], contacts: ContactChoice[]): ContactLinkOffer {
  const wanted = new Set(words);
  const scored = contacts
    .map((contact) => ({ contact, score: new Set(foldedWords(contact.name).filter((word) => wanted.has(word))).size }))
    .filter((entry) => entry.score > 0);
  if (!scored.length) return { linked: null, candidates: [] };
  const best = Math.max(...scored.map((entry) => entry.score));
  const top = scored.filter((entry) => entry.score === best).map((entry) => entry.contact);
  if (top.length === 1) return { linked: top[0]!, candidates: [] };
  return { linked: null, candidates: top.sort((a, b) => a.name.localeCompare(b.name)).slice(0, 5) };
}
