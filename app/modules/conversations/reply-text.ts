// A reply's own words: what the contact wrote above the e-mail they answered. Mail programs quote the earlier
// e-mail below an attribution line ("On Mon, 3 Nov 2026 at 10:00, Dana Reyes <dana@…> wrote:", which Gmail wraps
// over two lines) or a separator ("-----Original Message-----", Outlook's "From: …" block under a rule): everything
// from the first of those on is dropped. Lines starting with ">" are quoted wherever they are (an answer written
// between quoted lines keeps its own lines). Pure.

/** The most of a reply's text kept on the log and the timeline. */
const REPLY_TEXT_MAX = 20_000;

const ATTRIBUTION_END = /\bwrote:\s*$/i;
const ATTRIBUTION_START = /^\s*On\s.+/i;
const SEPARATORS = [/^\s*-{2,}\s*Original Message\s*-{2,}\s*$/i, /^\s*_{10,}\s*$/, /^\s*-{2,}\s*Forwarded message\s*-{2,}\s*$/i];

/** The index of the line where the quoted e-mail begins, or the number of lines when nothing is quoted. */
function quoteStart(lines: readonly string[]): number {
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (SEPARATORS.some((separator) => separator.test(line))) return i;
    // "On … wrote:" on one line, or wrapped onto the next one or two.
    if (ATTRIBUTION_START.test(line)) {
      const joined = [line, lines[i + 1] ?? "", lines[i + 2] ?? ""];
      for (let n = 1; n <= 3; n++) if (ATTRIBUTION_END.test(joined.slice(0, n).join(" "))) return i;
    }
  }
  return lines.length;
}

/** The reply's new text: the quoted e-mail and any ">" lines dropped, trailing blank lines trimmed. */
export function replyText(text: string): string {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const own = lines.slice(0, quoteStart(lines)).filter((line) => !/^\s*>/.test(line));
  return own.join("\n").trim().slice(0, REPLY_TEXT_MAX);
}
