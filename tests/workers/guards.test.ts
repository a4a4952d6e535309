import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "~/db/enums";
import { contacts } from "~/db/schema";
import { requireAdmin, requireSubscriber } from "~/modules/auth/guards.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { failingD1, requestContext } from "../factories/context";
import { createUser } from "../factories/users";

const EXPECTED: Record<SubscriptionStatus | "none", string | null> = {
  active: null,
  trialing: null,
  past_due: "/pricing?billing=expired",
  canceled: "/pricing?billing=expired",
  inactive: "/trial/start",
  pending_checkout: "/trial/start",
  none: "/trial/start",
};

describe("billing guard on protected pages", () => {
  for (const status of [...SUBSCRIPTION_STATUSES, "none"] as const) {
    it(`${status}: ${EXPECTED[status] ? `goes to ${EXPECTED[status]}` : "is let in"}`, async () => {
      const user = await createUser(env.DB, { status: status === "none" ? null : status });
      const browser = await signInAs(user);
      for (const path of ["/dashboard", "/contacts", "/settings", "/app/welcome"]) {
        const response = await browser.get(path);
        if (EXPECTED[status]) {
          expect(response.status, path).toBe(302);
          expect(response.headers.get("Location"), path).toBe(EXPECTED[status]);
        } else {
          expect(response.status, path).toBe(200);
        }
      }
    });
  }

  it("lets the user in when the status read fails, and does not throw", async () => {
    const user = await createUser(env.DB, { status: "canceled" });
    const browser = await signInAs(user);
    const context = requestContext({ DB: failingD1(env.DB, /"subscribers"/) });
    const request = new Request("http://localhost/dashboard", { headers: { Cookie: `porchlight_session=${browser.session()}` } });
    const signedIn = await requireSubscriber(request, context);
    expect(signedIn.email).toBe(user.email);
  });

  it("sends visitors without a session to /auth and remembers where they were going", async () => {
    const response = await new TestBrowser().get("/pipeline?stage=offer");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/auth?redirectTo=${encodeURIComponent("/pipeline?stage=offer")}`);
  });

  it("offers the start-trial page only to accounts that still need a subscription", async () => {
    const waiting = await signInAs(await createUser(env.DB, { status: "inactive" }));
    expect(await (await waiting.get("/trial/start")).text()).toContain("Start Your 14-Day Free Trial");
    const active = await signInAs(await createUser(env.DB, { status: "active" }));
    expect((await active.get("/trial/start")).headers.get("Location")).toBe("/dashboard");
  });
});

describe("billing guard on the JSON API (/api/*)", () => {
  const db = createDb(env.DB);
  // Every endpoint behind apiSubscriber, each with a body that would change something if it were let through.
  const endpoints = (tag: string): [string, string, unknown?][] => [
    ["GET", "/api/sync"],
    ["POST", "/api/sync/changes", { changes: [{ key: `guard-${tag}`, type: "add_contact", contact: { name: `Guard ${tag}`, phone: "555 0100" } }] }],
    ["GET", "/api/search?scope=contacts&q=Guard"],
    ["POST", "/api/contacts/import", { rows: [[`Guard import ${tag}`, "555 0101"]], mapping: ["name", "phone"], mode: "skip" }],
    ["GET", "/api/search?q=Guard"],
    ["POST", "/api/ai/generate", { task: "advice", tone: "friendly", userInput: "What next?" }],
    ["POST", "/api/rum", { route: "routes/_app.dashboard", metrics: [{ name: "ttfb", value: 80 }] }],
    [
      "POST",
      "/api/push/subscriptions",
      { endpoint: `https://fcm.googleapis.com/fcm/send/${tag}`, keys: { p256dh: "B".repeat(87), auth: "A".repeat(22) } },
    ],
    ["DELETE", "/api/push/subscriptions", { endpoint: `https://fcm.googleapis.com/fcm/send/${tag}` }],
  ];
  const call = (browser: TestBrowser, [method, path, body]: [string, string, unknown?]) =>
    browser.fetch(
      path,
      body === undefined
        ? { method }
        : { method, headers: { Origin: "http://localhost", "Content-Type": "application/json" }, body: JSON.stringify(body) },
    );

  for (const status of ["past_due", "canceled", "inactive", "pending_checkout", "none"] as const) {
    it(`${status}: every endpoint answers 402 with where to go (${EXPECTED[status]}), and nothing is written`, async () => {
      const user = await createUser(env.DB, { status: status === "none" ? null : status });
      const browser = await signInAs(user);
      for (const endpoint of endpoints(user.id)) {
        const response = await call(browser, endpoint);
        expect(response.status, endpoint[1]).toBe(402);
        expect(await response.json(), endpoint[1]).toEqual({ ok: false, error: "Your subscription is not active.", redirectTo: EXPECTED[status] });
      }
      expect(await db.select().from(contacts).where(eq(contacts.userId, user.id)).all()).toEqual([]);
    });
  }

  it("answers 401 to an account whose e-mail is not confirmed, and to no session, and writes nothing", async () => {
    const user = await createUser(env.DB, { verified: false, status: "active" });
    const unverified = await signInAs(user);
    for (const browser of [unverified, new TestBrowser()]) {
      for (const endpoint of endpoints(user.id)) {
        const response = await call(browser, endpoint);
        expect(response.status, endpoint[1]).toBe(401);
        expect(await response.json(), endpoint[1]).toEqual({ ok: false, error: "Please sign in again to continue." });
      }
    }
    expect(await db.select().from(contacts).where(eq(contacts.userId, user.id)).all()).toEqual([]);
  });

  it("lets a verified agent in good standing through, so the refusals above are the guard's", async () => {
    for (const status of ["active", "trialing"] as const) {
      const user = await createUser(env.DB, { status });
      const browser = await signInAs(user);
      const [, changes] = endpoints(user.id);
      const response = await call(browser, changes!);
      expect(response.status, status).toBe(200);
      expect(await response.json()).toMatchObject({ ok: true, results: [{ key: `guard-${user.id}`, status: "applied" }] });
      expect((await db.select({ name: contacts.name }).from(contacts).where(eq(contacts.userId, user.id)).all()).map((c) => c.name)).toEqual([
        `Guard ${user.id}`,
      ]);
    }
  });
});

describe("admin pages", () => {
  it("answer 404 to a signed-in user who is not an admin", async () => {
    const browser = await signInAs(await createUser(env.DB));
    for (const path of ["/operations", "/admin"]) {
      const response = await browser.get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain("Oops! Page not found");
    }
  });

  it("open for a user whose role is admin", async () => {
    const browser = await signInAs(await createUser(env.DB, { role: "admin" }));
    const response = await browser.get("/operations");
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("Operations Center");
  });

  it("open for an address listed in ADMIN_EMAILS, compared without case", async () => {
    const browser = await signInAs(await createUser(env.DB, { email: "Listed-Admin@Example.com" }));
    expect((await browser.get("/admin")).status).toBe(200);
  });

  it("requireAdmin throws a 404 response, not a redirect, for others", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const request = new Request("http://localhost/operations", { headers: { Cookie: `porchlight_session=${browser.session()}` } });
    const thrown = await requireAdmin(request, requestContext()).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(404);
  });
});
