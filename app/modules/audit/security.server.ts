import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { auditEvents } from "~/db/schema";
import type { AuditAction } from "~/db/enums";
import { DAY_MS } from "~/lib/dates";
import { auditPerson, auditWhere, recordAudit, type AuditWhere } from "./audit.server";
import { deviceOf } from "./catalogue";

// A user's own security events (ADR 0073): sign-ins, failures and lockouts, new devices, password and session changes.
// They belong to no team: only the user sees them (Settings → Security).

/** A sign-in is from a new device when its browser, system and country were not seen signing in this long. */
const NEW_DEVICE_DAYS = 90;
/** Sign-ins looked at to tell a known device (bounded, newest first). */
const SEEN_SIGN_INS = 200;
const SIGN_INS: AuditAction[] = ["account.signed_in", "account.new_device"];

/**
 * Whether a sign-in from `where` is from a device (browser and system, deviceOf) and country not seen signing in to this
 * account in the last NEW_DEVICE_DAYS. An account with no sign-in in that time has nothing to compare with: not new.
 */
async function isNewDevice(db: Db, userId: string, where: AuditWhere, now: number): Promise<boolean> {
  const seen = await db
    .select({ userAgent: auditEvents.userAgent, country: auditEvents.country })
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.subjectUserId, userId),
        inArray(auditEvents.action, SIGN_INS),
        gt(auditEvents.createdAt, new Date(now - NEW_DEVICE_DAYS * DAY_MS)),
      ),
    )
    .orderBy(desc(auditEvents.createdAt))
    .limit(SEEN_SIGN_INS);
  if (seen.length === 0) return false;
  const device = deviceOf(where.userAgent);
  return !seen.some((row) => deviceOf(row.userAgent) === device && (row.country ?? null) === (where.country ?? null));
}

/**
 * Records a personal security event of `userId` from this request: one row, in no team's log. For other modules' own
 * security actions (two-factor sign-in: "account.two_factor_enabled", "account.two_factor_disabled",
 * "account.two_factor_failed"), as for sign-in and passwords here.
 */
export async function recordSecurityEvent(
  context: { db: Db },
  request: Request,
  userId: string,
  action: AuditAction,
  details: Record<string, unknown> | null = null,
  now = Date.now(),
): Promise<void> {
  const me = await auditPerson(context.db, userId, "This account");
  await recordAudit(context, { action, teamId: null, actor: me, subject: me, details, where: auditWhere(request), at: now });
}

/** A successful sign-in: one row, "account.new_device" when the device and country are new (isNewDevice), else "account.signed_in". */
export async function recordSignIn(context: { db: Db }, request: Request, userId: string, now = Date.now()): Promise<void> {
  const fresh = await isNewDevice(context.db, userId, auditWhere(request), now);
  await recordSecurityEvent(context, request, userId, fresh ? "account.new_device" : "account.signed_in", null, now);
}
