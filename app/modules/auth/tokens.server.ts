import { and, eq, gt, isNull } from "drizzle-orm";
import { authTokens, type AuthTokenPurpose } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { hmacSign, hmacVerify, newId, randomToken, sha256 } from "~/lib/crypto";
import { linkIdOn, requestShard, routeRequest, shardOfLinkId } from "~/lib/shards.server";
import { LEGAL } from "~/modules/marketing/legal";

export const TOKEN_TTL_MS: Record<AuthTokenPurpose, number> = {
  verify_email: 24 * 3600 * 1000,
  reset_password: 3600 * 1000,
  // The link that keeps a closed account works until the purge.
  keep_account: LEGAL.dataKeptDays * 86_400_000,
};

// Link token: <id>.<expiresAt>.<secret>.<signature>. The HMAC lets forged or altered links be refused
// before any database read; the stored SHA-256 of <secret> and used_at make each link single-use.
// Team invitations (app/modules/team) use the same form under their own purpose.

/** A new link's parts: the row id, its expiry, the secret (stored hashed) and the token to put in the URL. */
export async function signLink(context: Pick<RequestContext, "config">, purpose: string, id: string, expiresAt: number) {
  const secret = randomToken(32);
  const signature = await hmacSign(context.config.SESSION_SECRET, `${purpose}|${id}|${expiresAt}|${secret}`);
  return { secretHash: await sha256(secret), token: `${id}.${expiresAt}.${secret}.${signature}` };
}

/** A link's row id and secret hash once its signature and expiry check out, before any database read. */
export async function readLink(context: Pick<RequestContext, "config">, token: string, purpose: string) {
  const parts = token.split(".");
  if (parts.length !== 4) return { ok: false as const, reason: "invalid" as const };
  const [id, expires, secret, signature] = parts as [string, string, string, string];
  const expiresAt = Number(expires);
  if (!Number.isFinite(expiresAt)) return { ok: false as const, reason: "invalid" as const };
  const genuine = await hmacVerify(context.config.SESSION_SECRET, `${purpose}|${id}|${expiresAt}|${secret}`, signature);
  if (!genuine) return { ok: false as const, reason: "invalid" as const };
  if (expiresAt <= Date.now()) return { ok: false as const, reason: "expired" as const };
  return { ok: true as const, id, secretHash: await sha256(secret) };
}

export async function issueToken(context: RequestContext, userId: string, purpose: AuthTokenPurpose): Promise<string> {
  // The id names the account's database, so the link finds it from a signed-out browser (ADR 0060).
  const id = linkIdOn(requestShard(context.cloudflare.env), newId());
  const expiresAt = Date.now() + TOKEN_TTL_MS[purpose];
  const { secretHash, token } = await signLink(context, purpose, id, expiresAt);
  const insert = context.db.insert(authTokens).values({ id, userId, purpose, secretHash, expiresAt: new Date(expiresAt) });
  if (purpose === "keep_account") {
    // Every keep link sent stays good until the purge: an agent may click the first e-mail after a second
    // one went out. Whichever is used first keeps the account; the rest then find nothing to keep.
    await insert;
  } else {
    // A new link replaces older unused ones of the same purpose.
    await context.db.batch([
      context.db
        .update(authTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(authTokens.userId, userId), eq(authTokens.purpose, purpose), isNull(authTokens.usedAt))),
      insert,
    ]);
  }
  return token;
}

export type TokenCheck = { ok: true; userId: string } | { ok: false; reason: "invalid" | "expired" | "used" };

/** A link's parts once it checks out, with the request routed to the database of the link's account. */
async function parseAndRoute(context: RequestContext, token: string, purpose: AuthTokenPurpose) {
  const parsed = await readLink(context, token, purpose);
  if (!parsed.ok) return parsed;
  try {
    routeRequest(context.cloudflare.env, shardOfLinkId(parsed.id));
  } catch {
    // Signed in to an account of another database, the request already reads that one: the link is not found there.
    return { ok: false as const, reason: "invalid" as const };
  }
  return parsed;
}

/** Checks a link without using it up (to show the reset form only for a link that still works). */
export async function peekToken(context: RequestContext, token: string, purpose: AuthTokenPurpose): Promise<TokenCheck> {
  const parsed = await parseAndRoute(context, token, purpose);
  if (!parsed.ok) return parsed;
  const row = await context.db
    .select()
    .from(authTokens)
    .where(and(eq(authTokens.id, parsed.id), eq(authTokens.purpose, purpose), eq(authTokens.secretHash, parsed.secretHash)))
    .get();
  if (!row) return { ok: false, reason: "invalid" };
  if (row.usedAt) return { ok: false, reason: "used" };
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: "expired" };
  return { ok: true, userId: row.userId };
}

/** Uses the link up. The conditional UPDATE makes two simultaneous clicks succeed at most once. */
export async function consumeToken(context: RequestContext, token: string, purpose: AuthTokenPurpose): Promise<TokenCheck> {
  const parsed = await parseAndRoute(context, token, purpose);
  if (!parsed.ok) return parsed;
  const now = new Date();
  const row = await context.db
    .update(authTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(authTokens.id, parsed.id),
        eq(authTokens.purpose, purpose),
        eq(authTokens.secretHash, parsed.secretHash),
        isNull(authTokens.usedAt),
        gt(authTokens.expiresAt, now),
      ),
    )
    .returning({ userId: authTokens.userId })
    .get();
  if (row) return { ok: true, userId: row.userId };
  // Say why, for a helpful page: already used, or expired.
  return peekToken(context, token, purpose).then((check) => (check.ok ? { ok: false, reason: "invalid" } : check));
}
