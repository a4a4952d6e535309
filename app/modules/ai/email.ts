/**
 * Drafted e-mails start with a "Subject: …" line. These helpers split that off and build a mailto: link, in
 * the browser as on the server. No imports.
 */

// "Subject: x", also as models sometimes write it: "**Subject:** x", "subject - x" is not accepted (too loose).
const SUBJECT_LINE = /^\s*(?:\*\*|__)?subject\s*:\s*(?:\*\*|__)?\s*(.*?)\s*(?:\*\*|__)?\s*$/i;

/** The subject (from a first "Subject:" line) and the body after it; without one, subject "" and the text as body. */
export function splitEmail(text: string): { subject: string; body: string } {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const first = lines.findIndex((l) => l.trim() !== "");
  const match = first >= 0 ? SUBJECT_LINE.exec(lines[first] ?? "") : null;
  if (!match) return { subject: "", body: text };
  const body = lines
    .slice(first + 1)
    .join("\n")
    .replace(/^\s*\n/, "")
    .trimEnd();
  return { subject: (match[1] ?? "").replace(/\*\*|__/g, "").trim(), body };
}

/** A mailto: link with the subject and body filled in; `to` may be null or empty (the user picks the address). */
export function mailtoHref(to: string | null, text: string): string {
  const { subject, body } = splitEmail(text);
  const params: string[] = [];
  if (subject) params.push(`subject=${encodeURIComponent(subject)}`);
  // RFC 6068: line breaks in a mailto body are CRLF.
  if (body.trim()) params.push(`body=${encodeURIComponent(body.replace(/\r?\n/g, "\r\n"))}`);
  // "@" may stand as it is in the address part; everything else is encoded.
  const address = to?.trim() ? encodeURIComponent(to.trim()).replace(/%40/g, "@") : "";
  return `mailto:${address}${params.length ? `?${params.join("&")}` : ""}`;
}
