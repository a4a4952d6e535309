// Webhook signatures in the Svix scheme (what the e-mail provider signs its events with): the headers svix-id,
// svix-timestamp (seconds) and svix-signature ("v1,<base64>", several space-separated while a secret rotates); the
// signature is HMAC-SHA256 over `${id}.${timestamp}.${body}` with the secret's bytes (base64 after "whsec_").

/** A timestamp further than this from now is refused, so a captured request cannot be replayed later. */
export const SVIX_TOLERANCE_SECONDS = 5 * 60;

export interface SvixHeaders {
  id: string | null;
  timestamp: string | null;
  signature: string | null;
}

function fromBase64(value: string): Uint8Array<ArrayBuffer> | null {
  try {
    return Uint8Array.from(atob(value), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Whether `body` was signed with `secret` within the tolerance of `now` (ms). Never throws. */
export async function verifySvix(secret: string, headers: SvixHeaders, body: string, now = Date.now()): Promise<boolean> {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > SVIX_TOLERANCE_SECONDS) return false;
  const keyBytes = fromBase64(secret.replace(/^whsec_/, ""));
  if (!keyBytes || keyBytes.length === 0) return false;
  const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const part of signature.split(" ")) {
    const [version, value] = part.split(",");
    if (version !== "v1" || !value) continue;
    const bytes = fromBase64(value);
    // crypto.subtle.verify compares in constant time.
    if (bytes && (await crypto.subtle.verify("HMAC", key, bytes, signed))) return true;
  }
  return false;
}
