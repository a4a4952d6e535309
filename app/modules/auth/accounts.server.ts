import { eq, sql } from "drizzle-orm";
import { profiles, subscribers, userPreferences, users } from "~/db/schema";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import { newId } from "~/lib/crypto";
import { DEFAULT_DISPLAY_PREFERENCES } from "~/lib/format";
import { actionEmail, sendEmail } from "~/lib/mailer.server";
import { clientIp, hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { AUTH_MESSAGES, NewPasswordSchema, tooManyAttempts, type AuthMessage } from "./auth.schema";
import { dummyPasswordHash, hashPassword, verifyPassword } from "./password";
import { isOwnPassword } from "./own-password.server";
import { destroySession, forgetDevices, rotateSession, type UserId } from "./session.server";
import { clearFailedSignIns, countFailedSignIn, isLocked } from "./lockout.server";
import { startSecondFactor } from "./second-factor.server";
import { hasSecondFactor } from "./two-factor.server";
import { supportedTimezone } from "~/modules/settings/timezones";
import { consumeToken, issueToken } from "./tokens.server";
import { resendKeepLink } from "~/modules/data/account.server";
import { listAccount, placeNewAccount, routeByEmail, unlistAccount } from "~/modules/shards/directory.server";
import { routeRequest } from "~/lib/shards.server";
import { recordSecurityEvent, recordSignIn } from "~/modules/audit/security.server";

export type AuthResult =
  /** `secondFactor`: the password was right, and the second step of sign-in comes next (no session yet). */
  | { ok: true; setCookie: string[]; userId: string; secondFactor?: boolean }
  | { ok: false; message: AuthMessage; field?: "email" | "password"; status: number };

const fail = (message: AuthMessage, status = 400, field?: "email" | "password"): AuthResult => ({
  ok: false,
  message,
  status,
  field,
});

export async function findUserByEmail(context: RequestContext, email: string) {
  return context.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
    .get();
}

async function sendVerificationEmail(context: RequestContext, request: Request, userId: string, email: string) {
  const token = await issueToken(context, userId, "verify_email");
  const url = `${appOrigin(context, request)}/auth/verify?token=${encodeURIComponent(token)}`;
  const body = actionEmail({
    heading: "Confirm your e-mail address",
    intro: "Welcome to Porchlight! Confirm this address to finish setting up your account.",
    action: "Confirm e-mail",
    url,
    outro: "The link works once and expires in 24 hours. If you did not sign up, ignore this e-mail.",
  });
  await sendEmail(context, { kind: "verify_email", to: email, subject: "Confirm your e-mail for Porchlight", userId, ...body });
}

export async function signUp(
  context: RequestContext,
  request: Request,
  input: { email: string; password: string; timezone?: string },
): Promise<AuthResult> {
  const kv = context.cloudflare.env.KV;
  const limit = await hitRateLimit(kv, "signup-ip", clientIp(request), RATE_LIMITS.signupIp);
  if (!limit.allowed) return fail(tooManyAttempts(limit.retryAfterSeconds), 429);

  const password = NewPasswordSchema.safeParse(input.password);
  if (!password.success) {
    return fail({ title: "Weak Password", description: password.error.issues[0]!.message }, 400, "password");
  }
  // The new account's database (ADR 0060): the one with the most room; the directory's listing claims the address
  // across every database before the account is written.
  const env = context.cloudflare.env;
  const shard = await placeNewAccount(env, input.email, context.config.ADMIN_EMAILS);
  routeRequest(env, shard);
  if (await findUserByEmail(context, input.email)) return fail(AUTH_MESSAGES.alreadyRegistered, 409, "email");

  const id = newId();
  const passwordHash = await hashPassword(password.data);
  if (!(await listAccount(env, { userId: id, email: input.email, shard }))) return fail(AUTH_MESSAGES.alreadyRegistered, 409, "email");
  try {
    await context.db.batch([
      context.db.insert(users).values({ id, email: input.email, passwordHash }),
      context.db.insert(profiles).values({ userId: id }),
      // The browser's timezone when it sent a supported one; the spec's default otherwise.
      context.db.insert(userPreferences).values({ userId: id, timezone: supportedTimezone(input.timezone) ?? DEFAULT_DISPLAY_PREFERENCES.timezone }),
      context.db.insert(subscribers).values({ userId: id, email: input.email, subscriptionStatus: "inactive" }),
    ]);
  } catch (error) {
    await unlistAccount(env, id, shard);
    // Two sign-ups racing for one address: the unique index lets one through.
    if (String(error).includes("UNIQUE")) return fail(AUTH_MESSAGES.alreadyRegistered, 409, "email");
    console.error(JSON.stringify({ event: "signup_failed", message: String(error) }));
    return fail(AUTH_MESSAGES.signupFailed, 500);
  }
  await sendVerificationEmail(context, request, id, input.email);
  return { ok: true, userId: id, setCookie: await rotateSession(context, request, id, 1) };
}

export async function signIn(
  context: RequestContext,
  request: Request,
  input: { email: string; password: string; redirectTo?: string },
): Promise<AuthResult> {
  const kv = context.cloudflare.env.KV;
  const [byIp, byEmail] = await Promise.all([
    hitRateLimit(kv, "signin-ip", clientIp(request), RATE_LIMITS.signinIp),
    hitRateLimit(kv, "signin-email", input.email, RATE_LIMITS.signinEmail),
  ]);
  if (!byIp.allowed || !byEmail.allowed) return fail(AUTH_MESSAGES.tooManyAttempts, 429);

  await routeByEmail(context.cloudflare.env, input.email);
  const user = await findUserByEmail(context, input.email);
  if (!user) {
    await verifyPassword(input.password, await dummyPasswordHash());
    return fail(AUTH_MESSAGES.invalidCredentials, 401);
  }
  const now = Date.now();
  if (isLocked(user, now)) return fail(AUTH_MESSAGES.locked, 423);

  if (!(await verifyPassword(input.password, user.passwordHash))) {
    if (await countFailedSignIn(context, request, user.id, now)) return fail(AUTH_MESSAGES.locked, 423);
    return fail(AUTH_MESSAGES.invalidCredentials, 401);
  }

  if (user.purgeAfter) {
    // Only with the right password does the answer say the account is closed; a new keep link goes out.
    await resendKeepLink(context, request, { id: user.id, email: user.email, purgeAfter: user.purgeAfter });
    return fail(AUTH_MESSAGES.accountDeleted, 403);
  }

  // With two-factor sign-in on, the password alone starts no session and leaves the failure count as it is: only the
  // completed second step clears it, so a known password does not buy fresh guesses at the codes (ADR 0074).
  if (await hasSecondFactor(context, user.id)) {
    return { ok: true, userId: user.id, secondFactor: true, setCookie: [await startSecondFactor(context, user, input.redirectTo ?? "")] };
  }
  await recordSignIn(context, request, user.id, now);
  await clearFailedSignIns(context, user);
  return { ok: true, userId: user.id, setCookie: await rotateSession(context, request, user.id, user.sessionVersion) };
}

export async function signOut(context: RequestContext, request: Request): Promise<string> {
  return destroySession(context, request);
}

/** Ends every session of the user at once, this one included, by bumping the version checked in D1. */
export async function signOutEverywhere(context: RequestContext, request: Request, userId: UserId): Promise<string> {
  await context.db.batch([
    context.db
      .update(users)
      .set({ sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId)),
    forgetDevices(context, userId),
  ]);
  await recordSecurityEvent(context, request, userId, "account.signed_out_everywhere");
  return destroySession(context, request);
}

export async function resendVerification(context: RequestContext, request: Request, userId: UserId) {
  const user = await context.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) return { ok: false as const, message: AUTH_MESSAGES.signinFailed };
  // Confirmed already: nothing to send, so nothing is counted against the e-mail limit either.
  if (user.emailVerifiedAt) return { ok: true as const, alreadyVerified: true };
  const limit = await hitRateLimit(context.cloudflare.env.KV, "email-link", userId, RATE_LIMITS.emailLink);
  if (!limit.allowed) return { ok: false as const, message: tooManyAttempts(limit.retryAfterSeconds) };
  await sendVerificationEmail(context, request, user.id, user.email);
  return { ok: true as const, alreadyVerified: false };
}

export async function verifyEmail(context: RequestContext, token: string) {
  const check = await consumeToken(context, token, "verify_email");
  if (!check.ok) return check;
  await context.db.update(users).set({ emailVerifiedAt: new Date(), updatedAt: new Date() }).where(eq(users.id, check.userId));
  return check;
}

/** Always answers the same way, so the form does not reveal which addresses have accounts. */
export async function requestPasswordReset(context: RequestContext, request: Request, email: string) {
  const limit = await hitRateLimit(context.cloudflare.env.KV, "email-link", `reset:${email}`, RATE_LIMITS.emailLink);
  if (!limit.allowed) return { ok: false as const, message: tooManyAttempts(limit.retryAfterSeconds) };
  await routeByEmail(context.cloudflare.env, email);
  const user = await findUserByEmail(context, email);
  if (user) {
    const token = await issueToken(context, user.id, "reset_password");
    const url = `${appOrigin(context, request)}/auth/reset?token=${encodeURIComponent(token)}`;
    const body = actionEmail({
      heading: "Reset your password",
      intro: "Someone (hopefully you) asked to reset the password of your Porchlight account.",
      action: "Choose a new password",
      url,
      outro: "The link works once and expires in 1 hour. If you did not ask for it, ignore this e-mail: your password stays as it is.",
    });
    await sendEmail(context, { kind: "reset_password", to: user.email, subject: "Reset your Porchlight password", userId: user.id, ...body });
  }
  return { ok: true as const };
}

/** Sets a new password from a reset link, unlocks the account and ends every existing session. */
export async function resetPassword(context: RequestContext, request: Request, token: string, password: string) {
  const check = await consumeToken(context, token, "reset_password");
  if (!check.ok) return check;
  const passwordHash = await hashPassword(password);
  await context.db.batch([
    context.db
      .update(users)
      .set({
        passwordHash,
        sessionVersion: sql`${users.sessionVersion} + 1`,
        failedSigninCount: 0,
        lockedUntil: null,
        // The link reached the inbox, so the address is proven too.
        emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${Date.now()})`,
        updatedAt: new Date(),
      })
      .where(eq(users.id, check.userId)),
    forgetDevices(context, check.userId),
  ]);
  await recordSecurityEvent(context, request, check.userId, "account.password_reset");
  return check;
}

/** Changes the password, ends every other session and gives this device a fresh one. */
export async function changePassword(
  context: RequestContext,
  request: Request,
  userId: UserId,
  input: { currentPassword: string; password: string },
): Promise<AuthResult> {
  if (!(await isOwnPassword(context, userId, input.currentPassword))) {
    return fail({ title: "Password not changed", description: "Your current password is not correct." }, 400, "password");
  }
  const passwordHash = await hashPassword(input.password);
  const [updated] = await context.db.batch([
    context.db
      .update(users)
      .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(users.id, userId))
      .returning({ version: users.sessionVersion }),
    forgetDevices(context, userId),
  ]);
  await recordSecurityEvent(context, request, userId, "account.password_changed");
  return { ok: true, userId, setCookie: await rotateSession(context, request, userId, updated[0]!.version) };
}
