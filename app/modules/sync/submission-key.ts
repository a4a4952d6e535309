// Submission keys (ADR 0051): every create a form or a JSON call makes carries a key the browser made, so a retry, after a
// slow answer, a reload or a lost connection, is answered with the first result instead of creating twice. The server
// applies a key once, as it applies the offline queue's changes (queued-changes.server.ts, ADR 0031), in
// submissions.server.ts. Here: the key's shape, and how the browser keeps one across a reload. Browser-safe.

/** The hidden field a form sends its key in. */
export const SUBMISSION_KEY_FIELD = "submissionKey";
/** The header a JSON call sends its key in. */
export const SUBMISSION_KEY_HEADER = "Idempotency-Key";
/** The offline queue's key shape (queued-changes.schema.ts), so one reader serves both. */
export const SUBMISSION_KEY_PATTERN = /^[A-Za-z0-9_-]{8,80}$/;
export const SUBMISSION_KEY_MESSAGE = "This form could not be sent as it was. Reload the page and try again.";

const STORE_PREFIX = "porchlight-submission:";

/** FNV-1a over the text, twice with different seeds: a short, stable fingerprint (never sent, never a secret). */
function fingerprint(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193) >>> 0;
  }
  return `${a.toString(36)}${b.toString(36)}`;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === "undefined" ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * The key for sending `content` from the form called `name`: the key of the submission still waiting for its answer
 * when it was this same content (a retry, a reload of the page and the same form sent again), else a new one. Kept in
 * sessionStorage, so it lives as long as the tab and leaves with it. Different content is a different submission.
 */
export function submissionKey(name: string, content: string): string {
  const store = storage();
  const print = fingerprint(content);
  try {
    const waiting = JSON.parse(store?.getItem(STORE_PREFIX + name) ?? "null") as { key?: unknown; print?: unknown } | null;
    if (waiting && waiting.print === print && typeof waiting.key === "string" && SUBMISSION_KEY_PATTERN.test(waiting.key)) return waiting.key;
  } catch {
    // An unreadable entry is replaced below.
  }
  const key = crypto.randomUUID();
  try {
    store?.setItem(STORE_PREFIX + name, JSON.stringify({ key, print }));
  } catch {
    // Storage full or refused: the key still protects this page's own retries.
  }
  return key;
}

/** The form's submission got its answer (whatever it was): the next one is a new submission. */
export function settleSubmission(name: string): void {
  try {
    storage()?.removeItem(STORE_PREFIX + name);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

/** A form's fields as text, for the fingerprint, leaving out the key itself and fields that change on their own. */
export function formContent(form: HTMLFormElement, ignore: readonly string[] = []): string {
  const skip = new Set([SUBMISSION_KEY_FIELD, ...ignore]);
  return JSON.stringify(
    [...new FormData(form).entries()]
      .filter(([name]) => !skip.has(name))
      .map(([name, value]) => [name, typeof value === "string" ? value : value.name]),
  );
}
