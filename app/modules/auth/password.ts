import { base64url, fromBase64url, timingSafeEqual } from "~/lib/crypto";

// Cloudflare Workers in production reject PBKDF2 above 100,000 iterations (local workerd does not),
// so this is both the target and the ceiling. The count is stored in each hash so it can change later.
export const PBKDF2_ITERATIONS = 100_000;
const PBKDF2_MAX_ITERATIONS = 100_000;
const ALGORITHM = "pbkdf2_sha256";
const SALT_BYTES = 16;
const KEY_BITS = 256;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  if (iterations > PBKDF2_MAX_ITERATIONS) {
    throw new Error(`PBKDF2 iterations ${iterations} exceed the Workers limit of ${PBKDF2_MAX_ITERATIONS}`);
  }
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BITS);
  return new Uint8Array(bits);
}

/** Format: pbkdf2_sha256$<iterations>$<salt>$<hash>, salt and hash base64url. */
export async function hashPassword(password: string, iterations = PBKDF2_ITERATIONS): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return `${ALGORITHM}$${iterations}$${base64url(salt)}$${base64url(hash)}`;
}

export function parsePasswordHash(stored: string) {
  const [algorithm, iterations, salt, hash] = stored.split("$");
  if (algorithm !== ALGORITHM || !iterations || !salt || !hash) return null;
  const count = Number(iterations);
  if (!Number.isInteger(count) || count < 1) return null;
  return { iterations: count, salt: fromBase64url(salt), hash: fromBase64url(hash) };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations);
  return timingSafeEqual(candidate, parsed.hash);
}

// Used when no account matches, so a sign-in for an unknown e-mail costs the same time as a real one.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword("porchlight-timing-equaliser");
  return dummyHash;
}
