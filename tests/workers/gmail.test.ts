import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { gmailConnections } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { decryptToken } from "~/lib/token-crypto.server";
import { gmailAccessToken, tokenPurpose } from "~/modules/gmail/connection.server";
import {
  GmailError,
  getGmailConnection,
  MailFormatError,
  openGmailMailbox,
  sendWithGmail,
  threadMessages,
  type GmailConnectionSummary,
  type Mailbox,
} from "~/modules/gmail/mailbox.server";
import { codeChallenge, finishGmailConnect } from "~/modules/gmail/oauth.server";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { connectGmail, consent, FAKE_CLIENT, fakeGoogle, googleEnv, mailboxPath } from "../factories/google";
import { createAgent } from "../factories/users";

const SEND = "https://www.googleapis.com/auth/gmail.send";
const READ = "https://www.googleapis.com/auth/gmail.readonly";
const KEY = (env as Env).TOKEN_ENCRYPTION_KEY!;

const mailboxFor = () => `agent-${crypto.randomUUID().slice(0, 8)}@gmail.test`;
const rowOf = (userId: string) => requestContext().db.select().from(gmailConnections).where(eq(gmailConnections.userId, userId)).get();

async function agentWithBrowser(overrides: Partial<Env> = {}) {
  const agent = await createAgent(env.DB);
  const browser = (await signInAs(agent)).using(googleEnv(overrides));
  return { agent, browser, deps: requestContext(googleEnv(overrides)) };
}

/** An agent whose Gmail is connected through the whole flow; `accessSeconds` is how long the fake's access tokens live. */
async function connectedAgent(accessSeconds?: number) {
  const mailbox = mailboxFor();
  if (accessSeconds !== undefined) await fakeGoogle(`${mailboxPath(mailbox)}/settings`, { accessSeconds });
  const setup = await agentWithBrowser();
  const done = await connectGmail(setup.browser, mailbox);
  expect(done.status).toBe(302);
  expect(done.headers.get("Location")).toBe("/settings?tab=email");
  return { ...setup, mailbox };
}

/** The start of a connection: the consent URL the app redirected to, and its query. */
async function start(browser: Awaited<ReturnType<typeof agentWithBrowser>>["browser"]) {
  const response = await browser.post("/settings/gmail", { intent: "connect" });
  expect(response.status).toBe(302);
  const url = new URL(response.headers.get("Location")!);
  return { url, query: url.searchParams };
}

describe("connecting Gmail (OAuth with PKCE and state)", () => {
  it("sends the browser to Google with a fresh state, an S256 challenge of a stored verifier, and the two scopes", async () => {
    const { agent, browser } = await agentWithBrowser();
    const { url, query } = await start(browser);
    expect(`${url.origin}${url.pathname}`).toBe(`${googleEnv().GOOGLE_ACCOUNTS_BASE}/o/oauth2/v2/auth`);
    expect(query.get("client_id")).toBe(FAKE_CLIENT.id);
    expect(query.get("redirect_uri")).toBe("http://localhost/settings/gmail/callback");
    expect(query.get("response_type")).toBe("code");
    expect(query.get("scope")!.split(" ").sort()).toEqual([READ, SEND]);
    expect(query.get("code_challenge_method")).toBe("S256");
    expect(query.get("access_type")).toBe("offline");
    expect(query.get("prompt")).toBe("consent");
    const state = query.get("state")!;
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const pending = JSON.parse((await env.KV.get(`gmail_oauth:${state}`))!) as { userId: string; verifier: string };
    expect(pending.userId).toBe(agent.id);
    expect(pending.verifier.length).toBeGreaterThanOrEqual(43);
    expect(pending.verifier.length).toBeLessThanOrEqual(128);
    expect(query.get("code_challenge")).toBe(await codeChallenge(pending.verifier));
    // A second start is another state and verifier.
    const again = await start(browser);
    expect(again.query.get("state")).not.toBe(state);
    expect(again.query.get("code_challenge")).not.toBe(query.get("code_challenge"));
    // The fake saw what the browser would open, scopes included.
    await consent(url.toString(), mailboxFor(), "cancel");
    expect((await fakeGoogle<{ scope: string }[]>(`/__fake/auth-requests?state=${state}`))[0]!.scope).toBe(query.get("scope"));
  });

  it("stores the connection with its tokens encrypted, and they decrypt to tokens Google accepts", async () => {
    const { agent, mailbox, deps } = await connectedAgent();
    const row = (await rowOf(agent.id))!;
    expect(row).toMatchObject({ email: mailbox, status: "connected" });
    expect(row.scope.split(" ").sort()).toEqual([READ, SEND]);
    for (const stored of [row.accessToken, row.refreshToken]) expect(stored).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
    const access = await decryptToken(KEY, row.accessToken, tokenPurpose(agent.id, "access"));
    const refresh = await decryptToken(KEY, row.refreshToken, tokenPurpose(agent.id, "refresh"));
    expect(row.accessToken).not.toContain(access);
    expect(row.refreshToken).not.toContain(refresh);
    const profile = await fetch(`${googleEnv().GMAIL_API_BASE}/gmail/v1/users/me/profile`, { headers: { Authorization: `Bearer ${access}` } });
    expect(await profile.json()).toMatchObject({ emailAddress: mailbox });
    const summary: GmailConnectionSummary | null = await getGmailConnection(deps.db, agent.userId);
    expect(summary).toEqual({ email: mailbox, status: "connected", connectedAt: row.createdAt });
    // The tab shows it.
    const html = await (await agentBrowserPage(agent)).page("/settings?tab=email");
    expect(html).toContain(`Connected as <strong`);
    expect(html).toContain(mailbox);
  });

  it("refuses a missing, unknown, replayed, expired or another agent's state, and stores nothing", async () => {
    const { agent, browser, deps } = await agentWithBrowser();
    const other = await agentWithBrowser();
    const refusedWith = async (response: Response) => {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/settings?tab=email");
      const page = await browser.page("/settings?tab=email");
      return page;
    };
    expect(await refusedWith(await browser.get("/settings/gmail/callback?code=x"))).toContain("expired or was already used");
    expect(await refusedWith(await browser.get(`/settings/gmail/callback?code=x&state=${"a".repeat(43)}`))).toContain("expired or was already used");

    // Another agent's state: refused for them, and it is used up.
    const theirs = await start(browser);
    const back = await consent(theirs.url.toString(), mailboxFor());
    expect((await other.browser.get(back.pathname + back.search)).headers.get("Location")).toBe("/settings?tab=email");
    expect(await other.browser.page("/settings?tab=email")).toContain("expired or was already used");
    expect(await rowOf(other.agent.id)).toBeUndefined();
    await browser.get(back.pathname + back.search);
    expect(await rowOf(agent.id)).toBeUndefined();

    // Expired: eleven minutes after the start.
    const late = await start(browser);
    const lateBack = await consent(late.url.toString(), mailboxFor());
    const outcome = await finishGmailConnect(deps, agent.userId, lateBack.searchParams, Date.now() + 11 * 60_000);
    expect(outcome).toEqual({ ok: false, message: expect.stringContaining("expired") });
    expect(await rowOf(agent.id)).toBeUndefined();

    // Cancelled at Google.
    const cancelled = await start(browser);
    const cancelBack = await consent(cancelled.url.toString(), mailboxFor(), "cancel");
    expect(cancelBack.searchParams.get("error")).toBe("access_denied");
    await browser.get(cancelBack.pathname + cancelBack.search);
    expect(await browser.page("/settings?tab=email")).toContain("you did not allow it at Google");
    expect(await rowOf(agent.id)).toBeUndefined();

    // Only one of the two scopes ticked: refused, and the grant is given back.
    const partial = await start(browser);
    const partialBack = await consent(partial.url.toString(), mailboxFor(), "allow", SEND);
    await browser.get(partialBack.pathname + partialBack.search);
    expect(await browser.page("/settings?tab=email")).toContain("needs both permissions");
    expect(await rowOf(agent.id)).toBeUndefined();

    // Replayed: the first use connects, the same answer again is refused and changes nothing.
    const once = await start(browser);
    const onceBack = await consent(once.url.toString(), mailboxFor());
    await browser.get(onceBack.pathname + onceBack.search);
    const connected = (await rowOf(agent.id))!;
    expect(connected.status).toBe("connected");
    await browser.get(onceBack.pathname + onceBack.search);
    expect(await browser.page("/settings?tab=email")).toContain("expired or was already used");
    expect(await rowOf(agent.id)).toEqual(connected);
  });

  it("Google refuses a code with the wrong verifier, or used twice", async () => {
    const { browser } = await agentWithBrowser();
    const { url } = await start(browser);
    const back = await consent(url.toString(), mailboxFor());
    const exchange = (verifier: string) =>
      fetch(`${googleEnv().GOOGLE_OAUTH_BASE}/token`, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code: back.searchParams.get("code")!,
          redirect_uri: url.searchParams.get("redirect_uri")!,
          client_id: FAKE_CLIENT.id,
          client_secret: FAKE_CLIENT.secret,
          code_verifier: verifier,
        }),
      });
    const wrong = await exchange("x".repeat(64));
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant" });
  });

  it("says why Gmail cannot be connected without an encryption key, and does not start", async () => {
    const { browser } = await agentWithBrowser({ TOKEN_ENCRYPTION_KEY: "" });
    const html = await browser.page("/settings?tab=email");
    expect(html).toContain("Connecting Gmail is not available yet");
    expect(html).toContain("TOKEN_ENCRYPTION_KEY");
    expect(html).not.toContain(">Connect Gmail<");
    const response = await browser.post("/settings/gmail", { intent: "connect" });
    expect(response.headers.get("Location")).toBe("/settings?tab=email");
    const configured = await (await agentWithBrowser()).browser.page("/settings?tab=email");
    expect(configured).toContain("Connect Gmail");
  });
});

async function agentBrowserPage(agent: { email: string; password: string }) {
  return (await signInAs(agent)).using(googleEnv());
}

describe("keeping the connection working", () => {
  it("uses the stored token while it lasts, refreshes it within a minute of expiry and saves the new one encrypted", async () => {
    const { agent, deps } = await connectedAgent(30);
    const before = (await rowOf(agent.id))!;
    const stored = await decryptToken(KEY, before.accessToken, tokenPurpose(agent.id, "access"));
    const { accessToken } = await gmailAccessToken(deps, agent.userId);
    expect(accessToken).not.toBe(stored);
    const after = (await rowOf(agent.id))!;
    expect(after.accessToken).not.toBe(before.accessToken);
    expect(await decryptToken(KEY, after.accessToken, tokenPurpose(agent.id, "access"))).toBe(accessToken);
    expect(after.refreshToken).toBe(before.refreshToken);

    const lasting = await connectedAgent();
    const kept = await decryptToken(KEY, (await rowOf(lasting.agent.id))!.accessToken, tokenPurpose(lasting.agent.id, "access"));
    expect((await gmailAccessToken(lasting.deps, lasting.agent.userId)).accessToken).toBe(kept);
  });

  it("marks the connection needs_reconnect when Google refuses the refresh token, and says so", async () => {
    const { agent, deps, mailbox, browser } = await connectedAgent(30);
    await fakeGoogle(`${mailboxPath(mailbox)}/revoke-all`, {});
    const error = await gmailAccessToken(deps, agent.userId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GmailError);
    expect((error as GmailError).code).toBe("needs_reconnect");
    expect((error as GmailError).message).toContain("Gmail needs reconnecting");
    expect((await rowOf(agent.id))!.status).toBe("needs_reconnect");
    await expect(sendWithGmail(deps, agent.userId, { to: "lead@example.com", subject: "Hi", text: "Hello" })).rejects.toThrow("needs reconnecting");
    const html = await browser.page("/settings?tab=email");
    expect(html).toContain("Reconnect Gmail");
    // Reconnecting makes it work again.
    await connectGmail(browser, mailbox);
    expect((await rowOf(agent.id))!.status).toBe("connected");
  });

  it("disconnecting revokes the grant at Google and deletes the connection", async () => {
    const { agent, browser } = await connectedAgent();
    const refresh = await decryptToken(KEY, (await rowOf(agent.id))!.refreshToken, tokenPurpose(agent.id, "refresh"));
    const response = await browser.post("/settings/gmail", { intent: "disconnect" });
    expect(response.headers.get("Location")).toBe("/settings?tab=email");
    expect(await rowOf(agent.id)).toBeUndefined();
    expect(await fakeGoogle<string[]>("/__fake/revocations")).toContain(refresh);
    expect(await browser.page("/settings?tab=email")).toContain("revoked at Google");
  });

  it("the Mailbox seam revokes the same way, and then there is no mailbox", async () => {
    const { agent, deps, mailbox } = await connectedAgent();
    const opened: Mailbox | null = await openGmailMailbox(deps, agent.userId);
    expect(opened).toMatchObject({ provider: "gmail", address: mailbox });
    expect(await opened!.revoke()).toBe(true);
    expect(await openGmailMailbox(deps, agent.userId)).toBeNull();
    await expect(sendWithGmail(deps, agent.userId, { to: "a@example.com", subject: "x", text: "y" })).rejects.toMatchObject({
      code: "not_connected",
    });
  });

  it("deletes the connection even when Google cannot be reached, and says so", async () => {
    const { agent, mailbox } = await connectedAgent();
    const offline = (await signInAs(agent)).using(googleEnv({ GOOGLE_OAUTH_BASE: "http://127.0.0.1:9" }));
    await offline.post("/settings/gmail", { intent: "disconnect" });
    expect(await rowOf(agent.id)).toBeUndefined();
    const html = await offline.page("/settings?tab=email");
    expect(html).toContain("Google could not be reached");
    expect(html).not.toContain(mailbox);
  });

  it("another agent can neither see, use nor disconnect the connection", async () => {
    const owner = await connectedAgent();
    const sent = await sendWithGmail(owner.deps, owner.agent.userId, { to: "lead@example.com", subject: "Private", text: "Hello" });
    const other = await agentWithBrowser();
    expect(await getGmailConnection(other.deps.db, other.agent.userId)).toBeNull();
    expect(await other.browser.page("/settings?tab=email")).not.toContain(owner.mailbox);
    await other.browser.post("/settings/gmail", { intent: "disconnect" });
    expect((await rowOf(owner.agent.id))!.status).toBe("connected");
    await expect(threadMessages(other.deps, other.agent.userId, sent.threadId)).rejects.toMatchObject({ code: "not_connected" });
    // With a mailbox of their own, the owner's thread is not in it.
    await connectGmail(other.browser, mailboxFor());
    await expect(threadMessages(other.deps, other.agent.userId, sent.threadId)).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("the mailbox API", () => {
  type Sent = { id: string; threadId: string; raw: string; headers: { name: string; value: string }[]; text: string };
  const header = (message: Sent, name: string) => message.headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value;

  it("sends an RFC 5322 message with To, a UTF-8 subject, Reply-To and headers, and replies in the thread", async () => {
    const { agent, deps, mailbox } = await connectedAgent();
    const first = await sendWithGmail(deps, agent.userId, {
      to: "buyer@example.com",
      subject: "Visite du 12 — café crème ☕",
      text: "Bonjour,\nà demain.",
      html: "<p>Bonjour,<br>à demain.</p>",
      replyTo: "team@example.com",
      headers: { "X-Porchlight-Contact": "c_123" },
    });
    const [message] = await fakeGoogle<Sent[]>(`${mailboxPath(mailbox)}/sent`);
    expect(message!.id).toBe(first.messageId);
    expect(header(message!, "To")).toBe("buyer@example.com");
    expect(header(message!, "From")).toBe(mailbox);
    expect(header(message!, "Subject")).toMatch(/^=\?UTF-8\?B\?/);
    expect(decodeWords(header(message!, "Subject")!)).toBe("Visite du 12 — café crème ☕");
    expect(header(message!, "Reply-To")).toBe("team@example.com");
    expect(header(message!, "X-Porchlight-Contact")).toBe("c_123");
    expect(header(message!, "Content-Type")).toMatch(/^multipart\/alternative; boundary=/);
    expect(message!.text).toBe("Bonjour,\r\nà demain.");
    expect(first.rfcMessageId).toBe(header(message!, "Message-ID"));

    const reply = await sendWithGmail(deps, agent.userId, {
      to: "buyer@example.com",
      subject: "Re: Visite",
      text: "Une précision.",
      threadId: first.threadId,
      inReplyTo: first.rfcMessageId,
      references: first.rfcMessageId,
    });
    expect(reply.threadId).toBe(first.threadId);
    const second = (await fakeGoogle<Sent[]>(`${mailboxPath(mailbox)}/sent`)).find((m) => m.id === reply.messageId)!;
    expect(second.threadId).toBe(first.threadId);
    expect(header(second, "In-Reply-To")).toBe(first.rfcMessageId);
    expect(header(second, "Content-Type")).toBe("text/plain; charset=UTF-8");
    // A line break in a header is refused before anything is sent.
    await expect(sendWithGmail(deps, agent.userId, { to: "a@example.com\r\nBcc: b@example.com", subject: "x", text: "y" })).rejects.toBeInstanceOf(
      MailFormatError,
    );
    expect(await fakeGoogle<Sent[]>(`${mailboxPath(mailbox)}/sent`)).toHaveLength(2);
  });

  it("reads a thread with the contact's reply, and recovers when Gmail drops the access token", async () => {
    const { agent, deps, mailbox } = await connectedAgent();
    const sent = await sendWithGmail(deps, agent.userId, { to: "seller@example.com", subject: "Your listing", text: "Can we talk?" });
    await fakeGoogle(`${mailboxPath(mailbox)}/threads/${sent.threadId}/reply`, {
      from: "Sam Seller <seller@example.com>",
      text: "Yes — call me tomorrow.",
      at: Date.now() + 60_000,
    });
    await fakeGoogle(`${mailboxPath(mailbox)}/expire`, {});
    const messages = await threadMessages(deps, agent.userId, sent.threadId);
    expect(messages).toHaveLength(2);
    expect(messages[0]).toMatchObject({
      id: sent.messageId,
      to: "seller@example.com",
      subject: "Your listing",
      text: "Can we talk?",
      isFromMe: true,
    });
    expect(messages[1]).toMatchObject({ from: "Sam Seller <seller@example.com>", text: "Yes — call me tomorrow.", isFromMe: false });
    expect(messages[1]!.date).toBeGreaterThan(messages[0]!.date);
    await expect(threadMessages(deps, agent.userId, "../../profile")).rejects.toMatchObject({ code: "not_found" });
  });
});

function decodeWords(value: string): string {
  const bytes = value
    .split(/\s+/)
    .map((word) => /^=\?UTF-8\?B\?(.*)\?=$/.exec(word)![1]!)
    .flatMap((b64) => [...atob(b64)].map((c) => c.charCodeAt(0)));
  return new TextDecoder().decode(Uint8Array.from(bytes));
}
