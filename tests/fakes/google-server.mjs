// A small local stand-in for Google's OAuth 2.0 and Gmail HTTP APIs: only the endpoints Porchlight calls, in-memory
// state, Google-shaped JSON. The Worker reaches it through GOOGLE_ACCOUNTS_BASE / GOOGLE_OAUTH_BASE / GMAIL_API_BASE,
// so every request crosses real HTTP. Used by the worker tests, the end-to-end server and `npm start` (a demo
// mailbox with no internet). Control endpoints under /__fake let a test look and steer. Node built-ins only.
import { createServer } from "node:http";
import { createHash, randomBytes } from "node:crypto";

export const FAKE_GOOGLE_CLIENT = { id: "porchlight-local.apps.fake-google.test", secret: "fake-google-client-secret" };
const DEMO_MAILBOX = "demo.agent@gmail.test";
const SCOPES = new Set(["https://www.googleapis.com/auth/gmail.send", "https://www.googleapis.com/auth/gmail.readonly"]);

const token = (prefix) => `${prefix}${randomBytes(18).toString("base64url")}`;
const hexId = () => randomBytes(8).toString("hex");
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Headers and text of a raw RFC 5322 message (enough of MIME for what Porchlight sends). */
function parseRaw(raw) {
  const text = raw.replace(/\r\n/g, "\n");
  const split = text.indexOf("\n\n");
  const head = text.slice(0, split).replace(/\n[ \t]+/g, " ");
  const headers = head.split("\n").map((line) => ({ name: line.slice(0, line.indexOf(":")), value: line.slice(line.indexOf(":") + 1).trim() }));
  return { headers, raw: text };
}
const headerOf = (headers, name) => headers.find((h) => h.name.toLowerCase() === name.toLowerCase())?.value ?? "";

export function startFakeGoogle({ port = 0, host = "127.0.0.1" } = {}) {
  const fresh = () => ({
    clients: new Map([[FAKE_GOOGLE_CLIENT.id, FAKE_GOOGLE_CLIENT.secret]]),
    authRequests: [], // every GET /o/oauth2/v2/auth, newest last
    pending: new Map(), // consent id -> the auth request
    codes: new Map(), // code -> { clientId, redirectUri, challenge, email, scope, used }
    access: new Map(), // access token -> { email, expiresAt }
    refresh: new Map(), // refresh token -> { email, clientId, scope, revoked }
    mailboxes: new Map(), // email -> { accessSeconds, threads: Map(id -> [message]) }
    revocations: [],
    requests: [],
  });
  let state = fresh();
  const mailbox = (email) => {
    const key = email.toLowerCase();
    if (!state.mailboxes.has(key)) state.mailboxes.set(key, { accessSeconds: 3600, threads: new Map() });
    return state.mailboxes.get(key);
  };
  const issueAccess = (email) => {
    const accessToken = token("ya29.fake-");
    const seconds = mailbox(email).accessSeconds;
    state.access.set(accessToken, { email, expiresAt: Date.now() + seconds * 1000 });
    return { accessToken, seconds };
  };
  const oauthError = (status, error, description) => [status, { error, error_description: description }];
  const apiError = (status, message) => [status, { error: { code: status, message, status: status === 401 ? "UNAUTHENTICATED" : "NOT_FOUND" } }];
  const messageResource = (message, format) => ({
    id: message.id,
    threadId: message.threadId,
    labelIds: message.labelIds,
    internalDate: String(message.internalDate),
    snippet: message.text.slice(0, 100),
    payload:
      format === "metadata"
        ? { headers: message.headers }
        : {
            mimeType: "multipart/alternative",
            headers: message.headers,
            parts: [
              { mimeType: "text/plain", headers: [], body: { size: message.text.length, data: Buffer.from(message.text).toString("base64url") } },
            ],
          },
  });
  const decodeBody = (raw) => {
    // The first text/plain part of what Porchlight sent (base64 bodies), or the whole body.
    const match = /Content-Type: text\/plain[^\n]*\nContent-Transfer-Encoding: base64\n\n([\s\S]*?)(\n--|\n?$)/i.exec(raw);
    return match ? Buffer.from(match[1].replace(/\s+/g, ""), "base64").toString("utf8") : raw.slice(raw.indexOf("\n\n") + 2);
  };

  function consentPage(id, request) {
    const scopes = request.scope.split(" ");
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in with Google (local test stand-in)</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1c1917;background:#fafaf9}
@media (prefers-color-scheme:dark){body{color:#f5f5f4;background:#1c1917}input{background:#292524;color:#f5f5f4}}
.note{border:2px dashed #b45309;padding:.5rem .75rem;border-radius:.5rem}button,input{font:inherit;padding:.6rem 1rem;border-radius:.5rem;min-height:44px}
button{border:1px solid #78716c;cursor:pointer}button[value=allow]{background:#1d4ed8;color:#fff;border-color:#1d4ed8}
:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}label{display:block;margin:1rem 0 .25rem;font-weight:600}input{width:100%;box-sizing:border-box;border:1px solid #78716c}</style></head>
<body><main>
<p class="note" role="note"><strong>Local test stand-in for Google.</strong> No real Google account is used and nothing leaves this computer.</p>
<h1>Porchlight wants to send e-mail as you and read the replies to e-mail it sent</h1>
<p>It asks for:</p><ul>${scopes.map((s) => `<li><code>${escape(s)}</code></li>`).join("")}</ul>
<form method="post" action="/o/oauth2/v2/auth/decide">
<input type="hidden" name="consent" value="${escape(id)}">
<label for="email">Demo mailbox</label><input id="email" name="email" type="email" required value="${escape(request.login_hint || DEMO_MAILBOX)}" autocomplete="off">
<p style="display:flex;gap:.75rem;margin-top:1.5rem"><button type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="cancel">Cancel</button></p>
</form></main></body></html>`;
  }

  const routes = [
    [
      "GET",
      /^\/o\/oauth2\/v2\/auth$/,
      ({ query }) => {
        const request = Object.fromEntries(query);
        state.authRequests.push(request);
        if (!state.clients.has(request.client_id)) return [400, "<p>Error 401: invalid_client</p>", "text/html"];
        if (!request.redirect_uri || request.response_type !== "code") return [400, "<p>Error 400: invalid_request</p>", "text/html"];
        if (request.code_challenge_method !== "S256" || !/^[A-Za-z0-9_-]{43}$/.test(request.code_challenge ?? ""))
          return [400, "<p>Error 400: invalid_request (PKCE S256 required)</p>", "text/html"];
        const id = token("consent-");
        state.pending.set(id, request);
        return [200, consentPage(id, request), "text/html"];
      },
    ],
    [
      "POST",
      /^\/o\/oauth2\/v2\/auth\/decide$/,
      ({ form }) => {
        const request = state.pending.get(form.get("consent"));
        if (!request) return [400, "<p>This consent page has expired.</p>", "text/html"];
        state.pending.delete(form.get("consent"));
        const back = new URL(request.redirect_uri);
        if (form.get("decision") !== "allow") {
          back.search = new URLSearchParams({ error: "access_denied", state: request.state ?? "" }).toString();
          return [302, back.toString()];
        }
        const code = token("4/fake-code-");
        const email = (form.get("email") || DEMO_MAILBOX).toLowerCase();
        // A test may grant fewer scopes than asked (Google lets a scope be unticked).
        const scope = (form.get("scope") ?? request.scope)
          .split(" ")
          .filter((s) => SCOPES.has(s))
          .join(" ");
        state.codes.set(code, {
          clientId: request.client_id,
          redirectUri: request.redirect_uri,
          challenge: request.code_challenge,
          email,
          scope,
          used: false,
        });
        back.search = new URLSearchParams({ code, state: request.state ?? "", scope }).toString();
        return [302, back.toString()];
      },
    ],
    [
      "POST",
      /^\/token$/,
      ({ form }) => {
        const clientId = form.get("client_id");
        if (!state.clients.has(clientId) || state.clients.get(clientId) !== form.get("client_secret"))
          return oauthError(401, "invalid_client", "The OAuth client was not found.");
        if (form.get("grant_type") === "authorization_code") {
          const grant = state.codes.get(form.get("code"));
          if (!grant || grant.used || grant.clientId !== clientId) return oauthError(400, "invalid_grant", "Malformed auth code.");
          grant.used = true;
          if (grant.redirectUri !== form.get("redirect_uri")) return oauthError(400, "redirect_uri_mismatch", "Bad Request");
          const verifier = form.get("code_verifier") ?? "";
          const challenge = createHash("sha256").update(verifier).digest("base64url");
          if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier) || challenge !== grant.challenge)
            return oauthError(400, "invalid_grant", "Invalid code verifier.");
          const refreshToken = token("1//fake-refresh-");
          state.refresh.set(refreshToken, { email: grant.email, clientId, scope: grant.scope, revoked: false });
          const { accessToken, seconds } = issueAccess(grant.email);
          return [200, { access_token: accessToken, expires_in: seconds, refresh_token: refreshToken, scope: grant.scope, token_type: "Bearer" }];
        }
        if (form.get("grant_type") === "refresh_token") {
          const grant = state.refresh.get(form.get("refresh_token"));
          if (!grant || grant.revoked || grant.clientId !== clientId) return oauthError(400, "invalid_grant", "Token has been expired or revoked.");
          const { accessToken, seconds } = issueAccess(grant.email);
          return [200, { access_token: accessToken, expires_in: seconds, scope: grant.scope, token_type: "Bearer" }];
        }
        return oauthError(400, "unsupported_grant_type", "Invalid grant_type.");
      },
    ],
    [
      "POST",
      /^\/revoke$/,
      ({ form }) => {
        const value = form.get("token");
        state.revocations.push(value);
        const grant = state.refresh.get(value);
        const access = state.access.get(value);
        if (!grant && !access) return oauthError(400, "invalid_token", "Token expired or revoked");
        const email = grant?.email ?? access.email;
        // Revoking a refresh token ends the whole grant: its access tokens too.
        if (grant) grant.revoked = true;
        for (const [key, issued] of state.access) if (issued.email === email && (grant || key === value)) state.access.delete(key);
        return [200, {}];
      },
    ],
    ["GET", /^\/gmail\/v1\/users\/me\/profile$/, ({ me }) => [200, { emailAddress: me, messagesTotal: 0, threadsTotal: 0, historyId: "1" }]],
    [
      "POST",
      /^\/gmail\/v1\/users\/me\/messages\/send$/,
      ({ me, json }) => {
        if (typeof json.raw !== "string") return apiError(400, "Invalid raw");
        const parsed = parseRaw(Buffer.from(json.raw, "base64url").toString("utf8"));
        const box = mailbox(me);
        if (json.threadId && !box.threads.has(json.threadId)) return apiError(404, "Requested entity was not found.");
        const threadId = json.threadId ?? hexId();
        const message = {
          id: hexId(),
          threadId,
          labelIds: ["SENT"],
          internalDate: Date.now(),
          headers: parsed.headers,
          raw: parsed.raw,
          text: decodeBody(parsed.raw),
        };
        if (!box.threads.has(threadId)) box.threads.set(threadId, []);
        box.threads.get(threadId).push(message);
        return [200, { id: message.id, threadId, labelIds: ["SENT"] }];
      },
    ],
    [
      "GET",
      /^\/gmail\/v1\/users\/me\/messages\/([\w-]+)$/,
      ({ me, params: [id], query }) => {
        for (const messages of mailbox(me).threads.values()) {
          const message = messages.find((m) => m.id === id);
          if (message) return [200, messageResource(message, query.get("format"))];
        }
        return apiError(404, "Requested entity was not found.");
      },
    ],
    [
      "GET",
      /^\/gmail\/v1\/users\/me\/threads\/([\w-]+)$/,
      ({ me, params: [id], query }) => {
        const messages = mailbox(me).threads.get(id);
        if (!messages) return apiError(404, "Requested entity was not found.");
        return [200, { id, historyId: "1", messages: messages.map((m) => messageResource(m, query.get("format"))) }];
      },
    ],
    // Test controls.
    [
      "POST",
      /^\/__fake\/reset$/,
      () => {
        state = fresh();
        return [200, { ok: true }];
      },
    ],
    ["GET", /^\/__fake\/auth-requests\/last$/, () => [200, state.authRequests.at(-1) ?? null]],
    [
      "GET",
      /^\/__fake\/auth-requests$/,
      ({ query }) => [200, state.authRequests.filter((r) => !query.get("state") || r.state === query.get("state"))],
    ],
    ["GET", /^\/__fake\/revocations$/, () => [200, state.revocations]],
    [
      "GET",
      /^\/__fake\/mailboxes\/([^/]+)\/sent$/,
      ({ params: [email] }) => {
        const sent = [...mailbox(decodeURIComponent(email)).threads.values()].flat().filter((m) => m.labelIds.includes("SENT"));
        return [200, sent.map(({ id, threadId, headers, raw, text }) => ({ id, threadId, headers, raw, text }))];
      },
    ],
    [
      "POST",
      /^\/__fake\/mailboxes\/([^/]+)\/settings$/,
      ({ params: [email], json }) => {
        if (json.accessSeconds !== undefined) mailbox(decodeURIComponent(email)).accessSeconds = Number(json.accessSeconds);
        return [200, { ok: true }];
      },
    ],
    [
      // Every access token of the mailbox stops working now (the refresh tokens still work).
      "POST",
      /^\/__fake\/mailboxes\/([^/]+)\/expire$/,
      ({ params: [email] }) => {
        const key = decodeURIComponent(email).toLowerCase();
        for (const issued of state.access.values()) if (issued.email === key) issued.expiresAt = 0;
        return [200, { ok: true }];
      },
    ],
    [
      // The owner removed Porchlight in their Google account: refresh tokens give invalid_grant from now on.
      "POST",
      /^\/__fake\/mailboxes\/([^/]+)\/revoke-all$/,
      ({ params: [email] }) => {
        const key = decodeURIComponent(email).toLowerCase();
        for (const grant of state.refresh.values()) if (grant.email === key) grant.revoked = true;
        for (const [value, issued] of state.access) if (issued.email === key) state.access.delete(value);
        return [200, { ok: true }];
      },
    ],
    [
      // A reply from `from` into a thread of the mailbox (text, optionally html only).
      "POST",
      /^\/__fake\/mailboxes\/([^/]+)\/threads\/([\w-]+)\/reply$/,
      ({ params: [email, threadId], json }) => {
        const box = mailbox(decodeURIComponent(email));
        const messages = box.threads.get(threadId);
        if (!messages) return [404, { error: "no such thread" }];
        const first = messages[0];
        const message = {
          id: hexId(),
          threadId,
          labelIds: ["INBOX", "UNREAD"],
          internalDate: json.at ?? Date.now(),
          headers: [
            { name: "From", value: json.from },
            { name: "To", value: decodeURIComponent(email) },
            { name: "Subject", value: json.subject ?? `Re: ${headerOf(first.headers, "Subject")}` },
            { name: "In-Reply-To", value: headerOf(first.headers, "Message-ID") },
          ],
          raw: "",
          text: json.text ?? "",
        };
        messages.push(message);
        return [200, { id: message.id, threadId }];
      },
    ],
  ];

  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url, "http://fake");
      const isJson = (req.headers["content-type"] ?? "").includes("json");
      let json = {};
      try {
        json = isJson && raw ? JSON.parse(raw) : {};
      } catch {
        json = {};
      }
      const form = new URLSearchParams(isJson ? "" : raw);
      if (!url.pathname.startsWith("/__fake")) state.requests.push({ method: req.method, path: url.pathname });
      const route = routes.find(([method, pattern]) => method === req.method && pattern.test(url.pathname));
      let answer;
      if (!route) answer = [404, { error: { code: 404, message: `Not found: ${req.method} ${url.pathname}` } }];
      else {
        // The Gmail API needs a live access token; the mailbox is its owner's.
        let me = null;
        if (url.pathname.startsWith("/gmail/")) {
          const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
          const issued = bearer ? state.access.get(bearer) : undefined;
          if (!issued || issued.expiresAt <= Date.now()) answer = apiError(401, "Request had invalid authentication credentials.");
          else me = issued.email;
        }
        answer ??= route[2]({ params: url.pathname.match(route[1]).slice(1), query: url.searchParams, form, json, me });
      }
      const [status, payload, type] = answer;
      if (status === 302) {
        res.writeHead(302, { Location: payload });
        res.end();
        return;
      }
      res.writeHead(status, { "Content-Type": type === "text/html" ? "text/html; charset=utf-8" : "application/json; charset=utf-8" });
      res.end(type === "text/html" ? payload : JSON.stringify(payload));
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve({ server, port: server.address().port, state: () => state })));
}
