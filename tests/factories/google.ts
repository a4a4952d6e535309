import { env } from "cloudflare:workers";
import { inject } from "vitest";
import type { Env } from "~/lib/env.server";
import type { TestBrowser } from "./browser";

// The fake Google (tests/fakes/google-server.mjs): the Worker's settings pointed at it, its control endpoints, and
// the consent step a person would click through.

export const FAKE_CLIENT = { id: "porchlight-local.apps.fake-google.test", secret: "fake-google-client-secret" };

/** The Worker's settings with Gmail configured against the local fake Google. */
export function googleEnv(overrides: Partial<Env> = {}): Env {
  const base = inject("fakeGoogleBase");
  return {
    ...(env as Env),
    GOOGLE_CLIENT_ID: FAKE_CLIENT.id,
    GOOGLE_CLIENT_SECRET: FAKE_CLIENT.secret,
    GOOGLE_ACCOUNTS_BASE: base,
    GOOGLE_OAUTH_BASE: base,
    GMAIL_API_BASE: base,
    ...overrides,
  };
}

/** GETs (or with `json`, POSTs) a control endpoint of the fake. */
export async function fakeGoogle<T = unknown>(path: string, json?: unknown): Promise<T> {
  const response = await fetch(
    `${inject("fakeGoogleBase")}${path}`,
    json === undefined ? {} : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(json) },
  );
  if (!response.ok) throw new Error(`fake Google ${path} answered ${response.status}`);
  return (await response.json()) as T;
}

export const mailboxPath = (email: string) => `/__fake/mailboxes/${encodeURIComponent(email)}`;

/** Opens the consent page at `authorizeUrl` and answers it as the mailbox's owner; returns Google's redirect back. */
export async function consent(authorizeUrl: string, email: string, decision: "allow" | "cancel" = "allow", scope?: string): Promise<URL> {
  const page = await fetch(authorizeUrl);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  const id = /name="consent" value="([^"]+)"/.exec(html)![1]!;
  const form = new URLSearchParams({ consent: id, email, decision, ...(scope ? { scope } : {}) });
  const answer = await fetch(new URL("/o/oauth2/v2/auth/decide", authorizeUrl), {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: form.toString(),
    redirect: "manual",
  });
  return new URL(answer.headers.get("Location")!);
}

/** "Connect Gmail" clicked through: the app's redirect to Google, the consent, and the callback (its response). */
export async function connectGmail(browser: TestBrowser, email: string) {
  const start = await browser.post("/settings/gmail", { intent: "connect" });
  if (start.status !== 302) throw new Error(`connect answered ${start.status}`);
  const back = await consent(start.headers.get("Location")!, email);
  return browser.get(back.pathname + back.search);
}
