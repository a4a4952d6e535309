import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import { apiKeys } from "~/db/schema";
import type { RequestContext } from "~/lib/context.server";
import { newId, sha256 } from "~/lib/crypto";
import { newKeyOn, requestShard, routeRequestByKey, shardOfKey } from "~/lib/shards.server";
import { ownedBy } from "~/lib/tenancy.server";
import type { ApiKeyResult } from "./intake";
import type { UserId } from "~/modules/auth/session.server";

// The lead API's keys (ADR 0066): made in Settings → Lead sources, shown once, kept as a SHA-256 hash. A key is
// `pl_` and a random secret naming its database (`s<n>_`, ADR 0060), so a request is routed before anything is read.

const KEY_PREFIX = "pl_";
const KEY_BYTES = 24;
/** Live keys an agent may have at once: one per tool (Zapier, a website, a lead vendor) is plenty. */
export const MAX_API_KEYS = 10;
/** How stale "last used" may get before a request writes it again (one write a minute at most, not one a lead). */
const LAST_USED_EVERY_MS = 60_000;

export const API_KEY_MESSAGES = {
  nameRequired: "Give the key a name, such as Zapier or My website.",
  tooMany: `You have ${MAX_API_KEYS} keys: revoke one you no longer use first.`,
  notFound: "That key is not yours or is already revoked.",
} as const;

/** Makes a key for the agent; the key itself is answered once and never stored. */
async function createApiKey(
  context: RequestContext,
  userId: UserId,
  rawName: unknown,
): Promise<{ ok: true; key: string; name: string } | { ok: false; error: string }> {
  const name = typeof rawName === "string" ? rawName.trim().replace(/\s+/g, " ").slice(0, 60) : "";
  if (!name) return { ok: false, error: API_KEY_MESSAGES.nameRequired };
  const [live] = await context.db
    .select({ n: count() })
    .from(apiKeys)
    .where(ownedBy(apiKeys, userId, isNull(apiKeys.revokedAt)));
  if ((live?.n ?? 0) >= MAX_API_KEYS) return { ok: false, error: API_KEY_MESSAGES.tooMany };
  const key = `${KEY_PREFIX}${newKeyOn(requestShard(context.cloudflare.env), KEY_BYTES)}`;
  await context.db.insert(apiKeys).values({ id: newId(), userId, name, keyHash: await sha256(key), hint: key.slice(-4) });
  return { ok: true, key, name };
}

/** The agent's keys, newest first: name, last four characters, when made, last used and revoked. */
export async function listApiKeys(context: RequestContext, userId: UserId) {
  const rows = await context.db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      hint: apiKeys.hint,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(ownedBy(apiKeys, userId))
    .orderBy(desc(apiKeys.createdAt))
    .limit(30);
  return rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.getTime(),
    lastUsedAt: r.lastUsedAt?.getTime() ?? null,
    revokedAt: r.revokedAt?.getTime() ?? null,
  }));
}

/** Revokes one of the agent's live keys: it stops at once. */
async function revokeApiKey(context: RequestContext, userId: UserId, id: string): Promise<boolean> {
  const done = await context.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(ownedBy(apiKeys, userId, eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  return done.length > 0;
}

/**
 * The live key a request brings, routed to its database first; null for a missing, malformed, unknown or revoked key.
 * Marks it used (at most once a minute).
 */
export async function apiKeyOf(context: RequestContext, key: string): Promise<{ id: string; userId: UserId } | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 100 || !/^[A-Za-z0-9_-]+$/.test(key)) return null;
  if (!routeRequestByKey(context.cloudflare.env, shardOfKey(key.slice(KEY_PREFIX.length), KEY_BYTES))) return null;
  const found = await context.db
    .select({ id: apiKeys.id, userId: apiKeys.userId })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, await sha256(key)), isNull(apiKeys.revokedAt)))
    .get();
  if (!found) return null;
  const now = Date.now();
  await context.db
    .update(apiKeys)
    .set({ lastUsedAt: new Date(now) })
    .where(and(eq(apiKeys.id, found.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now - LAST_USED_EVERY_MS)))));
  return { id: found.id, userId: found.userId as UserId };
}

/** Settings' API key forms, answered in JSON (the new key is shown once, from this answer). */
export async function apiKeyAction(context: RequestContext, userId: UserId, intent: "create" | "revoke", form: FormData): Promise<Response> {
  if (intent === "create") {
    const made = await createApiKey(context, userId, form.get("name"));
    return Response.json(
      made.ok ? ({ ok: true, intent, key: made.key, name: made.name } satisfies ApiKeyResult) : { ok: false, intent, error: made.error },
      {
        status: made.ok ? 200 : 400,
        headers: { "Cache-Control": "no-store" },
      },
    );
  }
  const revoked = await revokeApiKey(context, userId, String(form.get("id") ?? ""));
  return Response.json(revoked ? ({ ok: true, intent } satisfies ApiKeyResult) : { ok: false, intent, error: API_KEY_MESSAGES.notFound }, {
    status: revoked ? 200 : 404,
  });
}
