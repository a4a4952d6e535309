// Sentences and lists: cleaning the text that goes into a draft, fitting it to a limit, and the small grammar of
// capitals, full stops, plurals and lists.

export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
export const endSentence = (s: string, mark = ".") => (/[.!?]$/.test(s) ? s : `${s.replace(/[,;:\s-]+$/, "")}${mark}`);

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "a and b", "a, b, and c" (the serial comma, since features often contain "and" themselves). */
export function listWords(items: readonly string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

/** Trims and collapses white space, drops template braces and brackets, caps at `max` on a word boundary. */
export function clean(text: string, max: number): string {
  const flat = text
    .replace(/\{[^{}]*\}\}?/g, " ")
    .replace(/[{}[\]<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? cutAtWord(flat, max) : flat;
}

/**
 * Fits text to a character limit without cutting a word or a sentence: keeps whole sentences from the start
 * while they fit; when even the first does not, cuts it at the last word boundary, drops dangling punctuation
 * and connecting words, and ends it with a full stop. null means no limit.
 */
export function fitToLimit(text: string, limit: number | null): string {
  const trimmed = text.trim();
  if (limit === null || !Number.isFinite(limit) || trimmed.length <= limit) return trimmed;
  if (limit <= 0) return "";
  const sentences = trimmed.match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n+|$)\s*/g) ?? [trimmed];
  let kept = "";
  for (const sentence of sentences) {
    if ((kept + sentence).trimEnd().length > limit) break;
    kept += sentence;
  }
  kept = kept.trimEnd();
  if (kept && /[.!?"')\]]$/.test(kept)) return kept;
  return cutAtWord(trimmed, limit);
}

const DANGLING = /(?:[\s,;:—–(-]+|\s+(?:and|or|with|the|a|an|of|to|in|for|at|on|by|from|plus|&))+$/i;
/** The text cut to at most `max` characters at a word boundary, ending cleanly with a full stop. */
function cutAtWord(text: string, max: number): string {
  if (max <= 1) return text.slice(0, Math.max(0, max));
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  if (space > 0 && /\S/.test(text.charAt(max - 1))) cut = cut.slice(0, space);
  let prev = "";
  while (prev !== cut) {
    prev = cut;
    cut = cut.replace(DANGLING, "").replace(/[.,;:!?—–-]+$/, "");
  }
  return cut ? `${cut}.` : text.slice(0, max - 1).trimEnd() + ".";
}

/** No double spaces, no trailing spaces, no empty bullets, at most one blank line in a row. */
export function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]{2,}/g, " ").replace(/\s+$/, ""))
    .filter((line) => !/^\s*(?:[-*•]|\d+\.)\s*$/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
