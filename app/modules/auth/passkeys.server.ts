import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { and, desc, eq } from "drizzle-orm";
import { passkeys } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { base64url, fromBase64url } from "~/lib/crypto";
import { ownedBy, type UserId } from "~/lib/tenancy.server";
import { dropRecoveryCodesWhenOff, recoveryCodesIfFirst, type TwoFactorOutcome } from "./two-factor.server";

// Passkeys (WebAuthn) as a second factor (ADR 0074), with @simplewebauthn/server on WebCrypto. The relying party is the
// host the request came to (localhost:<port> in development) and the origin is checked against it. Each ceremony's
// challenge is one-use: kept in KV for 5 minutes, bound to the user (registration) or to the pending sign-in, and
// deleted when read, so an assertion replayed finds no challenge.

const RP_NAME = "Porchlight";
const CHALLENGE_TTL_SECONDS = 5 * 60;
const CEREMONY_TIMEOUT_MS = 2 * 60 * 1000;

interface StoredChallenge {
  challenge: string;
  userId: string;
  expiresAt: number;
}

function relyingParty(request: Request) {
  const url = new URL(request.url);
  return { rpID: url.hostname, origin: url.origin };
}

const challengeKey = (purpose: "register" | "signin", subject: string) => `webauthn:${purpose}:${subject}`;

async function keepChallenge(context: RequestContext, key: string, challenge: string, userId: string) {
  const stored: StoredChallenge = { challenge, userId, expiresAt: Date.now() + CHALLENGE_TTL_SECONDS * 1000 };
  await context.cloudflare.env.KV.put(key, JSON.stringify(stored), { expirationTtl: CHALLENGE_TTL_SECONDS });
}

/** The challenge kept under `key` for `userId`, used up by this read. */
async function takeChallenge(context: RequestContext, key: string, userId: string): Promise<string | null> {
  const kv = context.cloudflare.env.KV;
  const stored = await kv.get<StoredChallenge>(key, "json");
  if (!stored) return null;
  await kv.delete(key);
  return stored.userId === userId && stored.expiresAt > Date.now() ? stored.challenge : null;
}

/** A browser's credential as JSON, only in the shape the library reads (anything else is refused unread). */
function credentialJson<T extends RegistrationResponseJSON | AuthenticationResponseJSON>(value: unknown): T | null {
  const parsed = typeof value === "string" ? safeParse(value) : value;
  if (!parsed || typeof parsed !== "object") return null;
  const c = parsed as Record<string, unknown>;
  const ok = typeof c.id === "string" && typeof c.rawId === "string" && c.type === "public-key" && c.response && typeof c.response === "object";
  return ok ? (parsed as T) : null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export interface PasskeySummary {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  backedUp: boolean;
}

export async function listPasskeys(context: RequestContext, userId: UserId): Promise<PasskeySummary[]> {
  const rows = await context.db
    .select({ id: passkeys.id, name: passkeys.name, createdAt: passkeys.createdAt, lastUsedAt: passkeys.lastUsedAt, backedUp: passkeys.backedUp })
    .from(passkeys)
    .where(ownedBy(passkeys, userId))
    .orderBy(desc(passkeys.createdAt));
  return rows.map((r) => ({ ...r, createdAt: r.createdAt.getTime(), lastUsedAt: r.lastUsedAt?.getTime() ?? null }));
}

/** The options for the browser's navigator.credentials.create(), its challenge kept for the answer. */
export async function passkeyRegistrationOptions(context: RequestContext, request: Request, user: { id: UserId; email: string }) {
  const existing = await context.db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(ownedBy(passkeys, user.id));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: relyingParty(request).rpID,
    userName: user.email,
    userID: new TextEncoder().encode(user.id),
    attestationType: "none",
    timeout: CEREMONY_TIMEOUT_MS,
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports ?? undefined })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await keepChallenge(context, challengeKey("register", user.id), options.challenge, user.id);
  return options;
}

/** Checks the browser's new credential against the kept challenge, this origin and host, and saves it. */
export async function registerPasskey(
  context: RequestContext,
  request: Request,
  userId: UserId,
  name: string,
  answer: unknown,
): Promise<TwoFactorOutcome> {
  const refused: TwoFactorOutcome = { ok: false, field: "form", message: "The passkey could not be added. Try again." };
  const response = credentialJson<RegistrationResponseJSON>(answer);
  if (!response) return refused;
  const challenge = await takeChallenge(context, challengeKey("register", userId), userId);
  if (!challenge) return refused;
  const { rpID, origin } = relyingParty(request);
  const verified = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verified?.verified) return refused;
  const { credential, credentialDeviceType, credentialBackedUp } = verified.registrationInfo;
  const added = await context.db
    .insert(passkeys)
    .values({
      id: credential.id,
      userId,
      name,
      publicKey: base64url(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? null,
      deviceType: credentialDeviceType,
      backedUp: credentialBackedUp,
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  if (added.length === 0) return { ok: false, field: "form", message: "This passkey is added already." };
  return { ok: true, recoveryCodes: await recoveryCodesIfFirst(context, userId) };
}

/** Removes one of the user's passkeys; with no second factor left, two-factor sign-in is off. */
export async function removePasskey(context: RequestContext, userId: UserId, id: string): Promise<boolean> {
  const [gone] = await context.db.batch([
    context.db
      .delete(passkeys)
      .where(ownedBy(passkeys, userId, eq(passkeys.id, id)))
      .returning({ id: passkeys.id }),
    dropRecoveryCodesWhenOff(context, userId),
  ]);
  return gone.length === 1;
}

export async function hasPasskey(context: RequestContext, userId: string): Promise<boolean> {
  return (await context.db.select({ id: passkeys.id }).from(passkeys).where(eq(passkeys.userId, userId)).limit(1).get()) !== undefined;
}

/** The options for navigator.credentials.get() in the second step, or null when the user has no passkey. */
export async function passkeySignInOptions(context: RequestContext, request: Request, pendingKey: string, userId: string) {
  const keys = await context.db.select({ id: passkeys.id, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, userId));
  if (keys.length === 0) return null;
  const options = await generateAuthenticationOptions({
    rpID: relyingParty(request).rpID,
    timeout: CEREMONY_TIMEOUT_MS,
    userVerification: "preferred",
    allowCredentials: keys.map((p) => ({ id: p.id, transports: p.transports ?? undefined })),
  });
  await keepChallenge(context, challengeKey("signin", pendingKey), options.challenge, userId);
  return options;
}

/** Whether the browser's assertion is from one of the user's passkeys, for the kept challenge; records its use. */
export async function verifyPasskeySignIn(
  context: RequestContext,
  request: Request,
  pendingKey: string,
  userId: string,
  answer: unknown,
  now: number,
): Promise<boolean> {
  const response = credentialJson<AuthenticationResponseJSON>(answer);
  const challenge = await takeChallenge(context, challengeKey("signin", pendingKey), userId);
  if (!response || !challenge) return false;
  const key = await context.db
    .select()
    .from(passkeys)
    .where(and(eq(passkeys.userId, userId), eq(passkeys.id, response.id)))
    .get();
  if (!key) return false;
  const { rpID, origin } = relyingParty(request);
  const verified = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
    credential: { id: key.id, publicKey: fromBase64url(key.publicKey), counter: key.counter, transports: key.transports ?? undefined },
  }).catch(() => null);
  if (!verified?.verified) return false;
  // The counter moves on only from the value checked, so a cloned authenticator racing this one fails.
  const updated = await context.db
    .update(passkeys)
    .set({ counter: verified.authenticationInfo.newCounter, backedUp: verified.authenticationInfo.credentialBackedUp, lastUsedAt: new Date(now) })
    .where(and(eq(passkeys.id, key.id), eq(passkeys.counter, key.counter)))
    .returning({ id: passkeys.id });
  return updated.length === 1;
}
