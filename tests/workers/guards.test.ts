import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "~/db/enums";
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
