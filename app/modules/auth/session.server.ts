import { eq } from "drizzle-orm";
import { users, type UserRole } from "~/db/schema";
import { clearCookie, readCookie, serializeCookie } from "~/lib/cookies";
import { memoize, type RequestContext } from "~/lib/context.server";
import { randomToken, sha256 } from "~/lib/crypto";
import type { Env } from "~/lib/env.server";
import type { UserId } from "~/lib/tenancy.server";

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
}

interface SessionRecord {
  userId: string;
  version: number;
  createdAt: number;
  lastSeenAt: number;
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

export async function createSession(context: RequestContext, userId: string, version: number): Promise<string> {
  const id = randomToken(32);
  const now = Date.now();
  const record: SessionRecord = { userId, version, createdAt: now, lastSeenAt: now };
  await context.cloudflare.env.KV.put(await kvKey(id), JSON.stringify(record), {
    expirationTtl: SESSION_IDLE_SECONDS,
  });
  return serializeCookie(SESSION_COOKIE, id, { maxAge: SESSION_ABSOLUTE_SECONDS });
}

export async function destroySession(context: RequestContext, request: Request): Promise<string> {
  const id = sessionIdFrom(request);
  if (id) await context.cloudflare.env.KV.delete(await kvKey(id));
  return clearCookie(SESSION_COOKIE);
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
    })
    .from(users)
    .where(eq(users.id, record.userId))
    .get();
  // A deleted account (awaiting its purge) has no sessions, whatever a cookie says.
  if (!row || row.sessionVersion !== record.version || row.purgeAfter) {
    context.cloudflare.ctx.waitUntil(kv.delete(key));
    return null;
  }
  if (now - record.lastSeenAt > SESSION_TOUCH_MS) {
    const touched: SessionRecord = { ...record, lastSeenAt: now };
    context.cloudflare.ctx.waitUntil(kv.put(key, JSON.stringify(touched), { expirationTtl: SESSION_IDLE_SECONDS }));
  }
  return {
    key,
    user: { id: row.id as UserId, email: row.email, role: row.role, emailVerified: row.emailVerifiedAt !== null },
  };
}

/** The signed-in session for this request, looked up once however many loaders ask. */
export function getSession(context: RequestContext, request: Request): Promise<ActiveSession | null> {
  return memoize(context, "session", () => loadSession(context, request));
}
