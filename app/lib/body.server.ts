// The one way actions and API handlers read a request body (ADR 0021). `request.formData()` and
// `request.json()` throw on a body they cannot read (JSON sent to a form, no Content-Type, multipart without a
// boundary, another charset, bytes that are not UTF-8), and an unguarded throw is a 500. These helpers answer
// such a body with a clear 4xx instead, thrown as a Response: Remix sends a thrown Response as the answer, and
// the /api app does the same (workers/api/index.ts).

/** Forms are small (a contact's notes are at most 10,000 characters); anything far larger is not a form of ours. */
export const FORM_MAX_BYTES = 1_000_000;
const JSON_MAX_BYTES = 1_000_000;

const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

type Kind = "form" | "json";
type ReadOptions = { maxBytes: number; tooLargeMessage?: string };

/** A 4xx in the shape the caller speaks: JSON `{ ok: false, error }` for JSON endpoints, plain text for forms. */
function refusal(kind: Kind, status: 400 | 413 | 415, message: string): Response {
  if (kind === "json") return Response.json({ ok: false, error: message }, { status });
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

/** The media type (lower case) and its parameters, or null when the header is missing or empty. */
function contentType(request: Request): { type: string; params: Map<string, string> } | null {
  const header = request.headers.get("Content-Type");
  if (!header) return null;
  const [type = "", ...rest] = header.split(";");
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq > 0)
      params.set(
        part.slice(0, eq).trim().toLowerCase(),
        part
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, "$1"),
      );
  }
  return type.trim() ? { type: type.trim().toLowerCase(), params } : null;
}

function isUtf8(charset: string | undefined) {
  return charset === undefined || /^utf-?8$/i.test(charset);
}

/** The body's bytes, refusing more than `maxBytes` (by Content-Length first, then while reading). */
async function readBytes(request: Request, kind: Kind, { maxBytes, tooLargeMessage }: ReadOptions): Promise<Uint8Array<ArrayBuffer>> {
  const tooLarge = () =>
    refusal(kind, 413, tooLargeMessage ?? `The request is too large: send at most ${(maxBytes / 1_000_000).toLocaleString("en-US")} MB.`);
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  if (!request.body) return new Uint8Array(new ArrayBuffer(0));
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = request.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge();
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof Response) throw error;
    throw refusal(kind, 400, "The request body could not be read.");
  }
  const bytes = new Uint8Array(new ArrayBuffer(total));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The request's form fields. A body that is not a UTF-8 web form answers 415, an unreadable one 400, one over
 * `maxBytes` 413 (each a thrown Response with a sentence saying why).
 */
export async function readForm(request: Request, options: Partial<ReadOptions> = {}): Promise<FormData> {
  const type = contentType(request);
  if (!type || !FORM_TYPES.has(type.type)) {
    throw refusal("form", 415, "This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).");
  }
  if (!isUtf8(type.params.get("charset"))) throw refusal("form", 415, "This form must be sent in UTF-8.");
  if (type.type === "multipart/form-data" && !type.params.get("boundary"))
    throw refusal("form", 400, "The form could not be read: its multipart body has no boundary.");
  const bytes = await readBytes(request, "form", { maxBytes: FORM_MAX_BYTES, ...options });
  try {
    return await new Response(bytes, { headers: { "Content-Type": request.headers.get("Content-Type")! } }).formData();
  } catch {
    throw refusal("form", 400, "The form could not be read.");
  }
}

/**
 * The request's JSON value (not yet validated: pass it to a zod schema). A body that is not UTF-8 JSON answers
 * 415, malformed JSON 400, one over `maxBytes` 413, each as `{ ok: false, error }`.
 */
export async function readJson(request: Request, options: Partial<ReadOptions> = {}): Promise<unknown> {
  const type = contentType(request);
  if (!type || !(type.type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type.type))) {
    throw refusal("json", 415, "Send JSON (Content-Type: application/json).");
  }
  if (!isUtf8(type.params.get("charset"))) throw refusal("json", 415, "Send JSON in UTF-8.");
  const bytes = await readBytes(request, "json", { maxBytes: JSON_MAX_BYTES, ...options });
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw refusal("json", 400, "The request body is not valid UTF-8.");
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refusal("json", 400, "The request body is not valid JSON.");
  }
}
