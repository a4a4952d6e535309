import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_LIMITS } from "~/lib/rate-limit.server";
import { API_KEY_MESSAGES, MAX_API_KEYS } from "~/modules/intake/api-keys.server";
import { INTAKE_MESSAGES } from "~/modules/intake/intake";
import { LEAD_API_MESSAGES } from "~/modules/intake/lead-api.server";
import { rowsOf as rows } from "../factories/rows";
import { signInAs, type TestBrowser } from "../factories/browser";
import { agentOnShard1 } from "../factories/shards";
import { createUser, setSubscriptionStatus } from "../factories/users";

// The lead API (ADR 0066): keys made and revoked in Settings → Lead sources, POST /api/v1/leads with one, and the
// OpenAPI document. Every refusal answers JSON that says what to fix, and changes nothing.

async function makeKey(browser: TestBrowser, name = "Zapier") {
  const response = await browser.post("/settings/api-keys", { intent: "create", name });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { ok: boolean; key: string; name: string };
  expect(body).toMatchObject({ ok: true, name });
  return body.key;
}

function postLead(key: string | null, body: unknown, headers: Record<string, string> = {}) {
  return SELF.fetch("http://localhost/api/v1/leads", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(key ? { Authorization: `Bearer ${key}` } : {}), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const LEAD = {
  name: "Priya Shah",
  email: "priya.shah@example.com",
  phone: "512-555-0180",
  message: "Saw the listing on Facebook. Can we see it Saturday?",
  source: "social_media",
  property: { address: "77 Willow Way, Austin, TX 78745", mls: "9911223", price: 415000, url: "https://example-idx.test/77-willow" },
  tags: ["facebook ad"],
  unknownField: "ignored",
};

describe("keys", () => {
  it("made in Settings, shown once, kept as a hash; listed by name and last four characters", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const key = await makeKey(browser, "My website");
    expect(key).toMatch(/^pl_[A-Za-z0-9_-]{32}$/);
    const [stored] = await rows<{ key_hash: string; hint: string }>(env.DB, "select key_hash, hint from api_keys where user_id = ?", user.id);
    expect(stored!.key_hash).not.toContain(key.slice(3));
    expect(stored!.hint).toBe(key.slice(-4));
    const page = (await browser.page("/settings?tab=leads")).replace(/<!-- -->/g, "");
    expect(page).toContain("My website");
    expect(page).toContain(`…${key.slice(-4)}`);
    expect(page).not.toContain(key);
    expect((await browser.post("/settings/api-keys", { intent: "create", name: "  " })).status).toBe(400);
  });

  it(`at most ${MAX_API_KEYS} live keys; revoking one (only the agent's own) stops it at once`, async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const keys: string[] = [];
    for (let i = 0; i < MAX_API_KEYS; i++) keys.push(await makeKey(browser, `Key ${i}`));
    const over = await browser.post("/settings/api-keys", { intent: "create", name: "One more" });
    expect(over.status).toBe(400);
    expect(await over.json()).toMatchObject({ ok: false, error: API_KEY_MESSAGES.tooMany });

    const [first] = await rows<{ id: string }>(env.DB, "select id from api_keys where user_id = ? and name = 'Key 0'", user.id);
    const other = await signInAs(await createUser(env.DB));
    expect((await other.post("/settings/api-keys", { intent: "revoke", id: first!.id })).status).toBe(404);
    expect((await postLead(keys[0]!, { name: "Before", email: "before@example.com" })).status).toBe(201);
    expect((await browser.post("/settings/api-keys", { intent: "revoke", id: first!.id })).status).toBe(200);
    const refused = await postLead(keys[0]!, { name: "After", email: "after@example.com" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: LEAD_API_MESSAGES.badKey });
    expect(await rows(env.DB, "select name from contacts where user_id = ? and name = 'After'", user.id)).toEqual([]);
    expect(await makeKey(browser, "Replacement")).toMatch(/^pl_/);
  });
});

describe("POST /api/v1/leads", () => {
  it("a new lead: a hot contact with its source, tags, property and speed to lead from now, its alert raised", async () => {
    const user = await createUser(env.DB);
    const key = await makeKey(await signInAs(user));
    const before = Date.now();
    const response = await postLead(key, LEAD);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { status: string; contact: { id: string; name: string } };
    expect(body).toEqual({ status: "created", contact: { id: expect.any(String), name: "Priya Shah" } });
    const [contact] = await rows<Record<string, unknown>>(
      env.DB,
      "select name, email, phone, source, status, tags, notes, lead_at from contacts where id = ?",
      body.contact.id,
    );
    expect(contact).toMatchObject({
      name: "Priya Shah",
      email: "priya.shah@example.com",
      phone: "512-555-0180",
      source: "social_media",
      status: "hot",
    });
    expect(JSON.parse(contact!.tags as string)).toEqual(["facebook ad"]);
    expect(contact!.notes).toContain("Can we see it Saturday?");
    expect(contact!.lead_at as number).toBeGreaterThanOrEqual(before);
    expect(await rows(env.DB, "select address, mls_number, price_cents, url from properties where contact_id = ?", body.contact.id)).toEqual([
      { address: "77 Willow Way, Austin, TX 78745", mls_number: "9911223", price_cents: 41_500_000, url: "https://example-idx.test/77-willow" },
    ]);
    expect(await rows(env.DB, "select contact_id from lead_alerts where contact_id = ?", body.contact.id)).toHaveLength(1);
    const [used] = await rows<{ last_used_at: number }>(env.DB, "select last_used_at from api_keys where user_id = ?", user.id);
    expect(used!.last_used_at).toBeGreaterThanOrEqual(before);
  });

  it("an Idempotency-Key answers a retry as the first call did; the same person again is an enquiry on their contact", async () => {
    const user = await createUser(env.DB);
    const key = await makeKey(await signInAs(user));
    const idem = { "Idempotency-Key": `zap-run ${crypto.randomUUID()}` };
    const first = await postLead(key, LEAD, idem);
    const again = await postLead(key, LEAD, idem);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toHaveLength(1);

    const enquiry = await postLead(key, { name: "Priya S.", phone: "(512) 555-0180", message: "Also interested in 79 Willow Way." });
    expect(enquiry.status).toBe(200);
    const answered = (await enquiry.json()) as { status: string; contact: { id: string; name: string } };
    expect(answered).toMatchObject({ status: "attached", contact: { name: "Priya Shah" } });
    expect(await rows(env.DB, "select type, notes from crm_activities where contact_id = ?", answered.contact.id)).toEqual([
      { type: "enquiry", notes: "Also interested in 79 Willow Way." },
    ]);
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toHaveLength(1);
  });

  it("refuses, in JSON, with what to fix: no key, a wrong key, not JSON, a bad lead, a bad Idempotency-Key; nothing is made", async () => {
    const user = await createUser(env.DB);
    const key = await makeKey(await signInAs(user));
    const missing = await postLead(null, LEAD);
    expect(missing.status).toBe(401);
    expect(missing.headers.get("WWW-Authenticate")).toContain("Bearer");
    expect(await missing.json()).toEqual({ error: LEAD_API_MESSAGES.noKey });
    expect((await postLead("pl_not-a-real-key-0000000000000000", LEAD)).status).toBe(401);
    expect((await postLead(`${key}x`, LEAD)).status).toBe(401);

    const text = await SELF.fetch("http://localhost/api/v1/leads", {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "text/plain" },
      body: "name=Priya",
    });
    expect(text.status).toBe(415);
    expect((await postLead(key, "{not json")).status).toBe(400);

    const cases: [unknown, string][] = [
      [{ email: "a@example.com" }, "name"],
      [{ name: "No Way To Reach" }, "email"],
      [{ name: "Bad Mail", email: "not-an-email" }, "email"],
      [{ name: "Bad Source", email: "s@example.com", source: "billboard" }, "source"],
      [{ name: "Bad Link", email: "l@example.com", property: { url: "javascript:alert(1)" } }, "property.url"],
      [{ name: "Bad Price", email: "p@example.com", property: { price: "lots" } }, "property.price"],
    ];
    for (const [body, field] of cases) {
      const response = await postLead(key, body);
      expect(response.status, field).toBe(400);
      const answer = (await response.json()) as { error: string; fields: Record<string, string> };
      expect(Object.keys(answer.fields), JSON.stringify(answer)).toContain(field);
      expect(answer.error).toBe(answer.fields[field] ?? answer.error);
    }
    const badKey = await postLead(key, LEAD, { "Idempotency-Key": "   " });
    expect(badKey.status).toBe(400);
    expect(await badKey.json()).toEqual({ error: LEAD_API_MESSAGES.idempotencyKey });
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toEqual([]);
  });

  it("over the per-minute limit: 429 with Retry-After; an account whose subscription ended: 403", async () => {
    const user = await createUser(env.DB);
    const key = await makeKey(await signInAs(user));
    const [row] = await rows<{ id: string }>(env.DB, "select id from api_keys where user_id = ?", user.id);
    const windowMs = RATE_LIMITS.leadApi.windowSeconds * 1000;
    const start = Math.floor(Date.now() / windowMs) * windowMs;
    for (const window of [start, start + windowMs]) await env.KV.put(`rl:lead-api:${row!.id}:${window}`, String(RATE_LIMITS.leadApi.limit));
    const limited = await postLead(key, LEAD);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
    for (const window of [start, start + windowMs]) await env.KV.delete(`rl:lead-api:${row!.id}:${window}`);

    await setSubscriptionStatus(env.DB, user.id, "canceled");
    const lapsed = await postLead(key, LEAD);
    expect(lapsed.status).toBe(403);
    expect(await lapsed.json()).toEqual({ error: INTAKE_MESSAGES.inactive });
    expect(await rows(env.DB, "select id from contacts where user_id = ?", user.id)).toEqual([]);
  });

  it("a key of an agent on the second database names it: the lead is made there", async () => {
    const agent = await agentOnShard1();
    const key = await makeKey(await signInAs(agent));
    expect(key).toMatch(/^pl_s1_/);
    expect((await postLead(key, { name: "Far Lead", email: "far@example.com", source: "zillow" })).status).toBe(201);
    expect(await rows(env.DB_SHARD_1, "select source from contacts where user_id = ? and name = 'Far Lead'", agent.id)).toEqual([
      { source: "zillow" },
    ]);
    expect(await rows(env.DB, "select id from contacts where user_id = ?", agent.id)).toEqual([]);
  });
});

describe("GET /api/v1/openapi.json", () => {
  it("describes the endpoint with the schema it checks with", async () => {
    const response = await SELF.fetch("http://localhost/api/v1/openapi.json");
    expect(response.status).toBe(200);
    const doc = (await response.json()) as {
      openapi: string;
      paths: Record<string, { post: { responses: Record<string, unknown> } }>;
      components: { schemas: { Lead: { properties: Record<string, { enum?: string[] }>; required: string[] } } };
    };
    expect(doc.openapi).toBe("3.0.3");
    expect(Object.keys(doc.paths["/api/v1/leads"]!.post.responses).sort()).toEqual(["200", "201", "400", "401", "403", "413", "415", "429"]);
    expect(doc.components.schemas.Lead.required).toEqual(["name"]);
    expect(doc.components.schemas.Lead.properties.source!.enum).toContain("zillow");
  });
});
