import { appOrigin, type RequestContext } from "~/lib/context.server";
import { base64url, randomToken } from "~/lib/crypto";
import type { UserId } from "~/lib/tenancy.server";
import { gmailSetup, saveGmailConnection } from "./connection.server";
import { authorizeUrl, GMAIL_SCOPES, gmailApi, GmailError, revokeToken, tokenRequest } from "./google.server";

// Connecting Gmail: OAuth 2.0's authorization code flow with PKCE (S256) and a one-use state (ADR 0069). The state
// and the code verifier wait in KV for ten minutes, bound to the agent who started; the callback takes them once.

const GMAIL_CALLBACK_PATH = "/settings/gmail/callback";
const STATE_TTL_SECONDS = 600;
const stateKey = (state: string) => `gmail_oauth:${state}`;

interface PendingConnect {
  userId: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

/** The S256 code challenge of a PKCE verifier (RFC 7636). */
export async function codeChallenge(verifier: string): Promise<string> {
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
}

/** Starts a connection for the signed-in agent: the Google consent address to send the browser to. */
export async function startGmailConnect(context: RequestContext, request: Request, userId: UserId, now = Date.now()): Promise<string> {
  const setup = gmailSetup(context.config);
  if (!setup.ready) throw new GmailError("not_configured");
  const state = randomToken(32);
  // 64 random bytes: an 86-character verifier, within RFC 7636's 43 to 128.
  const verifier = randomToken(64);
  const redirectUri = `${appOrigin(context, request)}${GMAIL_CALLBACK_PATH}`;
  const pending: PendingConnect = { userId, verifier, redirectUri, expiresAt: now + STATE_TTL_SECONDS * 1000 };
  await context.cloudflare.env.KV.put(stateKey(state), JSON.stringify(pending), { expirationTtl: STATE_TTL_SECONDS });
  const url = new URL(authorizeUrl(context.config));
  url.search = new URLSearchParams({
    client_id: context.config.GOOGLE_CLIENT_ID!,
    redirect_uri: redirectUri,
    response_type: "code",
    scope: GMAIL_SCOPES.join(" "),
    state,
    code_challenge: await codeChallenge(verifier),
    code_challenge_method: "S256",
    // A refresh token, asked for again on every connection so a reconnection gets one too.
    access_type: "offline",
    prompt: "consent",
  }).toString();
  return url.toString();
}

export type ConnectOutcome = { ok: true; email: string } | { ok: false; message: string };

const STALE = "That Gmail connection link has expired or was already used. Nothing was connected: please start again.";

/**
 * Finishes a connection from Google's answer (the callback's query): checks the state is one this agent started in the
 * last ten minutes and unused, trades the code and verifier for tokens, reads the mailbox's address and stores the
 * connection. Any refusal stores nothing.
 */
export async function finishGmailConnect(context: RequestContext, userId: UserId, query: URLSearchParams, now = Date.now()): Promise<ConnectOutcome> {
  const state = query.get("state");
  if (!state || !/^[A-Za-z0-9_-]{20,200}$/.test(state)) return { ok: false, message: STALE };
  const kv = context.cloudflare.env.KV;
  const raw = await kv.get(stateKey(state));
  if (!raw) return { ok: false, message: STALE };
  // One use, whatever happens next.
  await kv.delete(stateKey(state));
  const pending = JSON.parse(raw) as PendingConnect;
  if (pending.userId !== userId || pending.expiresAt < now) return { ok: false, message: STALE };
  const error = query.get("error");
  if (error === "access_denied") return { ok: false, message: "Gmail was not connected: you did not allow it at Google." };
  if (error) return { ok: false, message: `Gmail was not connected: Google answered "${error.slice(0, 60)}".` };
  const code = query.get("code");
  if (!code) return { ok: false, message: "Gmail was not connected: Google's answer had no code. Please start again." };
  try {
    const grant = await tokenRequest(context.config, {
      grant_type: "authorization_code",
      code,
      redirect_uri: pending.redirectUri,
      code_verifier: pending.verifier,
    });
    const granted = new Set((grant.scope ?? "").split(" "));
    if (!grant.refresh_token || !GMAIL_SCOPES.every((scope) => granted.has(scope))) {
      // Google's consent screen lets a scope be unticked: without both, Porchlight could not do what it offers.
      await revokeToken(context.config, grant.refresh_token ?? grant.access_token);
      return {
        ok: false,
        message:
          "Gmail was not connected: Porchlight needs both permissions, to send as you and to read the replies. Please start again and allow both.",
      };
    }
    const profile = await gmailApi<{ emailAddress?: string }>(context.config, grant.access_token, "profile");
    if (!profile.emailAddress) throw new GmailError("refused", "no address for this mailbox");
    await saveGmailConnection(context, userId, {
      email: profile.emailAddress.toLowerCase(),
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: now + grant.expires_in * 1000,
      scope: grant.scope ?? GMAIL_SCOPES.join(" "),
      now,
    });
    return { ok: true, email: profile.emailAddress.toLowerCase() };
  } catch (failure) {
    if (failure instanceof GmailError)
      return {
        ok: false,
        message: failure.code === "needs_reconnect" ? "Gmail was not connected: Google refused the sign-in. Please start again." : failure.message,
      };
    throw failure;
  }
}
