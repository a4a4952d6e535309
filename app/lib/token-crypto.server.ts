import { base64url, fromBase64url } from "./crypto";

// Secrets Porchlight must keep but never store in the clear (OAuth tokens to an agent's mailbox): AES-256-GCM through
// WebCrypto with TOKEN_ENCRYPTION_KEY, a fresh random 12-byte IV per value. A value is stored as
// "v1.<iv base64url>.<ciphertext base64url>": the version names the key, so a second key can be added and values
// re-encrypted later without guessing which key made which value (ADR 0069). `purpose` is bound in as associated
// data, so a value copied to another row or column does not decrypt there.

const VERSION = "v1";
const IV_BYTES = 12;
const encoder = new TextEncoder();
const keys = new Map<string, Promise<CryptoKey>>();

export class TokenCryptoError extends Error {
  override name = "TokenCryptoError";
}

function importKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const raw = Uint8Array.from(atob(secret), (c) => c.charCodeAt(0));
    if (raw.length !== 32) throw new TokenCryptoError("TOKEN_ENCRYPTION_KEY must be 32 bytes, base64 encoded.");
    key = crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
    keys.set(secret, key);
  }
  return key;
}

/** Encrypts `plaintext` for storage; `purpose` (e.g. "gmail:<user id>:refresh") must be given again to decrypt. */
export async function encryptToken(secret: string, plaintext: string, purpose: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(purpose) },
    await importKey(secret),
    encoder.encode(plaintext),
  );
  return `${VERSION}.${base64url(iv)}.${base64url(sealed)}`;
}

/** The plaintext of a stored value; throws TokenCryptoError when it is malformed, of another key or purpose, or altered. */
export async function decryptToken(secret: string, stored: string, purpose: string): Promise<string> {
  const [version, iv, sealed, ...rest] = stored.split(".");
  if (version !== VERSION || !iv || !sealed || rest.length > 0) throw new TokenCryptoError("The stored token is not in a known format.");
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: fromBase64url(iv), additionalData: encoder.encode(purpose) },
      await importKey(secret),
      fromBase64url(sealed),
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new TokenCryptoError("The stored token could not be decrypted with TOKEN_ENCRYPTION_KEY.");
  }
}
