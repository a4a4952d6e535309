import { and, count, eq, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { renderSVG } from "uqr";
import { passkeys, recoveryCodes, totpAuthenticators, users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId, sha256 } from "~/lib/crypto";
import { ownedBy, type UserId } from "~/lib/tenancy.server";
import { decryptToken, encryptToken } from "~/lib/token-crypto.server";
import { matchTotp, TOTP_SECRET_BYTES, totpSecretGroups, totpUri } from "./totp";

// The second factors besides passkeys (ADR 0074): the authenticator app's secret (encrypted with TOKEN_ENCRYPTION_KEY,
// bound to its owner) and one-use recovery codes (stored hashed). Two-factor sign-in is on while the agent has a
// confirmed authenticator or a passkey; recovery codes are made when it comes on and removed when it goes off.

/** The associated data the stored secret is bound to: its owner and its kind. */
const secretPurpose = (userId: string) => `totp:${userId}:secret`;

const RECOVERY_CODE_COUNT = 10;
// No 0/o, 1/l/i: codes are read off paper.
const RECOVERY_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/** "abcde-23456": ten characters of the alphabet (about 49 bits), hyphen and spaces optional when typed. */
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{5}-?[a-z2-9]{5}$/;

export const normalizeRecoveryCode = (typed: string) => typed.trim().toLowerCase().replace(/\s+/g, "");

function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  // 31 letters: a byte's rejection would be exact; the remainder's bias (256 % 31) is far below a guess's odds.
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]!).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const hashRecoveryCode = (code: string) => sha256(`recovery:${normalizeRecoveryCode(code).replace("-", "")}`);

function encryptionKey(context: RequestContext): string | null {
  return context.config.TOKEN_ENCRYPTION_KEY ?? null;
}

/** SQL: the user has a second factor (a confirmed authenticator or a passkey). */
function hasFactorSql(userId: string) {
  return sql`(exists (select 1 from ${totpAuthenticators} where ${totpAuthenticators.userId} = ${userId} and ${totpAuthenticators.confirmedAt} is not null)
    or exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId}))`;
}

/** Whether two-factor sign-in is on for the user. */
export async function hasSecondFactor(context: RequestContext, userId: string): Promise<boolean> {
  const row = await context.db
    .select({ on: sql<number>`${hasFactorSql(userId)}` })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  return Boolean(row?.on);
}

/** The statement that removes the recovery codes once the user has no second factor left (for the same batch). */
export function dropRecoveryCodesWhenOff(context: RequestContext, userId: UserId) {
  return context.db.delete(recoveryCodes).where(and(eq(recoveryCodes.userId, userId), sql`not ${hasFactorSql(userId)}`));
}

/** A fresh set of recovery codes in place of the old (shown once: only their hashes are kept). */
export async function replaceRecoveryCodes(context: RequestContext, userId: UserId): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const rows = await Promise.all(codes.map(async (code) => ({ id: newId(), userId, codeHash: await hashRecoveryCode(code) })));
  await context.db.batch([context.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId)), context.db.insert(recoveryCodes).values(rows)]);
  return codes;
}

/** Recovery codes when two-factor sign-in has just come on (the user has none yet), else null. */
export async function recoveryCodesIfFirst(context: RequestContext, userId: UserId): Promise<string[] | null> {
  const existing = await context.db.select({ n: count() }).from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).get();
  return existing && existing.n > 0 ? null : replaceRecoveryCodes(context, userId);
}

/** Uses a recovery code up; false for a wrong or used one. The conditional update lets a code through once. */
export async function spendRecoveryCode(context: RequestContext, userId: string, typed: string, now: number): Promise<boolean> {
  const used = await context.db
    .update(recoveryCodes)
    .set({ usedAt: new Date(now) })
    .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, await hashRecoveryCode(typed)), isNull(recoveryCodes.usedAt)))
    .returning({ id: recoveryCodes.id });
  return used.length === 1;
}

async function readSecret(context: RequestContext, userId: string, stored: string): Promise<Uint8Array | null> {
  const key = encryptionKey(context);
  if (!key) return null;
  const base64 = await decryptToken(key, stored, secretPurpose(userId));
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Whether the user's authenticator app is on. */
export async function totpOn(context: RequestContext, userId: string): Promise<boolean> {
  const row = await context.db
    .select({ userId: totpAuthenticators.userId })
    .from(totpAuthenticators)
    .where(and(eq(totpAuthenticators.userId, userId), isNotNull(totpAuthenticators.confirmedAt)))
    .get();
  return row !== undefined;
}

/** Checks an authenticator code and, when right, records its step so it (or an older one) never works again. */
export async function spendTotpCode(context: RequestContext, userId: string, code: string, now: number): Promise<boolean> {
  const row = await context.db
    .select()
    .from(totpAuthenticators)
    .where(and(eq(totpAuthenticators.userId, userId), isNotNull(totpAuthenticators.confirmedAt)))
    .get();
  if (!row) return false;
  const secret = await readSecret(context, userId, row.secret);
  const step = secret ? matchTotp(secret, code, now, row.lastStep) : null;
  if (step === null) return false;
  // Two requests with one code at once: the step is claimed by one statement, so only one of them succeeds.
  const claimed = await context.db
    .update(totpAuthenticators)
    .set({ lastStep: step })
    .where(
      and(
        eq(totpAuthenticators.userId, userId),
        isNotNull(totpAuthenticators.confirmedAt),
        or(isNull(totpAuthenticators.lastStep), lt(totpAuthenticators.lastStep, step)),
      ),
    )
    .returning({ userId: totpAuthenticators.userId });
  return claimed.length === 1;
}

export interface TwoFactorStatus {
  on: boolean;
  /** Whether this deployment can keep an authenticator secret (TOKEN_ENCRYPTION_KEY). */
  totpAvailable: boolean;
  totp: "off" | "pending" | "on";
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(context: RequestContext, userId: UserId): Promise<TwoFactorStatus> {
  const [totp, left, keys] = await Promise.all([
    context.db.select({ confirmedAt: totpAuthenticators.confirmedAt }).from(totpAuthenticators).where(ownedBy(totpAuthenticators, userId)).get(),
    context.db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(ownedBy(recoveryCodes, userId, isNull(recoveryCodes.usedAt)))
      .get(),
    context.db.select({ n: count() }).from(passkeys).where(ownedBy(passkeys, userId)).get(),
  ]);
  const totpState = !totp ? "off" : totp.confirmedAt ? "on" : "pending";
  return {
    on: totpState === "on" || (keys?.n ?? 0) > 0,
    totpAvailable: encryptionKey(context) !== null,
    totp: totpState,
    recoveryCodesLeft: left?.n ?? 0,
  };
}

export type TwoFactorOutcome = { ok: true; recoveryCodes: string[] | null } | { ok: false; field: string; message: string };

/** Starts setting up an authenticator app: a new secret, kept (encrypted) until a code confirms it. */
export async function startTotpSetup(context: RequestContext, userId: UserId): Promise<TwoFactorOutcome> {
  const key = encryptionKey(context);
  if (!key) return { ok: false, field: "form", message: "This Porchlight has no key to keep an authenticator secret with (TOKEN_ENCRYPTION_KEY)." };
  const secret = crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
  const stored = await encryptToken(key, btoa(String.fromCharCode(...secret)), secretPurpose(userId));
  // A confirmed authenticator is never replaced here: it is turned off first (with the password).
  const started = await context.db
    .insert(totpAuthenticators)
    .values({ userId, secret: stored })
    .onConflictDoUpdate({ target: totpAuthenticators.userId, set: { secret: stored, lastStep: null }, where: isNull(totpAuthenticators.confirmedAt) })
    .returning({ userId: totpAuthenticators.userId });
  if (started.length === 0) return { ok: false, field: "form", message: "Your authenticator app is already on." };
  return { ok: true, recoveryCodes: null };
}

/** The authenticator being set up, to show: its QR code (an SVG), the address in it and the secret in groups. */
export async function pendingTotp(context: RequestContext, userId: UserId, accountName: string) {
  const row = await context.db
    .select({ secret: totpAuthenticators.secret })
    .from(totpAuthenticators)
    .where(ownedBy(totpAuthenticators, userId, isNull(totpAuthenticators.confirmedAt)))
    .get();
  const secret = row ? await readSecret(context, userId, row.secret) : null;
  if (!secret) return null;
  const uri = totpUri(secret, accountName);
  return { uri, secret: totpSecretGroups(secret), qrSvg: renderSVG(uri, { border: 2, pixelSize: 6 }) };
}

/** Turns the authenticator on with a code from it; the first second factor also makes the recovery codes. */
export async function confirmTotp(context: RequestContext, userId: UserId, code: string, now: number): Promise<TwoFactorOutcome> {
  const row = await context.db
    .select()
    .from(totpAuthenticators)
    .where(ownedBy(totpAuthenticators, userId, isNull(totpAuthenticators.confirmedAt)))
    .get();
  const secret = row ? await readSecret(context, userId, row.secret) : null;
  if (!row || !secret) return { ok: false, field: "form", message: "Start setting up the authenticator app again." };
  const step = matchTotp(secret, code, now, null);
  if (step === null) return { ok: false, field: "code", message: "That code is not right. Enter the 6-digit code your app shows now." };
  const confirmed = await context.db
    .update(totpAuthenticators)
    .set({ confirmedAt: new Date(now), lastStep: step })
    .where(and(eq(totpAuthenticators.userId, userId), isNull(totpAuthenticators.confirmedAt), eq(totpAuthenticators.secret, row.secret)))
    .returning({ userId: totpAuthenticators.userId });
  if (confirmed.length === 0) return { ok: false, field: "form", message: "Start setting up the authenticator app again." };
  return { ok: true, recoveryCodes: await recoveryCodesIfFirst(context, userId) };
}

/** Turns the authenticator app off (or drops one being set up); with no passkey left, two-factor sign-in is off. */
export async function removeTotp(context: RequestContext, userId: UserId): Promise<void> {
  await context.db.batch([
    context.db.delete(totpAuthenticators).where(ownedBy(totpAuthenticators, userId)),
    dropRecoveryCodesWhenOff(context, userId),
  ]);
}
