import { eq } from "drizzle-orm";
import { users } from "~/db/schema";
import { clearCookie, readCookie, serializeCookie } from "~/lib/cookies";
import type { RequestContext } from "~/lib/context.server";
import { randomToken, sha256 } from "~/lib/crypto";
import { clientIp, hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { AUTH_MESSAGES, type AuthMessage } from "./auth.messages";
import { clearFailedSignIns, countFailedSignIn, isLocked } from "./lockout.server";
import { recordSignIn } from "~/modules/audit/security.server";
import { hasPasskey, passkeySignInOptions, verifyPasskeySignIn } from "./passkeys.server";
import { rotateSession } from "./session.server";
import { TOTP_CODE_PATTERN } from "./totp";
import { normalizeRecoveryCode, RECOVERY_CODE_PATTERN, totpOn, spendRecoveryCode, spendTotpCode } from "./two-factor.server";

// The second step of sign-in (ADR 0074). A right password for an account with two-factor sign-in on gives no session:
// it gives a one-use "pending" token (random, in an HttpOnly cookie; its hash names a KV record that lives 5 minutes)
// saying whose password was right. The second step turns it into a session with a passkey, an authenticator code or a
// recovery code. Failed second factors count toward the account's lockout like wrong passwords, under the same per-IP
// and per-account rate limits; a locked account refuses the right code too.

const PENDING_COOKIE = "porchlight_2fa";
const PENDING_TTL_SECONDS = 5 * 60;

interface PendingRecord {
  userId: string;
  version: number;
  redirectTo: string;
  expiresAt: number;
}

const pendingKey = async (token: string) => `2fa-pending:${await sha256(token)}`;

/** Starts the second step for a user whose password was right; answers the cookie to set. */
export async function startSecondFactor(context: RequestContext, user: { id: string; sessionVersion: number }, redirectTo: string): Promise<string> {
  const token = randomToken(32);
  const record: PendingRecord = { userId: user.id, version: user.sessionVersion, redirectTo, expiresAt: Date.now() + PENDING_TTL_SECONDS * 1000 };
  await context.cloudflare.env.KV.put(await pendingKey(token), JSON.stringify(record), { expirationTtl: PENDING_TTL_SECONDS });
  return serializeCookie(PENDING_COOKIE, token, { maxAge: PENDING_TTL_SECONDS });
}

/** The second step this browser is in, if any and not expired: its KV key and record. */
async function readPending(context: RequestContext, request: Request): Promise<{ key: string; record: PendingRecord } | null> {
  const token = readCookie(request.headers.get("Cookie"), PENDING_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const key = await pendingKey(token);
  const record = await context.cloudflare.env.KV.get<PendingRecord>(key, "json");
  if (!record || record.expiresAt <= Date.now()) return null;
  return { key, record };
}

/** What the second step offers this browser (a passkey, an authenticator code); null without a pending sign-in. */
export async function secondStepChoices(context: RequestContext, request: Request) {
  const pending = await readPending(context, request);
  if (!pending) return null;
  const [passkey, totp] = await Promise.all([hasPasskey(context, pending.record.userId), totpOn(context, pending.record.userId)]);
  return { passkey, totp };
}

/** Options for the second step's passkey prompt, with a fresh challenge bound to the pending sign-in; null without one. */
export async function secondStepPasskeyOptions(context: RequestContext, request: Request) {
  const pending = await readPending(context, request);
  return pending ? passkeySignInOptions(context, request, pending.key, pending.record.userId) : null;
}

export type SecondFactor = { kind: "code"; code: string } | { kind: "passkey"; response: unknown };

export type SecondFactorResult =
  | { ok: true; setCookie: string[]; redirectTo: string }
  | { ok: false; status: number; message: AuthMessage; restart?: boolean };

const refuse = (status: number, message: AuthMessage, restart = false): SecondFactorResult => ({ ok: false, status, message, restart });

/** What a typed code is: an authenticator code, a recovery code, or neither (refused before anything is counted). */
function readCode(typed: string): { kind: "totp" | "recovery"; code: string } | null {
  const compact = typed.replace(/\s+/g, "");
  if (TOTP_CODE_PATTERN.test(compact)) return { kind: "totp", code: compact };
  const recovery = normalizeRecoveryCode(typed);
  return RECOVERY_CODE_PATTERN.test(recovery) ? { kind: "recovery", code: recovery } : null;
}

/** Checks the second factor; the right one ends the pending step and starts the session. */
export async function completeSecondFactor(context: RequestContext, request: Request, factor: SecondFactor): Promise<SecondFactorResult> {
  const code = factor.kind === "code" ? readCode(factor.code) : null;
  if (factor.kind === "code" && !code) return refuse(400, AUTH_MESSAGES.codeMalformed);
  const pending = await readPending(context, request);
  if (!pending) return refuse(401, AUTH_MESSAGES.secondStepExpired, true);
  const user = await context.db.select().from(users).where(eq(users.id, pending.record.userId)).get();
  // A password changed or every session ended meanwhile: the password step is to be done again.
  if (!user || user.sessionVersion !== pending.record.version || user.purgeAfter) return refuse(401, AUTH_MESSAGES.secondStepExpired, true);

  const kv = context.cloudflare.env.KV;
  const [byIp, byAccount] = await Promise.all([
    hitRateLimit(kv, "signin-ip", clientIp(request), RATE_LIMITS.signinIp),
    hitRateLimit(kv, "signin-email", user.email, RATE_LIMITS.signinEmail),
  ]);
  if (!byIp.allowed || !byAccount.allowed) return refuse(429, AUTH_MESSAGES.tooManyAttempts);
  const now = Date.now();
  if (isLocked(user, now)) return refuse(423, AUTH_MESSAGES.locked);

  const right =
    factor.kind === "passkey"
      ? await verifyPasskeySignIn(context, request, pending.key, user.id, factor.response, now)
      : code!.kind === "totp"
        ? await spendTotpCode(context, user.id, code!.code, now)
        : await spendRecoveryCode(context, user.id, code!.code, now);
  if (!right) {
    if (await countFailedSignIn(context, request, user.id, now, "account.two_factor_failed")) return refuse(423, AUTH_MESSAGES.locked);
    return refuse(401, factor.kind === "passkey" ? AUTH_MESSAGES.passkeyRefused : AUTH_MESSAGES.codeRefused);
  }
  await Promise.all([kv.delete(pending.key), clearFailedSignIns(context, user), recordSignIn(context, request, user.id, now)]);
  const setCookie = await rotateSession(context, request, user.id, user.sessionVersion);
  return { ok: true, setCookie: [...setCookie, clearCookie(PENDING_COOKIE)], redirectTo: pending.record.redirectTo };
}
