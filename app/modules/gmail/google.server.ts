import type { Config } from "~/lib/env.server";

// Google's HTTP endpoints Porchlight calls for Gmail, and the one error type the callers see. Requests go only to the
// three configured bases (GOOGLE_ACCOUNTS_BASE, GOOGLE_OAUTH_BASE, GMAIL_API_BASE: Google's, or a local fake outside
// production; env.server.ts checks them), never to an address a user gave.

/** Send as the agent, and read: Gmail has no narrower scope that reads replies (ADR 0069). */
export const GMAIL_SCOPES = ["https://www.googleapis.com/auth/gmail.send", "https://www.googleapis.com/auth/gmail.readonly"] as const;

export type GmailErrorCode = "not_configured" | "not_connected" | "needs_reconnect" | "refused" | "unavailable" | "not_found";

const MESSAGES: Record<Exclude<GmailErrorCode, "refused">, string> = {
  not_configured: "Sending from Gmail is not set up on this Porchlight.",
  not_connected: "Gmail is not connected. Connect it in Settings → E-mail.",
  needs_reconnect: "Gmail needs reconnecting: Google no longer accepts Porchlight's access. Reconnect it in Settings → E-mail.",
  unavailable: "Gmail could not be reached. Please try again in a moment.",
  not_found: "Gmail has no such conversation in this mailbox.",
};

/** What went wrong with the agent's Gmail, with a sentence the caller can show as it is. */
export class GmailError extends Error {
  override name = "GmailError";
  constructor(
    readonly code: GmailErrorCode,
    detail?: string,
  ) {
    super(code === "refused" ? `Gmail refused: ${detail ?? "no reason given"}.` : MESSAGES[code]);
  }
}

export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
  scope?: string;
}

const TIMEOUT_MS = 15_000;

function origin(base: string): string {
  return new URL(base).origin;
}

export function authorizeUrl(config: Config): string {
  return `${origin(config.GOOGLE_ACCOUNTS_BASE)}/o/oauth2/v2/auth`;
}

async function reach(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: "manual", signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch {
    throw new GmailError("unavailable");
  }
}

/** Google's OAuth error code and text from a refused request ({error, error_description} or {error: {message}}). */
async function refusal(response: Response): Promise<{ code: string; message: string }> {
  const body = (await response.json().catch(() => ({}))) as { error?: string | { message?: string; status?: string }; error_description?: string };
  if (typeof body.error === "string") return { code: body.error, message: body.error_description ?? body.error };
  return { code: body.error?.status ?? String(response.status), message: body.error?.message ?? `HTTP ${response.status}` };
}

/** POSTs a form to the token endpoint; `invalid_grant` is a connection Google no longer accepts. */
export async function tokenRequest(config: Config, form: Record<string, string>): Promise<TokenAnswer> {
  if (!config.GOOGLE_CLIENT_ID || !config.GOOGLE_CLIENT_SECRET) throw new GmailError("not_configured");
  const response = await reach(`${origin(config.GOOGLE_OAUTH_BASE)}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...form, client_id: config.GOOGLE_CLIENT_ID, client_secret: config.GOOGLE_CLIENT_SECRET }),
  });
  if (response.ok) {
    const answer = (await response.json()) as TokenAnswer;
    if (typeof answer.access_token !== "string" || typeof answer.expires_in !== "number") throw new GmailError("refused", "an unreadable token");
    return answer;
  }
  const { code, message } = await refusal(response);
  if (code === "invalid_grant") throw new GmailError("needs_reconnect");
  if (response.status >= 500) throw new GmailError("unavailable");
  throw new GmailError("refused", message);
}

/** Revokes a token at Google (and with a refresh token, the whole grant). True when Google confirmed it. */
export async function revokeToken(config: Config, token: string): Promise<boolean> {
  try {
    const response = await reach(`${origin(config.GOOGLE_OAUTH_BASE)}/revoke`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token }),
    });
    // A token Google no longer knows is revoked already.
    return response.ok || (response.status === 400 && (await refusal(response)).code === "invalid_token");
  } catch {
    return false;
  }
}

/** Calls the Gmail API as the mailbox's owner. 401 is `needs_reconnect` unless the caller retries with a fresh token. */
export async function gmailApi<T>(config: Config, accessToken: string, path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const response = await reach(`${origin(config.GMAIL_API_BASE)}/gmail/v1/users/me/${path}`, {
    method: init.method ?? "GET",
    headers: { Authorization: `Bearer ${accessToken}`, ...(init.json === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (response.ok) return (await response.json()) as T;
  if (response.status === 401) throw new GmailError("needs_reconnect");
  if (response.status === 404) throw new GmailError("not_found");
  if (response.status >= 500 || response.status === 429) throw new GmailError("unavailable");
  throw new GmailError("refused", (await refusal(response)).message);
}
