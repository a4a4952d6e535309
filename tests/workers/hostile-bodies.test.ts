import { env } from "cloudflare:workers";
import type { ServerBuild } from "@remix-run/cloudflare";
import { describe, expect, it } from "vitest";
// The production build the Worker serves: its `routes` are every route module, so a new route is tested here
// without anyone adding it.
// @ts-expect-error -- build output has no type declarations
import * as remixBuild from "../../build/server/index.js";
import { api } from "../../workers/api";
import { eq } from "drizzle-orm";
import { createDb } from "~/db/client.server";
import { teams } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { ContactInputSchema } from "~/modules/contacts/contact.schema";
import { createContact } from "~/modules/contacts/contacts.server";
import { createDeal } from "~/modules/deals/deals.server";
import { FORM_MAX_BYTES } from "~/lib/body.server";
import { getStages } from "~/modules/pipeline/stages.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { dealInput } from "../factories/deals";
import { createUser } from "../factories/users";

const build = remixBuild as unknown as ServerBuild;
const ORIGIN = "http://localhost";
const encode = (text: string) => new TextEncoder().encode(text);

/** Bodies an action cannot read as its form (or JSON), each as a browser, script or proxy could send it. */
const BAD_BODIES: { kind: string; headers: Record<string, string>; body: BodyInit }[] = [
  { kind: "JSON", headers: { "Content-Type": "application/json" }, body: '{"intent":"create","name":"x"}' },
  { kind: "broken JSON", headers: { "Content-Type": "application/json" }, body: '{"intent":' },
  { kind: "text/plain", headers: { "Content-Type": "text/plain" }, body: "intent=create" },
  // A Uint8Array body gets no Content-Type of its own.
  { kind: "no Content-Type", headers: {}, body: encode("intent=create") },
  {
    kind: "multipart without a boundary",
    headers: { "Content-Type": "multipart/form-data" },
    body: '--x\r\nContent-Disposition: form-data; name="intent"\r\n\r\ncreate\r\n--x--\r\n',
  },
  { kind: "multipart with a broken body", headers: { "Content-Type": "multipart/form-data; boundary=abc" }, body: "this is not multipart" },
  {
    kind: "form in another charset",
    headers: { "Content-Type": "application/x-www-form-urlencoded; charset=iso-8859-1" },
    body: new Uint8Array([...encode("intent=caf"), 0xe9]),
  },
  {
    kind: "form over the size limit",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: `intent=create&notes=${"a".repeat(FORM_MAX_BYTES)}`,
  },
];

/** Actions that take no input at all (their answer does not depend on the body, so any body is fine). */
// routes/qa.run starts the QA Dashboard's run on a button press and reads no body; both QA routes answer 404 before
// reading anything with QA_PAGE off, as here (qa.test.ts posts a bad category to routes/qa-test.run with it on).
// Each answers what it answers to any post, whatever the body: a confirmed account's "resend the link" goes to the
// dashboard; the billing portal, with no Stripe customer here, to pricing with a toast. Remix's `.data` URL answers a
// redirect with 202 and the redirect in its body.
const IGNORES_BODY: Record<string, { status: number; location: string | null; data: number }> = {
  "routes/auth_.verify-email": { status: 302, location: "/dashboard", data: 202 },
  "routes/billing.portal": { status: 302, location: "/pricing?billing=expired", data: 202 },
  "routes/qa.run": { status: 404, location: null, data: 404 },
  "routes/qa-test.run": { status: 404, location: null, data: 404 },
  // A passkey's options (ADR 0074) are made from the session, never from a body: a fresh challenge for a signed-in
  // agent; the sign-in's second step answers 401 to anyone without a pending sign-in.
  "routes/_app.settings_.security_.passkey-options": { status: 200, location: null, data: 200 },
  "routes/auth_.two-factor_.passkey-options": { status: 401, location: null, data: 401 },
};
/** Admin routes: others get 404 before any body is read, so their bodies are tried as an admin. */
const ADMIN = new Set(["routes/_app.operations", "routes/_app.operations_.export[.]json"]);
/** Team routes: 404 for a Solo agent before any body is read, so their bodies are tried as a team's owner. */
const TEAM = new Set([
  "routes/_app.team",
  "routes/_app.team_.pipeline",
  "routes/_app.team_.leads",
  "routes/_app.team_.contacts.$id",
  "routes/_app.team_.routing",
]);
/** Routes anyone may post to, so they are also tried signed out. */
const PUBLIC = new Set([
  "routes/auth",
  "routes/auth_.forgot",
  "routes/auth_.reset",
  "routes/auth_.signout",
  "routes/contact",
  "routes/account.keep",
  "routes/inquire.$key",
]);

/** The URL path of a route module, with its parameters filled from `params`; index routes get `?index` as Remix's forms send. */
function pathOf(id: string, params: Record<string, string>): string {
  const parts: string[] = [];
  for (let route = build.routes[id]; route; route = route.parentId ? build.routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  const path = `/${parts.join("/")}`.replace(/:(\w+)\??/g, (_, name: string) => params[name] ?? crypto.randomUUID()).replace(/\*$/, "anything");
  return build.routes[id]!.index ? `${path}?index` : path;
}

/** A signed-in subscriber with a contact and a deal of their own, so `$id` routes reach their body. */
async function subscriber(role: "user" | "admin" = "user") {
  const user = await createUser(env.DB, { role });
  const contact = await createContact(
    requestContext(),
    user.id as UserId,
    ContactInputSchema.parse({ name: "Hostile Body", email: "hostile@example.com" }),
  );
  const deal = await createDeal(requestContext(), user.id as UserId, dealInput({ title: "Hostile deal", contactId: contact.id }));
  if (!deal.ok) throw new Error("deal not created");
  return {
    browser: await signInAs(user),
    userId: user.id as UserId,
    ids: { "routes/_app.contacts.$id": contact.id, "routes/_app.deals.$id": deal.deal.id } as Record<string, string>,
  };
}

/** A user in the local test-mode checkout, whose checkout id the test-checkout route needs. */
async function inCheckout() {
  const browser = await signInAs(await createUser(env.DB, { status: "inactive" }));
  const started = await browser.post("/trial/start", { period: "monthly" });
  const location = started.headers.get("Location") ?? "";
  expect(location).toMatch(/^\/billing\/test-checkout\/[\w-]+$/);
  return { browser, id: location.split("/").pop()! };
}

/** A lead API key of the signed-in agent's, as Settings → Lead sources makes one. */
async function leadApiKey(browser: TestBrowser) {
  const made = await browser.post("/settings/api-keys", { intent: "create", name: "Hostile bodies" });
  return ((await made.json()) as { key: string }).key;
}

async function post(browser: TestBrowser, path: string, bad: (typeof BAD_BODIES)[number]) {
  const response = await browser.fetch(path, { method: "POST", headers: { Origin: ORIGIN, ...bad.headers }, body: bad.body });
  return {
    status: response.status,
    location: response.headers.get("Location"),
    type: response.headers.get("Content-Type") ?? "",
    text: await response.text(),
  };
}

const actionRoutes = Object.values(build.routes)
  .filter((route) => route.module.action)
  .map((route) => route.id)
  .sort();

describe("a body an action cannot read answers 4xx, never 500", () => {
  it("finds the route modules with actions in the build", () => {
    // Guards the enumeration itself: if the build's shape changed, the loop below would test nothing.
    expect(actionRoutes.length).toBeGreaterThanOrEqual(20);
    expect(actionRoutes).toEqual(
      expect.arrayContaining(["routes/auth", "routes/contact", "routes/_app.contacts._index", "routes/_app.pipeline.stages"]),
    );
  });

  for (const id of actionRoutes) {
    it(`${id}: every bad body kind, signed in${PUBLIC.has(id) ? " and signed out" : ""}`, async () => {
      let browser: TestBrowser;
      let params: Record<string, string> = {};
      if (id === "routes/billing.test-checkout.$id") {
        const checkout = await inCheckout();
        browser = checkout.browser;
        params = { id: checkout.id };
      } else {
        const owner = await subscriber(ADMIN.has(id) ? "admin" : "user");
        browser = owner.browser;
        if (owner.ids[id]) params = { id: owner.ids[id] };
        if (TEAM.has(id) || id === "routes/inquire.$key")
          expect((await browser.post("/settings", { intent: "team-plan", confirm: "yes", teamName: "Hostile Team" })).status).toBe(302);
        if (id === "routes/inquire.$key") {
          // A team's public lead form (ADR 0040), turned on so the body reaches the action.
          expect((await browser.post("/team/leads", { intent: "form-on" })).status).toBe(302);
          const team = await createDb(env.DB).select({ key: teams.leadFormKey }).from(teams).where(eq(teams.ownerId, owner.userId)).get();
          params = { key: team!.key! };
        }
      }
      const path = pathOf(id, params);
      for (const bad of BAD_BODIES) {
        const answer = await post(browser, path, bad);
        const ignores = IGNORES_BODY[id];
        if (ignores)
          expect({ status: answer.status, location: answer.location }, `${bad.kind} → ${path}`).toEqual({
            status: ignores.status,
            location: ignores.location,
          });
        else expect([400, 413, 415], `${bad.kind} → ${path}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
      }
      // The same through Remix's single-fetch URL, as useFetcher and client-side forms post.
      const [pathname, search = ""] = path.split("?");
      const viaFetch = await post(browser, `${pathname}.data${search ? `?${search}` : ""}`, BAD_BODIES[0]!);
      if (IGNORES_BODY[id]) expect(viaFetch.status, `${pathname}.data`).toBe(IGNORES_BODY[id]!.data);
      else expect([400, 415], `JSON → ${pathname}.data: ${viaFetch.status}`).toContain(viaFetch.status);
      // Still signed in: no bad body reached sign-out or changed the session.
      expect(browser.session()).not.toBeNull();

      if (PUBLIC.has(id)) {
        for (const bad of BAD_BODIES) {
          const answer = await post(new TestBrowser(), path, bad);
          expect([400, 413, 415], `signed out, ${bad.kind} → ${path}: ${answer.status}`).toContain(answer.status);
        }
      }
    });
  }

  it("says why, on the page a browser shows", async () => {
    const answer = await post(new TestBrowser(), "/auth", BAD_BODIES[0]!);
    expect(answer.status).toBe(415);
    expect(answer.text).toContain("This form must be sent as a web form (application/x-www-form-urlencoded or multipart/form-data).");
    const broken = await post(new TestBrowser(), "/contact", BAD_BODIES[5]!);
    expect(broken.status).toBe(400);
    expect(broken.text).toContain("The form could not be read.");
  });

  it("still reads real bodies: urlencoded and multipart forms, UTF-8 named or not, and the stage editor's JSON", async () => {
    const { browser, userId } = await subscriber();
    const multipart = new FormData();
    multipart.set("intent", "create");
    const created = await browser.fetch("/calendar-feed", { method: "POST", headers: { Origin: ORIGIN }, body: multipart });
    expect(created.status).toBe(200);
    const revoked = await browser.post(
      "/calendar-feed",
      { intent: "revoke" },
      { "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8" },
    );
    expect(revoked.status).toBe(200);
    const stages = await getStages(requestContext(), userId);
    const saved = await browser.fetch("/pipeline/stages", {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ stages }),
    });
    expect(saved.status).toBe(200);
  });
});

describe("the /api endpoints that take a body answer 4xx JSON to one they cannot read", () => {
  const bodyRoutes = api.routes.filter((route) => ["POST", "PUT", "PATCH", "DELETE"].includes(route.method)).map((route) => route.path);

  it("finds them in the Hono app", () => {
    expect(bodyRoutes).toEqual(expect.arrayContaining(["/api/contacts/import", "/api/ai/generate", "/api/contact-submit", "/api/stripe/webhook"]));
  });

  for (const path of [...new Set(bodyRoutes)]) {
    it(`${path}: every bad body kind`, async () => {
      const { browser } = await subscriber();
      // The lead API authenticates by its key, before it reads a body: its bodies are tried with one.
      const key = path === "/api/v1/leads" ? await leadApiKey(browser) : null;
      for (const bad of BAD_BODIES) {
        const answer = await post(browser, path, key ? { ...bad, headers: { ...bad.headers, Authorization: `Bearer ${key}` } } : bad);
        expect([400, 413, 415], `${bad.kind} → ${path}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
        expect(answer.type, `${bad.kind} → ${path}`).toContain("application/json");
        expect(typeof (JSON.parse(answer.text) as { error?: unknown }).error).toBe("string");
      }
    });
  }

  it("names the problem", async () => {
    const { browser } = await subscriber();
    const plain = await post(browser, "/api/contacts/import", BAD_BODIES[2]!);
    expect(plain.status).toBe(415);
    expect(JSON.parse(plain.text)).toEqual({ ok: false, error: "Send JSON (Content-Type: application/json)." });
    const broken = await post(browser, "/api/ai/generate", BAD_BODIES[1]!);
    expect(broken.status).toBe(400);
    expect(JSON.parse(broken.text)).toEqual({ ok: false, error: "The request body is not valid JSON." });
  });
});
