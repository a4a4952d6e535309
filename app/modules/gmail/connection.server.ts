import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { gmailConnections, type GmailConnectionStatus } from "~/db/schema";
import { newId } from "~/lib/crypto";
import type { Config } from "~/lib/env.server";
import { ownedBy, type UserId } from "~/lib/tenancy.server";
import { decryptToken, encryptToken, TokenCryptoError } from "~/lib/token-crypto.server";
import { GmailError, revokeToken, tokenRequest } from "./google.server";

// An agent's Gmail connection (gmail_connections): stored with its tokens encrypted, read only by its owner, refreshed
// before it runs out, revoked at Google and deleted on disconnect. Every query is by the signed-in agent's id.

/** What a Gmail call needs: the settings (Google's endpoints, the client, the encryption key) and the account's database. */
export interface GmailDeps {
  config: Config;
  db: Db;
}

/** Refresh an access token that runs out within this long. */
const REFRESH_MARGIN_MS = 60_000;

export type GmailSetup = { ready: true } | { ready: false; reason: string };

/** Whether this deployment can connect Gmail, and if not, why (shown in Settings → E-mail). */
export function gmailSetup(config: Config): GmailSetup {
  if (!config.TOKEN_ENCRYPTION_KEY)
    return {
      ready: false,
      reason: "This Porchlight has no key to encrypt mailbox access with (TOKEN_ENCRYPTION_KEY), and never stores it unencrypted.",
    };
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET)
    return { ready: false, reason: "This Porchlight is not registered with Google yet (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET)." };
  return { ready: true };
}

function encryptionKey(config: Config): string {
  if (!config.TOKEN_ENCRYPTION_KEY) throw new GmailError("not_configured");
  return config.TOKEN_ENCRYPTION_KEY;
}

/** The associated data each stored token is bound to: its owner and its kind. */
export const tokenPurpose = (userId: string, kind: "access" | "refresh") => `gmail:${userId}:${kind}`;

/** The agent's connection as the screens show it: never a token. */
export interface GmailConnectionSummary {
  email: string;
  status: GmailConnectionStatus;
  connectedAt: Date;
}

export async function getGmailConnection(db: Db, userId: UserId): Promise<GmailConnectionSummary | null> {
  const row = await db
    .select({ email: gmailConnections.email, status: gmailConnections.status, connectedAt: gmailConnections.createdAt })
    .from(gmailConnections)
    .where(ownedBy(gmailConnections, userId))
    .get();
  return row ?? null;
}

/** Saves a fresh grant for the agent (a first connection or a reconnection), its tokens encrypted. */
export async function saveGmailConnection(
  deps: GmailDeps,
  userId: UserId,
  grant: { email: string; accessToken: string; refreshToken: string; expiresAt: number; scope: string; now: number },
): Promise<void> {
  const key = encryptionKey(deps.config);
  const [accessToken, refreshToken] = await Promise.all([
    encryptToken(key, grant.accessToken, tokenPurpose(userId, "access")),
    encryptToken(key, grant.refreshToken, tokenPurpose(userId, "refresh")),
  ]);
  const fields = {
    email: grant.email,
    accessToken,
    refreshToken,
    accessExpiresAt: new Date(grant.expiresAt),
    scope: grant.scope,
    status: "connected" as const,
    updatedAt: new Date(grant.now),
  };
  await deps.db
    .insert(gmailConnections)
    .values({ id: newId(), userId, ...fields, createdAt: new Date(grant.now) })
    .onConflictDoUpdate({ target: gmailConnections.userId, set: fields });
}

async function markNeedsReconnect(deps: GmailDeps, userId: UserId, now: number) {
  await deps.db
    .update(gmailConnections)
    .set({ status: "needs_reconnect", updatedAt: new Date(now) })
    .where(ownedBy(gmailConnections, userId));
}

/**
 * A working access token for the agent's mailbox and its address: the stored one while it has more than a minute left,
 * else a new one from the refresh token (saved, encrypted). `force` refreshes anyway (Gmail refused the stored one).
 * Google refusing the refresh token (`invalid_grant`) marks the connection needs_reconnect and throws that GmailError.
 */
export async function gmailAccessToken(
  deps: GmailDeps,
  userId: UserId,
  options: { now?: number; force?: boolean } = {},
): Promise<{ accessToken: string; email: string }> {
  const now = options.now ?? Date.now();
  const key = encryptionKey(deps.config);
  const row = await deps.db.select().from(gmailConnections).where(ownedBy(gmailConnections, userId)).get();
  if (!row) throw new GmailError("not_connected");
  if (row.status === "needs_reconnect") throw new GmailError("needs_reconnect");
  try {
    if (!options.force && row.accessExpiresAt.getTime() - now > REFRESH_MARGIN_MS) {
      return { accessToken: await decryptToken(key, row.accessToken, tokenPurpose(userId, "access")), email: row.email };
    }
    const refreshToken = await decryptToken(key, row.refreshToken, tokenPurpose(userId, "refresh"));
    const answer = await tokenRequest(deps.config, { grant_type: "refresh_token", refresh_token: refreshToken });
    const refreshed = {
      accessToken: await encryptToken(key, answer.access_token, tokenPurpose(userId, "access")),
      accessExpiresAt: new Date(now + answer.expires_in * 1000),
      updatedAt: new Date(now),
      // Google may hand out a new refresh token; the old one then stops working.
      ...(answer.refresh_token ? { refreshToken: await encryptToken(key, answer.refresh_token, tokenPurpose(userId, "refresh")) } : {}),
      ...(answer.scope ? { scope: answer.scope } : {}),
    };
    await deps.db.update(gmailConnections).set(refreshed).where(ownedBy(gmailConnections, userId));
    return { accessToken: answer.access_token, email: row.email };
  } catch (error) {
    // A token that no longer decrypts (the key was replaced) is as good as revoked: the agent connects again.
    if (error instanceof TokenCryptoError || (error instanceof GmailError && error.code === "needs_reconnect")) {
      await markNeedsReconnect(deps, userId, now);
      throw new GmailError("needs_reconnect");
    }
    throw error;
  }
}

/**
 * Disconnects the agent's Gmail: revokes the grant at Google, then deletes the connection, also when Google could not
 * be reached (`revoked: false` then: the agent is told to remove Porchlight in their Google account). Null when
 * the agent had no connection.
 */
export async function disconnectGmail(deps: GmailDeps, userId: UserId): Promise<{ revoked: boolean } | null> {
  const row = await deps.db
    .select({ id: gmailConnections.id, refreshToken: gmailConnections.refreshToken })
    .from(gmailConnections)
    .where(ownedBy(gmailConnections, userId))
    .get();
  if (!row) return null;
  let revoked = false;
  if (deps.config.TOKEN_ENCRYPTION_KEY) {
    const token = await decryptToken(deps.config.TOKEN_ENCRYPTION_KEY, row.refreshToken, tokenPurpose(userId, "refresh")).catch(() => null);
    if (token) revoked = await revokeToken(deps.config, token);
  }
  await deps.db.delete(gmailConnections).where(ownedBy(gmailConnections, userId, eq(gmailConnections.id, row.id)));
  return { revoked };
}
