import { and, eq, sql } from "drizzle-orm";
import { passkeys, sessionDevices, teamMembers, teams, totpAuthenticators, users, type UserRole } from "~/db/schema";
import { clearCookie, readCookie, serializeCookie } from "~/lib/cookies";
import { memoize, type RequestContext } from "~/lib/context.server";
import { randomToken, sha256 } from "~/lib/crypto";
import type { Env } from "~/lib/env.server";
import type { UserId } from "~/lib/tenancy.server";
import { describeDevice, describePlace } from "./device";

export const SESSION_COOKIE = "porchlight_session";
/** A session unused for this long ends. */
export const SESSION_IDLE_SECONDS = 7 * 24 * 3600;
/** No session lives longer than this, used or not. */
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 3600;
/** lastSeenAt is written back at most this often, to keep KV writes off the hot path. */
const SESSION_TOUCH_MS = 12 * 3600 * 1000;

/** A user id that came from a verified session, never from the browser (defined with the query filters it feeds). */
export type { UserId };

export interface SessionUser {
  id: UserId;
  email: string;
  role: UserRole;
  emailVerified: boolean;
  /** The user's team requires two-factor sign-in and the user has no second factor yet (ADR 0074). */
  twoFactorSetupDue: boolean;
}

interface SessionRecord {
  userId: string;
  version: number;
  createdAt: number;
  lastSeenAt: number;
  /** Listed in session_devices (ADR 0074): once its row is gone (signed out from the list) the session is refused. */
  tracked?: boolean;
}

export interface ActiveSession {
  key: string;
  user: SessionUser;
}

// The KV key is a hash of the cookie value, so a KV listing gives nobody a usable session id.
async function kvKey(sessionId: string) {
  return `session:${await sha256(sessionId)}`;
}

export function sessionIdFrom(request: Request): string | null {
  const id = readCookie(request.headers.get("Cookie"), SESSION_COOKIE);
  return id && /^[A-Za-z0-9_-]{43}$/.test(id) ? id : null;
}

/**
 * The user id a request's session cookie names in KV, unchecked: enough to find the account's database (ADR 0060)
 * before the app runs; getSession then checks the session against that database's users row.
 */
export async function sessionUserId(env: Pick<Env, "KV">, request: Request): Promise<string | null> {
  const id = sessionIdFrom(request);
  if (!id) return null;
  const record = await env.KV.get<SessionRecord>(await kvKey(id), "json");
  return typeof record?.userId === "string" ? record.userId : null;
}

async function createSession(context: RequestContext, request: Request, userId: string, version: number): Promise<string> {
  const id = randomToken(32);
  const now = Date.now();
  const key = await kvKey(id);
  const record: SessionRecord = { userId, version, createdAt: now, lastSeenAt: now, tracked: true };
  // The device's row first: a session whose row is missing is refused.
  await context.db.insert(sessionDevices).values({
    key,
    userId,
    device: describeDevice(request.headers.get("User-Agent")),
    place: describePlace((request as { cf?: IncomingRequestCfProperties }).cf),
    createdAt: new Date(now),
    lastSeenAt: new Date(now),
  });
  await context.cloudflare.env.KV.put(key, JSON.stringify(record), { expirationTtl: SESSION_IDLE_SECONDS });
  return serializeCookie(SESSION_COOKIE, id, { maxAge: SESSION_ABSOLUTE_SECONDS });
}

/** Ends the request's session: its KV record and its row in the device list. */
export async function destroySession(context: RequestContext, request: Request): Promise<string> {
  const id = sessionIdFrom(request);
  if (id) {
    const key = await kvKey(id);
    await Promise.all([context.cloudflare.env.KV.delete(key), context.db.delete(sessionDevices).where(eq(sessionDevices.key, key))]);
  }
  return clearCookie(SESSION_COOKIE);
}

/** A fresh session on every sign-in, so a session id planted before sign-in is worthless after it. */
export async function rotateSession(context: RequestContext, request: Request, userId: string, version: number) {
  await destroySession(context, request);
  return [await createSession(context, request, userId, version)];
}

/** Ends one of the user's sessions from the device list (owner-scoped: another user's key is not found). */
export async function endSession(context: RequestContext, userId: UserId, key: string): Promise<boolean> {
  const gone = await context.db
    .delete(sessionDevices)
    .where(and(eq(sessionDevices.key, key), eq(sessionDevices.userId, userId)))
    .returning({ key: sessionDevices.key });
  if (gone.length === 0) return false;
  await context.cloudflare.env.KV.delete(key);
  return true;
}

/** The statement that drops every device row of the user, for the batch that bumps the session version. */
export function forgetDevices(context: RequestContext, userId: string) {
  return context.db.delete(sessionDevices).where(eq(sessionDevices.userId, userId));
}

/** SQL that is true when the user's team requires two-factor sign-in and the user has no second factor. */
function twoFactorSetupDueSql(userId: string) {
  return sql<number>`(exists (select 1 from ${teamMembers} inner join ${teams} on ${teams.id} = ${teamMembers.teamId}
      where ${teamMembers.userId} = ${userId} and ${teams.requireTwoFactor} = 1)
    and not exists (select 1 from ${totpAuthenticators} where ${totpAuthenticators.userId} = ${userId} and ${totpAuthenticators.confirmedAt} is not null)
    and not exists (select 1 from ${passkeys} where ${passkeys.userId} = ${userId}))`;
}

async function loadSession(context: RequestContext, request: Request): Promise<ActiveSession | null> {
  const id = sessionIdFrom(request);
  if (!id) return null;
  const key = await kvKey(id);
  const kv = context.cloudflare.env.KV;
  const record = await kv.get<SessionRecord>(key, "json");
  if (!record) return null;
  const now = Date.now();
  if (now - record.createdAt > SESSION_ABSOLUTE_SECONDS * 1000 || now - record.lastSeenAt > SESSION_IDLE_SECONDS * 1000) {
    context.cloudflare.ctx.waitUntil(kv.delete(key));
    return null;
  }
  // KV may lag behind; the version in D1 is the source of truth for revocation.
  const row = await context.db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      sessionVersion: users.sessionVersion,
      emailVerifiedAt: users.emailVerifiedAt,
      purgeAfter: users.purgeAfter,
      listed: sessionDevices.key,
      twoFactorSetupDue: twoFactorSetupDueSql(record.userId),
    })
    .from(users)
    .leftJoin(sessionDevices, and(eq(sessionDevices.key, key), eq(sessionDevices.userId, users.id)))
    .where(eq(users.id, record.userId))
    .get();
  // A deleted account (awaiting its purge) has no sessions, whatever a cookie says; nor has a session signed out from
  // the device list, which D1 knows at once while KV may lag.
  if (!row || row.sessionVersion !== record.version || row.purgeAfter || (record.tracked && !row.listed)) {
    context.cloudflare.ctx.waitUntil(kv.delete(key));
    return null;
  }
  if (now - record.lastSeenAt > SESSION_TOUCH_MS) {
    const touched: SessionRecord = { ...record, lastSeenAt: now };
    context.cloudflare.ctx.waitUntil(
      Promise.all([
        kv.put(key, JSON.stringify(touched), { expirationTtl: SESSION_IDLE_SECONDS }),
        context.db
          .update(sessionDevices)
          .set({ lastSeenAt: new Date(now) })
          .where(eq(sessionDevices.key, key)),
      ]),
    );
  }
  return {
    key,
    user: {
      id: row.id as UserId,
      email: row.email,
      role: row.role,
      emailVerified: row.emailVerifiedAt !== null,
      twoFactorSetupDue: Boolean(row.twoFactorSetupDue),
    },
  };
}

/** The signed-in session for this request, looked up once however many loaders ask. */
export function getSession(context: RequestContext, request: Request): Promise<ActiveSession | null> {
  return memoize(context, "session", () => loadSession(context, request));
}
