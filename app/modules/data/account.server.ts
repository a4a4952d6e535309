import { DAY_MS } from "~/lib/dates";
import { and, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { gdprRequests, users } from "~/db/schema";
import { appOrigin, type RequestContext } from "~/lib/context.server";
import type { Env } from "~/lib/env.server";
import { homeDatabase } from "~/lib/shards.server";
import { formatDate } from "~/lib/format";
import { actionEmail, sendEmail } from "~/lib/mailer.server";
import { LEGAL } from "~/modules/marketing/legal";
import { hitRateLimit, RATE_LIMITS } from "~/lib/rate-limit.server";
import { isOwnPassword } from "~/modules/auth/own-password.server";
import { destroySession, type UserId } from "~/modules/auth/session.server";
import { consumeToken, issueToken } from "~/modules/auth/tokens.server";
import { endSubscriptionNow } from "~/modules/billing/details.server";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { leaveTeamOnAccountClose } from "~/modules/team/departure.server";
import { finishDataRequest, openDataRequest } from "./requests.server";
import { auditWhere } from "~/modules/audit/audit.server";
import { auditRowsOnPurge } from "~/modules/audit/retention.server";
import { ACCOUNT_TABLES, KEPT_UNSIGNED } from "./tables";

// "Delete my account" (decisions.md "Data lifecycle"): the subscription ends at once, every session
// ends, sign-in is refused, and 30 days later the cron removes every row of the user in every table. Until
// then an e-mailed link keeps the account. ADR 0026.

/** Days between "Delete my account" and the purge: the terms' "kept for 30 days", from the one place they state it. */
export const ACCOUNT_PURGE_DAYS = LEGAL.dataKeptDays;

/** The description an account deletion is recorded with; the purge and the keep link find it by this. */
export const ACCOUNT_DELETION_REQUEST = "Delete my account";

export type CloseAccountResult = { ok: true; purgeAfter: Date; setCookie: string } | { ok: false; status: 400 | 429 | 502; message: string };

async function sendKeepLink(context: RequestContext, request: Request, user: { id: string; email: string }, purgeAfter: Date, intro: string) {
  const prefs = await getDisplayPreferences(context, user.id as UserId);
  const token = await issueToken(context, user.id, "keep_account");
  const body = actionEmail({
    heading: "Your Porchlight account is closed",
    intro: `${intro} Everything in it (contacts, deals, tasks, activities, settings and billing records) will be deleted for good on ${formatDate(purgeAfter, prefs)}.`,
    action: "Keep my account",
    url: `${appOrigin(context, request)}/account/keep?token=${encodeURIComponent(token)}`,
    outro:
      "Until then this link brings the account back as it was, apart from the subscription, which stays cancelled: you can start it again from Settings → Billing. If you meant to delete it, there is nothing to do.",
  });
  await sendEmail(context, {
    kind: "account_deletion",
    to: user.email,
    subject: "Your Porchlight account will be deleted",
    userId: user.id,
    ...body,
  });
}

/**
 * Closes the signed-in agent's account after checking the password: cancels the subscription (at Stripe, or in
 * test mode), schedules the purge, signs out every device, records the request and e-mails the keep link.
 * Nothing changes when the password is wrong, the limit is reached or Stripe cannot cancel.
 */
export async function closeAccount(context: RequestContext, request: Request, userId: UserId, password: unknown): Promise<CloseAccountResult> {
  const limit = await hitRateLimit(context.cloudflare.env.KV, "account-delete", userId, RATE_LIMITS.dataErase);
  if (!limit.allowed)
    return {
      ok: false,
      status: 429,
      message: `Too many tries. Please wait ${Math.ceil(limit.retryAfterSeconds / 60)} minutes. Your account was not deleted.`,
    };
  if (typeof password !== "string" || !(await isOwnPassword(context, userId, password))) {
    return { ok: false, status: 400, message: "That password is not correct. Your account was not deleted." };
  }
  const user = await context.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!user) return { ok: false, status: 400, message: "That password is not correct. Your account was not deleted." };

  const now = new Date();
  // The team first: an owner with members is refused before anything changes; a member is out of the rotation at once.
  const left = await leaveTeamOnAccountClose(context, appOrigin(context, request), { id: userId }, now, auditWhere(request));
  if (!left.ok) return { ok: false, status: 400, message: left.message };

  const ended = await endSubscriptionNow(context, userId);
  if (!ended.ok) return { ok: false, status: 502, message: ended.message };

  const purgeAfter = new Date(now.getTime() + ACCOUNT_PURGE_DAYS * DAY_MS);
  // One statement: the purge date and the end of every session land together.
  await context.db
    .update(users)
    .set({ purgeAfter, sessionVersion: sql`${users.sessionVersion} + 1`, updatedAt: now })
    .where(eq(users.id, userId));
  await openDataRequest(context.db, userId, "erasure", ACCOUNT_DELETION_REQUEST, now);
  await sendKeepLink(context, request, user, purgeAfter, "You deleted your Porchlight account and your subscription was cancelled.");
  return { ok: true, purgeAfter, setCookie: await destroySession(context, request) };
}

/**
 * Sign-in with the right password on a closed account: a fresh keep link (the old one may be lost), at most a
 * few an hour. Returns the purge date for the message.
 */
export async function resendKeepLink(
  context: RequestContext,
  request: Request,
  user: { id: string; email: string; purgeAfter: Date },
): Promise<void> {
  const limit = await hitRateLimit(context.cloudflare.env.KV, "email-link", `keep:${user.id}`, RATE_LIMITS.emailLink);
  if (!limit.allowed) return;
  await sendKeepLink(
    context,
    request,
    user,
    user.purgeAfter,
    "Someone signed in to your closed Porchlight account with its password, so here is a new link to keep it.",
  );
}

export type KeepAccountResult = { ok: true } | { ok: false; reason: "invalid" | "expired" | "used" | "gone" };

/** The e-mailed link: the purge is called off and the account opens again (the subscription stays ended). */
export async function keepAccount(context: RequestContext, token: string): Promise<KeepAccountResult> {
  const check = await consumeToken(context, token, "keep_account");
  if (!check.ok) return check;
  const kept = await context.db
    .update(users)
    .set({ purgeAfter: null, updatedAt: new Date() })
    // Once its purge has started (queued), part of the account is gone: it cannot be kept any more.
    .where(and(eq(users.id, check.userId), isNotNull(users.purgeAfter), isNull(users.purgeQueuedAt)))
    .returning({ id: users.id })
    .get();
  if (!kept) return { ok: false, reason: "gone" };
  await context.db
    .update(gdprRequests)
    .set({ status: "cancelled", completedAt: new Date() })
    .where(and(eq(gdprRequests.userId, check.userId), eq(gdprRequests.status, "pending"), eq(gdprRequests.description, ACCOUNT_DELETION_REQUEST)));
  return { ok: true };
}

/** Rows deleted per statement (the e-mail outbox, an agent's activities can be long). */
const CHUNK = 500;
/** What a purge deletes, in this order: the CRM tables (children before their parents), then every other table. */
const PURGED = ACCOUNT_TABLES;

/**
 * Deletes the user's rows of `tables` in this order, CHUNK rows a statement, in at most `statements` statements;
 * "more" when the budget ran out first. Safe to stop anywhere and run again, and never touches another user's rows.
 */
export async function deleteRowsOf(
  d1: D1Database,
  userId: string,
  tables: readonly { table: string; owner: string }[],
  statements = Number.POSITIVE_INFINITY,
): Promise<"done" | "more"> {
  if (statements < 1) return "more";
  // One statement first says which tables hold any of the user's rows (each an indexed lookup), so an account with
  // little in it (the QA Dashboard's throwaway ones) costs a statement per table it has rows in, not one per table.
  const probe = tables.map(({ table, owner }, i) => `exists (select 1 from "${table}" where "${owner}" = ?1) as "t${i}"`).join(", ");
  const held = (await d1.prepare(`select ${probe}`).bind(userId).first<Record<string, number>>()) ?? {};
  let used = 1;
  for (const [i, { table, owner }] of tables.entries()) {
    if (!held[`t${i}`]) continue;
    for (;;) {
      if (used >= statements) return "more";
      used += 1;
      const result = await d1
        .prepare(`delete from "${table}" where rowid in (select rowid from "${table}" where "${owner}" = ? limit ${CHUNK})`)
        .bind(userId)
        .run();
      // D1's `changes` counts the rows triggers touch too: only none at all means the table is done.
      if ((result.meta.changes ?? 0) === 0) break;
    }
  }
  return "done";
}

/**
 * What ends an account in a database once its tables are empty (one batch): the records that are the service's, not
 * theirs (status notes, request records, backup logs), stay there unsigned, and the users row goes.
 */
export function accountRowsEnd(d1: D1Database, userId: string): D1PreparedStatement[] {
  return [
    ...auditRowsOnPurge(d1, userId),
    ...Object.entries(KEPT_UNSIGNED).flatMap(([table, { columns }]) =>
      columns.map((column) => d1.prepare(`update "${table}" set "${column}" = null where "${column}" = ?`).bind(userId)),
    ),
    d1.prepare(`delete from users where id = ?`).bind(userId),
  ];
}

/**
 * One slice of an account's purge: deletes the user's rows table by table, CHUNK rows a statement, in at most
 * `statements` statements; when nothing is left it finishes (the deletion's record completed, the records that are
 * the service's kept unsigned, the users row deleted). Returns "more" when the budget ran out first. Safe to stop
 * anywhere and run again: each slice deletes what is left and never touches another user's rows.
 */
export async function purgeAccountSlice(
  env: Pick<Env, "DB" | "HOME_DB" | "INSIGHTS">,
  db: Db,
  userId: string,
  now: Date,
  statements = Number.POSITIVE_INFINITY,
): Promise<"done" | "more"> {
  if ((await deleteRowsOf(env.DB, userId, PURGED, statements)) === "more") return "more";
  await finishDataRequestsOnPurge(db, userId, now);
  await env.DB.batch(accountRowsEnd(env.DB, userId));
  // The listing goes once the account's rows are gone: a purge stopped part-way still finds the account to finish.
  await homeDatabase(env).prepare(`delete from account_directory where user_id = ?`).bind(userId).run();
  await env.INSIGHTS.get(env.INSIGHTS.idFromName(userId)).clear();
  return "done";
}

/**
 * Removes every row of the user in every table (PURGE_TABLES, which a test holds to the live schema) in one go:
 * for the QA Dashboard's small throwaway accounts. The 30-day purge goes through the purge queue in slices
 * (purge.server.ts). The record of the deletion request is kept without the user's id, so Compliance still counts it.
 */
export async function purgeAccount(env: Pick<Env, "DB" | "HOME_DB" | "INSIGHTS">, db: Db, userId: string, now = new Date()): Promise<void> {
  await purgeAccountSlice(env, db, userId, now);
}

async function finishDataRequestsOnPurge(db: Db, userId: string, now: Date) {
  const pending = await db
    .select({ id: gdprRequests.id })
    .from(gdprRequests)
    .where(and(eq(gdprRequests.userId, userId), eq(gdprRequests.status, "pending"), eq(gdprRequests.description, ACCOUNT_DELETION_REQUEST)));
  for (const row of pending)
    await finishDataRequest(db, userId, row.id, "completed", now, `${ACCOUNT_DELETION_REQUEST}: every row of the account deleted`);
}

/** Accounts whose 30 days are over, oldest first (the purge queue takes them; see purge.server.ts). */
export async function dueAccountPurges(db: Db, now: Date, limit = 5): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.purgeAfter), lte(users.purgeAfter, now)))
    .orderBy(users.purgeAfter)
    .limit(limit);
  return rows.map((r) => r.id);
}
