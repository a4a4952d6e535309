import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "../../workers/app";
import { createDb } from "~/db/client.server";
import { agentProfiles, emailOutbox, subscribers, trialClaims } from "~/db/schema";
import { sendWelcomeEmailOnce } from "~/modules/billing/welcome.server";
import { requestContext } from "../factories/context";
import type { Env } from "~/lib/env.server";
import { formatDate } from "~/lib/format";
import { CHECKOUT_ERRORS } from "~/modules/billing/billing.messages";
import { signInAs, TestBrowser } from "../factories/browser";
import { fakeStripe, postWebhook, stripeEnv, stripeEvent, subscriptionObject, type FakeRequest } from "../factories/stripe";
import { createUser, uniqueEmail } from "../factories/users";

const db = () => createDb(env.DB);
const subscriberOf = (userId: string) => db().select().from(subscribers).where(eq(subscribers.userId, userId)).get();
const welcomeEmails = (to: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to), eq(emailOutbox.kind, "welcome")))
    .all();

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
    // No name given yet: a greeting that needs none, never the address's local part.
    expect(welcome[0]!.textBody).toMatch(/^Hello,\n\nWelcome to Porchlight!/);
    expect(welcome[0]!.textBody).not.toContain(user.email.split("@")[0]);
    // A later live event does not send it again.
    await db()
      .update(subscribers)
      .set({ stripeCustomerId: `cus_${user.id.slice(0, 8)}` })
      .where(eq(subscribers.userId, user.id));
    await postWebhook(stripeEvent("customer.subscription.updated", subscriptionObject({ customer: `cus_${user.id.slice(0, 8)}`, status: "active" })));
    expect(await welcomeEmails(user.email)).toHaveLength(1);

    // The finished checkout cannot be used again.
    expect((await browser.post(checkout, { intent: "complete" })).headers.get("Location")).toBe("/trial/start");
  });

  it("greets the agent by the first name they gave in the welcome e-mail", async () => {
    const user = await createUser(env.DB, { status: "trialing" });
    await db().insert(agentProfiles).values({ userId: user.id, agentName: "Amara Osei" });
    expect(await sendWelcomeEmailOnce(requestContext(), "https://app.porchlight.test", user.id)).toBe(true);
    const [mail] = await welcomeEmails(user.email);
    expect(mail!.textBody).toMatch(/^Hi Amara,\n\nWelcome to Porchlight! Your 14-day free trial has started/);
    expect(mail!.htmlBody).toContain("<p>Hi Amara,</p>");
    expect(mail!.textBody).not.toContain(user.email.split("@")[0]);
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
      const response = await worker.fetch(
        request as Request<unknown, IncomingRequestCfProperties>,
        { ...(env as Env), ...overrides },
        createExecutionContext(),
      );
      expect(response.status, JSON.stringify(overrides)).toBe(404);
    }
  });

  it("answers 'Service temporarily unavailable' in production without Stripe keys", async () => {
    const owner = await signInAs(await createUser(env.DB, { status: "inactive" }));
    const request = new Request("http://localhost/trial/start", {
      method: "POST",
      headers: {
        Cookie: `porchlight_session=${owner.session()}`,
        Host: "localhost",
        Origin: "http://localhost",
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "period=monthly",
    });
    const response = await worker.fetch(
      request as Request<unknown, IncomingRequestCfProperties>,
      { ...(env as Env), APP_ENV: "production" },
      createExecutionContext(),
    );
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

describe("Stripe checkout (against the local fake Stripe API)", () => {
  it("creates a customer and a subscription checkout with the 14-day trial, and sends the browser there", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = (await signInAs(user)).using(stripeEnv());
    const response = await browser.post("/trial/start", { period: "yearly" });
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\w+$/);

    const requests = (await fakeStripe<FakeRequest[]>("/__fake/requests")).filter(
      (r) => r.body["metadata[userId]"] === user.id || r.body.email === user.email,
    );
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /v1/customers", "POST /v1/checkout/sessions"]);
    expect(requests[0]!.authorization).toBe("Bearer sk_test_porchlight_fake");
    const session = requests[1]!.body;
    expect(session.mode).toBe("subscription");
    expect(session.customer).toMatch(/^cus_/);
    expect(session.client_reference_id).toBe(user.id);
    expect(session["line_items[0][price]"]).toBe("price_solo_yearly");
    expect(session.payment_method_collection).toBe("always");
    expect(session["subscription_data[trial_period_days]"]).toBe("14");
    expect(session.success_url).toBe("http://localhost/app/welcome?success=1&trial=1&session_id={CHECKOUT_SESSION_ID}");
    expect(requests[1]!.idempotencyKey).toMatch(/^checkout-/);
    const row = (await subscriberOf(user.id))!;
    expect(row.stripeCustomerId).toBe(session.customer);
    expect(row.subscriptionStatus).toBe("pending_checkout");
  });

  it("answers Stripe's refusal of the e-mail with the spec's invalid-email text, and changes nothing", async () => {
    const user = await createUser(env.DB, { status: "inactive", email: `agent-${Date.now()}@example.invalid` });
    const browser = (await signInAs(user)).using(stripeEnv());
    const response = await browser.post("/trial/start", { period: "monthly" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("Signup Error");
    expect(html).toContain(CHECKOUT_ERRORS.invalid_email);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("inactive");
  });

  it("reuses the customer and leaves out the trial for a customer who already had one", async () => {
    const user = await createUser(env.DB, { status: "canceled" });
    const customer = `cus_back${user.id.slice(0, 6)}`;
    await db().update(subscribers).set({ stripeCustomerId: customer }).where(eq(subscribers.userId, user.id));
    await db()
      .insert(trialClaims)
      .values({ emailKey: `old-${user.email}`, userId: user.id, stripeCustomerId: customer, claimedAt: new Date() });
    const browser = (await signInAs(user)).using(stripeEnv());
    expect(await (await browser.get("/trial/start")).text()).toContain("already had its free trial");
    const response = await browser.post("/trial/start", { period: "monthly" });
    expect(response.status).toBe(302);
    const requests = (await fakeStripe<FakeRequest[]>("/__fake/requests")).filter((r) => r.body.client_reference_id === user.id);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body.customer).toBe(customer);
    expect(requests[0]!.body["subscription_data[trial_period_days]"]).toBeUndefined();
    expect(requests[0]!.body.success_url).toContain("trial=0");
    // A canceled account keeps its status until the new subscription is confirmed.
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("canceled");
  });
});

describe("back from Stripe Checkout", () => {
  it("sends a visitor without a session to /auth", async () => {
    const response = await new TestBrowser().get("/app/welcome?success=1&trial=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
  });

  it("confirms a completed checkout from Stripe before the webhook arrives, once, and only for its owner", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = (await signInAs(user)).using(stripeEnv());
    const location = (await browser.post("/trial/start", { period: "monthly" })).headers.get("Location")!;
    const sessionId = location.split("/").pop()!;
    const welcome = `/app/welcome?success=1&trial=1&session_id=${sessionId}`;

    // Not paid yet: nothing changes.
    expect((await browser.get(welcome)).status).toBe(200);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("pending_checkout");

    // Someone else holding the session id gets nothing from it.
    await fakeStripe(`/__fake/sessions/${sessionId}/complete`, { subscription: `sub_${sessionId.slice(-8)}` });
    const other = (await signInAs(await createUser(env.DB, { status: "inactive" }))).using(stripeEnv());
    await other.get(welcome);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("pending_checkout");

    await browser.get(welcome);
    const row = (await subscriberOf(user.id))!;
    expect(row.subscriptionStatus).toBe("trialing");
    expect(row.stripeSubscriptionId).toBe(`sub_${sessionId.slice(-8)}`);
    expect(await (await browser.get("/api/check-subscription")).json()).toMatchObject({ subscribed: true });
    await browser.get(welcome);
    expect(await welcomeEmails(user.email)).toHaveLength(1);
  });
});

describe("Settings › Billing", () => {
  it("shows the test-mode subscription and cancels it at the end of the period", async () => {
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    await browser.post(await startCheckout(browser), { intent: "complete" });
    const html = await (await browser.get("/settings?tab=billing")).text();
    expect(html).toContain("Plan and billing");
    expect(html).toContain("Solo Agent · $40 billed monthly");
    expect(html).toContain("Free trial");
    expect(html).toContain("Trial ends");
    // While trialing, the first charge is at the trial's end: both rows show the same date.
    const row = (await subscriberOf(user.id))!;
    expect(row.currentPeriodEnd!.getTime()).toBe(row.trialEndsAt!.getTime());
    const trialEnd = formatDate(row.trialEndsAt!);
    expect(html).toMatch(new RegExp(`Trial ends</dt><dd[^>]*>${trialEnd}</dd>`));
    expect(html).toMatch(new RegExp(`Next billing date</dt><dd[^>]*>${trialEnd}</dd>`));
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
    const customer = `cus_card${user.id.slice(0, 6)}`;
    await fakeStripe(`/__fake/customers/${customer}`, {
      email: user.email,
      address: { line1: "12 Porch Lane", line2: null, city: "Austin", postal_code: "78701", state: "TX", country: "US" },
      payment_methods: [
        { id: "pm_1", object: "payment_method", card: { brand: "visa", last4: "4242", exp_month: 4, exp_year: 2029 }, billing_details: {} },
      ],
    });
    await db()
      .update(subscribers)
      .set({ stripeCustomerId: customer, billingPeriod: "monthly", currentPeriodEnd: new Date("2026-12-22T12:00:00Z") })
      .where(eq(subscribers.userId, user.id));
    const browser = (await signInAs(user)).using(stripeEnv());
    const html = await (await browser.get("/settings?tab=billing")).text();
    expect(html).toContain("VISA ending in 4242 (expires 04/2029)");
    expect(html).toContain("12 Porch Lane, 78701 Austin, TX, US");
    expect(html).toContain("Dec 22, 2026");
    expect(html).toContain("Manage billing");
    const portal = await browser.post("/billing/portal", {});
    expect(portal.status).toBe(302);
    expect(portal.headers.get("Location")).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_\w+$/);
    const asked = (await fakeStripe<FakeRequest[]>("/__fake/requests")).filter(
      (r) => r.path === "/v1/billing_portal/sessions" && r.body.customer === customer,
    );
    expect(asked[0]!.body.return_url).toBe("http://localhost/settings?tab=billing");
  });

  it("says so when Stripe cannot be reached, instead of showing blanks as facts", async () => {
    const user = await createUser(env.DB, { status: "active" });
    await db().update(subscribers).set({ stripeCustomerId: "cus_missing_at_stripe" }).where(eq(subscribers.userId, user.id));
    const html = await (await (await signInAs(user)).using(stripeEnv()).get("/settings?tab=billing")).text();
    expect(html).toContain("Payment details could not be loaded from Stripe right now.");
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
    // No call to action loops a signed-in agent back through sign-up.
    expect(html).not.toContain('href="/auth?mode=signup"');
  });
});
