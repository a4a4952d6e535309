import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { emailOutbox, subscribers } from "~/db/schema";
import type { Env } from "~/lib/env.server";
import { CHECKOUT_ERRORS } from "~/modules/billing/billing.messages";
import { signInAs, TestBrowser } from "../factories/browser";
import { postWebhook, stripeEvent, subscriptionObject } from "../factories/stripe";
import { createUser, uniqueEmail } from "../factories/users";

const db = () => createDb(env.DB);
const subscriberOf = (userId: string) => db().select().from(subscribers).where(eq(subscribers.userId, userId)).get();
const welcomeEmails = (to: string) => db().select().from(emailOutbox).where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, "welcome"))).all();

async function startCheckout(browser: TestBrowser, period: "monthly" | "yearly" = "monthly") {
  const response = await browser.post("/trial/start", { period });
  expect(response.status).toBe(302);
  const location = response.headers.get("Location")!;
  expect(location).toMatch(/^\/billing\/test-checkout\/[\w-]+$/);
  return location;
}

describe("local test-mode checkout", () => {
  it("takes a new account from start-trial through checkout to a live trial, with one welcome e-mail", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    const page = await (await browser.get("/trial/start")).text();
    expect(page).toContain("Start Your 14-Day Free Trial");

    const checkout = await startCheckout(browser, "yearly");
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("pending_checkout");
    const checkoutPage = await (await browser.get(checkout)).text();
    expect(checkoutPage).toContain("Test mode");
    expect(checkoutPage).toContain("$384 billed yearly");

    const done = await browser.post(checkout, { intent: "complete" });
    expect(done.headers.get("Location")).toBe("/app/welcome?success=1&trial=1");
    const row = (await subscriberOf(user.id))!;
    expect(row.subscriptionStatus).toBe("trialing");
    expect(row.billingPeriod).toBe("yearly");
    const days = (row.trialEndsAt!.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);

    expect((await browser.get("/app/welcome?success=1&trial=1")).status).toBe(200);
    expect(await (await browser.get("/api/check-subscription")).json()).toEqual({ subscribed: true, status: "trialing", plan: "solo" });
    expect((await browser.get("/dashboard")).status).toBe(200);

    const welcome = await welcomeEmails(user.email);
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.textBody).toContain(`Hi ${user.email.split("@")[0]},`);
    // A later live event does not send it again.
    await db().update(subscribers).set({ stripeCustomerId: `cus_${user.id.slice(0, 8)}` }).where(eq(subscribers.userId, user.id));
    await postWebhook(stripeEvent("customer.subscription.updated", subscriptionObject({ customer: `cus_${user.id.slice(0, 8)}`, status: "active" })));
    expect(await welcomeEmails(user.email)).toHaveLength(1);

    // The finished checkout cannot be used again.
    expect((await browser.post(checkout, { intent: "complete" })).headers.get("Location")).toBe("/trial/start");
  });

  it("gives one trial per customer: the same inbox under another spelling pays from day one", async () => {
    const base = uniqueEmail("onetrial");
    const first = await createUser(env.DB, { status: "inactive", email: base });
    const firstBrowser = await signInAs(first);
    await firstBrowser.post(await startCheckout(firstBrowser), { intent: "complete" });
    expect((await subscriberOf(first.id))!.subscriptionStatus).toBe("trialing");

    const second = await createUser(env.DB, { status: "inactive", email: base.replace("@", "+again@") });
    const browser = await signInAs(second);
    const page = await (await browser.get("/trial/start")).text();
    expect(page).toContain("already had its free trial");
    const done = await browser.post(await startCheckout(browser), { intent: "complete" });
    expect(done.headers.get("Location")).toBe("/app/welcome?success=1&trial=0");
    const row = (await subscriberOf(second.id))!;
    expect(row.subscriptionStatus).toBe("active");
    expect(row.trialEndsAt).toBeNull();
  });

  it("puts an abandoned checkout back where it was, without a subscription", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    const abandoned = await browser.post(await startCheckout(browser), { intent: "abandon" });
    expect(abandoned.headers.get("Location")).toBe("/trial/start?canceled=1");
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("inactive");
    expect(await (await browser.get("/trial/start?canceled=1")).text()).toContain("Checkout was not completed");
  });

  it("shows nobody else's checkout", async () => {
    const owner = await signInAs(await createUser(env.DB, { status: "inactive" }));
    const checkout = await startCheckout(owner);
    const other = await signInAs(await createUser(env.DB, { status: "inactive" }));
    expect((await other.get(checkout)).status).toBe(404);
    expect((await other.post(checkout, { intent: "complete" })).status).toBe(404);
  });

  it("does not exist in production or when Stripe keys are configured", async () => {
    const owner = await signInAs(await createUser(env.DB, { status: "inactive" }));
    const checkout = await startCheckout(owner);
    for (const overrides of [{ APP_ENV: "production" }, { STRIPE_SECRET_KEY: "sk_test_configured" }]) {
      const request = new Request(`http://localhost${checkout}`, { headers: { Cookie: `porchlight_session=${owner.session()}`, Host: "localhost" } });
      const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...(env as Env), ...overrides }, createExecutionContext());
      expect(response.status, JSON.stringify(overrides)).toBe(404);
    }
  });

  it("answers 'Service temporarily unavailable' in production without Stripe keys", async () => {
    const owner = await signInAs(await createUser(env.DB, { status: "inactive" }));
    const request = new Request("http://localhost/trial/start", {
      method: "POST",
      headers: { Cookie: `porchlight_session=${owner.session()}`, Host: "localhost", Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: "period=monthly",
    });
    const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...(env as Env), APP_ENV: "production" }, createExecutionContext());
    expect(response.status).toBe(503);
    expect(await response.text()).toContain(CHECKOUT_ERRORS.config_error);
  });
});

describe("check-subscription", () => {
  it("needs a signed-in user", async () => {
    const response = await new TestBrowser().get("/api/check-subscription");
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: "Authentication required" });
  });

  it("reports an unsubscribed account as such", async () => {
    const browser = await signInAs(await createUser(env.DB, { status: "canceled" }));
    expect(await (await browser.get("/api/check-subscription")).json()).toEqual({ subscribed: false, status: "canceled", plan: "solo" });
  });
});

describe("Stripe checkout", () => {
  afterEach(() => vi.restoreAllMocks());

  it("creates a customer and a subscription checkout with the 14-day trial, and sends the browser there", async () => {
    const calls: { path: string; body: URLSearchParams; idempotency: string | null }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input as RequestInfo, init);
      const url = new URL(request.url);
      if (url.hostname !== "stripe.test") throw new Error(`unexpected request to ${url.hostname}`);
      calls.push({ path: url.pathname, body: new URLSearchParams(await request.text()), idempotency: request.headers.get("Idempotency-Key") });
      if (url.pathname === "/v1/customers") return Response.json({ id: "cus_fake1", object: "customer" });
      if (url.pathname === "/v1/checkout/sessions") return Response.json({ id: "cs_test_1", object: "checkout.session", url: "https://checkout.stripe.com/c/pay/cs_test_1" });
      return Response.json({ error: { message: "not found" } }, { status: 404 });
    });
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    const stripeEnv = { ...(env as Env), STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_PRICE_MONTHLY: "price_monthly", STRIPE_PRICE_YEARLY: "price_yearly", STRIPE_API_BASE: "http://stripe.test:80" };
    const request = new Request("http://localhost/trial/start", {
      method: "POST",
      headers: { Cookie: `porchlight_session=${browser.session()}`, Host: "localhost", Origin: "http://localhost", "Content-Type": "application/x-www-form-urlencoded" },
      body: "period=yearly",
    });
    const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, stripeEnv, createExecutionContext());
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("https://checkout.stripe.com/c/pay/cs_test_1");

    expect(calls.map((c) => c.path)).toEqual(["/v1/customers", "/v1/checkout/sessions"]);
    expect(calls[0]!.body.get("email")).toBe(user.email);
    const session = calls[1]!.body;
    expect(session.get("mode")).toBe("subscription");
    expect(session.get("customer")).toBe("cus_fake1");
    expect(session.get("client_reference_id")).toBe(user.id);
    expect(session.get("line_items[0][price]")).toBe("price_yearly");
    expect(session.get("payment_method_collection")).toBe("always");
    expect(session.get("subscription_data[trial_period_days]")).toBe("14");
    expect(session.get("success_url")).toBe("http://localhost/app/welcome?success=1&trial=1&session_id={CHECKOUT_SESSION_ID}");
    expect(calls[1]!.idempotency).toMatch(/^checkout-/);
    const row = (await subscriberOf(user.id))!;
    expect(row.stripeCustomerId).toBe("cus_fake1");
    expect(row.subscriptionStatus).toBe("pending_checkout");
  });
});

describe("Settings › Billing", () => {
  afterEach(() => vi.restoreAllMocks());

  it("shows the test-mode subscription and cancels it at the end of the period", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    await browser.post(await startCheckout(browser), { intent: "complete" });
    const html = await (await browser.get("/settings?tab=billing")).text();
    expect(html).toContain("Plan and billing");
    expect(html).toContain("Solo Agent · $40 billed monthly");
    expect(html).toContain("Free trial");
    expect(html).toContain("Trial ends");
    expect(html).toContain("No card on file");
    expect(html).toContain("Test mode: Stripe is not configured");

    const cancel = await browser.post("/settings?tab=billing", { intent: "test-cancel" });
    expect(cancel.headers.get("Location")).toBe("/settings?tab=billing");
    expect((await subscriberOf(user.id))!.cancelAtPeriodEnd).toBe(true);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("trialing");
    expect(await (await browser.get("/settings?tab=billing")).text()).toContain("ends at the close of this period");
    await browser.post("/settings?tab=billing", { intent: "test-resume" });
    expect((await subscriberOf(user.id))!.cancelAtPeriodEnd).toBe(false);
  });

  it("shows the card and address Stripe holds, and opens the Customer Portal", async () => {
    const user = await createUser(env.DB, { status: "active" });
    await db().update(subscribers).set({ stripeCustomerId: "cus_card1", billingPeriod: "monthly", currentPeriodEnd: new Date("2026-12-22T12:00:00Z") }).where(eq(subscribers.userId, user.id));
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const url = new URL(new Request(input as RequestInfo, init).url);
      if (url.pathname === "/v1/customers/cus_card1")
        return Response.json({
          id: "cus_card1",
          object: "customer",
          address: { line1: "12 Porch Lane", line2: null, city: "Austin", postal_code: "78701", state: "TX", country: "US" },
          invoice_settings: { default_payment_method: { id: "pm_1", object: "payment_method", card: { brand: "visa", last4: "4242", exp_month: 4, exp_year: 2029 }, billing_details: {} } },
        });
      if (url.pathname === "/v1/billing_portal/sessions") return Response.json({ id: "bps_1", object: "billing_portal.session", url: "https://billing.stripe.com/p/session/test_1" });
      return Response.json({ error: { message: `unexpected ${url.pathname}` } }, { status: 404 });
    });
    const browser = await signInAs(user);
    const stripeEnv = { ...(env as Env), STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE: "http://stripe.test:80" };
    const call = (path: string, init: RequestInit = {}) =>
      worker.fetch(
        new Request(`http://localhost${path}`, {
          ...init,
          headers: { Cookie: `porchlight_session=${browser.session()}`, Host: "localhost", Origin: "http://localhost", ...(init.headers ?? {}) },
        }) as Request<unknown, IncomingRequestCfProperties>,
        stripeEnv,
        createExecutionContext(),
      );
    const html = await (await call("/settings?tab=billing")).text();
    expect(html).toContain("VISA ending in 4242 (expires 04/2029)");
    expect(html).toContain("12 Porch Lane, 78701 Austin, TX, US");
    expect(html).toContain("Dec 22, 2026");
    expect(html).toContain("Manage billing");
    const portal = await call("/billing/portal", { method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: "" });
    expect(portal.status).toBe(302);
    expect(portal.headers.get("Location")).toBe("https://billing.stripe.com/p/session/test_1");
  });
});

describe("expired billing page", () => {
  it("tells a past-due agent the payment failed and a canceled one that the subscription ended", async () => {
    const pastDue = await signInAs(await createUser(env.DB, { status: "past_due" }));
    const first = await pastDue.follow(await pastDue.get("/dashboard"));
    expect(first.url).toBe("/pricing?billing=expired");
    expect(first.html).toContain("Your last payment did not go through");
    expect(first.html).toContain('href="/trial/start"');

    const canceled = await signInAs(await createUser(env.DB, { status: "canceled" }));
    const html = (await canceled.follow(await canceled.get("/contacts"))).html;
    expect(html).toContain("Your subscription has ended");
    expect(html).toContain("Resubscribe");
  });
});
