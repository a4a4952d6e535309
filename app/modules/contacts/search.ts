/**
 * Turns what a person typed into a safe SQLite FTS5 query: every run of letters or digits becomes a quoted
 * prefix term, all terms must match. Quotes, *, -, parentheses, column filters, NEAR, emoji and any other
 * syntax are dropped, so no input can make the query fail. Returns null when nothing searchable is left.
 */
export function ftsQuery(input: string): string | null {
  const terms = input
    .normalize("NFKC")
    .match(/[\p{L}\p{N}]+/gu)
    ?.slice(0, 8)
    .map((term) => `"${term.slice(0, 64)}"*`);
  return terms && terms.length > 0 ? terms.join(" ") : null;
}
