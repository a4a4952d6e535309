import { eq, sql } from "drizzle-orm";
import { users } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { recordSecurityEvent } from "~/modules/audit/security.server";

// The per-account lockout (ADR 0003): consecutive failed sign-ins, passwords and second factors alike (ADR 0074), lock
// the account for a while. Only a completed sign-in starts the count again.

/** Consecutive failed sign-ins that lock an account, and for how long. */
export const LOCKOUT_THRESHOLD = 10;
export const LOCKOUT_MS = 15 * 60 * 1000;

/**
 * Counts one failure; true when it locked the account. One statement, so concurrent failures are all counted. Each
 * failure is a security event of the account (ADR 0073); the one that locks it says so instead.
 */
export async function countFailedSignIn(
  context: RequestContext,
  request: Request,
  userId: string,
  now: number,
  failure: "account.sign_in_failed" | "account.two_factor_failed" = "account.sign_in_failed",
): Promise<boolean> {
  const counted = await context.db
    .update(users)
    .set({
      failedSigninCount: sql`${users.failedSigninCount} + 1`,
      lockedUntil: sql`case when ${users.failedSigninCount} + 1 >= ${LOCKOUT_THRESHOLD} then ${now + LOCKOUT_MS} else ${users.lockedUntil} end`,
    })
    .where(eq(users.id, userId))
    .returning({ failed: users.failedSigninCount })
    .get();
  const locked = counted !== undefined && counted.failed >= LOCKOUT_THRESHOLD;
  const details = locked ? { failures: counted.failed, minutes: LOCKOUT_MS / 60_000 } : null;
  await recordSecurityEvent(context, request, userId, locked ? "account.locked" : failure, details, now);
  return locked;
}

export function isLocked(user: { lockedUntil: Date | null }, now: number): boolean {
  return Boolean(user.lockedUntil && user.lockedUntil.getTime() > now);
}

/** A completed sign-in: the count starts again. */
export async function clearFailedSignIns(context: RequestContext, user: { id: string; failedSigninCount: number; lockedUntil: Date | null }) {
  if (user.failedSigninCount > 0 || user.lockedUntil) {
    await context.db.update(users).set({ failedSigninCount: 0, lockedUntil: null }).where(eq(users.id, user.id));
  }
}
