import { and, desc, eq, gt } from "drizzle-orm";
import { sessionDevices } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import type { ToastMessage } from "~/lib/toast";
import { recordSecurityEvent } from "~/modules/audit/security.server";
import { listPasskeys, registerPasskey, removePasskey } from "./passkeys.server";
import { endSession, getSession, SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS, type SessionUser } from "./session.server";
import type { SecurityIntent } from "./security-intents";
import { TOTP_CODE_PATTERN } from "./totp";
import {
  confirmTotp,
  hasSecondFactor,
  pendingTotp,
  removeTotp,
  replaceRecoveryCodes,
  startTotpSetup,
  twoFactorStatus,
  type TwoFactorOutcome,
} from "./two-factor.server";

// Settings → Security (ADR 0074): what the page shows and what its forms do. Every read and write is the signed-in
// user's own; an id from the browser (a passkey, a session) that is not theirs is "not found".

type Fields = Record<string, FormDataEntryValue>;

export type SecurityOutcome =
  | { ok: true; toast: Omit<ToastMessage, "id">; recoveryCodes?: string[] }
  | { ok: false; status: 400 | 404; errors: Record<string, string> };

/** The user's signed-in devices, newest first, the request's own marked. */
async function listDevices(context: RequestContext, request: Request, user: SessionUser, now: number) {
  const current = (await getSession(context, request))?.key;
  const rows = await context.db
    .select()
    .from(sessionDevices)
    .where(
      and(
        eq(sessionDevices.userId, user.id),
        gt(sessionDevices.lastSeenAt, new Date(now - SESSION_IDLE_SECONDS * 1000)),
        gt(sessionDevices.createdAt, new Date(now - SESSION_ABSOLUTE_SECONDS * 1000)),
      ),
    )
    .orderBy(desc(sessionDevices.lastSeenAt));
  return rows.map((r) => ({
    key: r.key,
    device: r.device,
    place: r.place,
    createdAt: r.createdAt.getTime(),
    lastSeenAt: r.lastSeenAt.getTime(),
    current: r.key === current,
  }));
}

export async function loadSecurityPage(context: RequestContext, request: Request, user: SessionUser) {
  const now = Date.now();
  const [status, keys, setup, devices] = await Promise.all([
    twoFactorStatus(context, user.id),
    listPasskeys(context, user.id),
    pendingTotp(context, user.id, user.email),
    listDevices(context, request, user, now),
  ]);
  return { email: user.email, required: user.twoFactorSetupDue, status, passkeys: keys, setup, devices, now };
}

const refused = (field: string, message: string, status: 400 | 404 = 400): SecurityOutcome => ({ ok: false, status, errors: { [field]: message } });

function fromTwoFactor(outcome: TwoFactorOutcome, title: string, description?: string): SecurityOutcome {
  if (!outcome.ok) return refused(outcome.field, outcome.message);
  return { ok: true, toast: { title, description, variant: "success" }, recoveryCodes: outcome.recoveryCodes ?? undefined };
}

const text = (value: FormDataEntryValue | undefined) => (typeof value === "string" ? value : "");

/** One of the page's forms, by its intent. */
export async function runSecurityAction(
  context: RequestContext,
  request: Request,
  user: SessionUser,
  intent: SecurityIntent,
  fields: Fields,
): Promise<SecurityOutcome> {
  // Two-factor sign-in going on (a first factor) or off (the last one removed) is a security event (ADR 0073).
  const before = await hasSecondFactor(context, user.id);
  const outcome = await runIntent(context, request, user, intent, fields);
  const after = outcome.ok ? await hasSecondFactor(context, user.id) : before;
  if (before !== after) await recordSecurityEvent(context, request, user.id, after ? "account.two_factor_enabled" : "account.two_factor_disabled");
  return outcome;
}

async function runIntent(
  context: RequestContext,
  request: Request,
  user: SessionUser,
  intent: SecurityIntent,
  fields: Fields,
): Promise<SecurityOutcome> {
  switch (intent) {
    case "totp-start":
      return fromTwoFactor(await startTotpSetup(context, user.id), "Scan the code with your app");
    case "totp-confirm": {
      const code = text(fields.code).replace(/\s+/g, "");
      if (!TOTP_CODE_PATTERN.test(code)) return refused("code", "Enter the 6-digit code your authenticator app shows.");
      return fromTwoFactor(await confirmTotp(context, user.id, code, Date.now()), "Authenticator app on", "Sign-in now asks for a code from it.");
    }
    case "totp-cancel":
    case "totp-off":
      await removeTotp(context, user.id);
      return { ok: true, toast: { title: intent === "totp-off" ? "Authenticator app turned off" : "Setup cancelled", variant: "success" } };
    case "recovery-new": {
      if (!(await twoFactorStatus(context, user.id)).on)
        return refused("form", "Turn on two-factor sign-in first: add a passkey or an authenticator app.");
      const codes = await replaceRecoveryCodes(context, user.id);
      return {
        ok: true,
        toast: { title: "New recovery codes", description: "The old ones no longer work.", variant: "success" },
        recoveryCodes: codes,
      };
    }
    case "passkey-add": {
      const name = text(fields.name).trim();
      if (name.length === 0 || name.length > 60) return refused("name", "Name the passkey (up to 60 characters), e.g. “iPhone” or “Work laptop”.");
      return fromTwoFactor(
        await registerPasskey(context, request, user.id, name, fields.response),
        "Passkey added",
        `“${name}” can confirm your sign-ins now.`,
      );
    }
    case "passkey-remove":
      if (!(await removePasskey(context, user.id, text(fields.id)))) return refused("form", "That passkey was not found.", 404);
      return { ok: true, toast: { title: "Passkey removed", variant: "success" } };
    case "session-end": {
      const current = (await getSession(context, request))?.key;
      if (text(fields.key) === current) return refused("form", "To sign out this device, use Sign out.");
      if (!(await endSession(context, user.id, text(fields.key))))
        return refused("form", "That session was not found: it may have ended already.", 404);
      return { ok: true, toast: { title: "Device signed out", variant: "success" } };
    }
  }
}
