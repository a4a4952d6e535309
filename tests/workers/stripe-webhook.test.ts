import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { stripeEvents, subscribers, trialClaims } from "~/db/schema";
import { trialEmailKey } from "~/modules/billing/plans";
import { signInAs } from "../factories/browser";
import { postWebhook, stripeEvent, subscriptionObject } from "../factories/stripe";
import { createUser } from "../factories/users";

const db = () => createDb(env.DB);
const subscriberOf = (userId: string) => db().select().from(subscribers).where(eq(subscribers.userId, userId)).get();

async function customerFor(status: "inactive" | "trialing" | "active" = "inactive") {
  const user = await createUser(env.DB, { status });
  const customer = `cus_${user.id.slice(0, 8)}`;
  await db().update(subscribers).set({ stripeCustomerId: customer }).where(eq(subscribers.userId, user.id));
  return { user, customer };
}

describe("Stripe webhook: verification", () => {
  it("refuses a body that was changed after signing, and changes nothing", async () => {
    const { user, customer } = await customerFor();
    const event = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, status: "active" }));
    const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, status: "canceled" } } });
    const response = await postWebhook(event, { body: tampered });
    expect(response.status).toBe(400);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("inactive");
  });

  it("refuses a signature older than 300 seconds", async () => {
    const { user, customer } = await customerFor();
    const event = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, status: "active" }));
    const response = await postWebhook(event, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expect(response.status).toBe(400);
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("inactive");
  });

  it("refuses a signature made with another secret, or none", async () => {
    const { customer } = await customerFor();
    const event = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, status: "active" }));
    expect((await postWebhook(event, { secret: "whsec_someone_else" })).status).toBe(400);
    const { exports } = await import("cloudflare:workers");
    const unsigned = await (exports as unknown as { default: Fetcher }).default.fetch("http://localhost/api/stripe/webhook", {
      method: "POST",
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(400);
  });
});

describe("Stripe webhook: effects", () => {
  it("starts the trial on checkout.session.completed and counts the trial against the e-mail", async () => {
    const { user, customer } = await customerFor();
    const event = stripeEvent("checkout.session.completed", {
      id: "cs_test_1",
      object: "checkout.session",
      client_reference_id: user.id,
      customer,
      subscription: `sub_${customer}`,
      metadata: { userId: user.id, trial: "1", period: "yearly" },
    });
    expect((await postWebhook(event)).status).toBe(200);
    const row = (await subscriberOf(user.id))!;
    expect(row.subscriptionStatus).toBe("trialing");
    expect(row.billingPeriod).toBe("yearly");
    expect(row.stripeSubscriptionId).toBe(`sub_${customer}`);
    const claim = await db()
      .select()
      .from(trialClaims)
      .where(eq(trialClaims.emailKey, trialEmailKey(user.email)))
      .get();
    expect(claim?.stripeCustomerId).toBe(customer);
  });

  it("applies a replayed event once", async () => {
    const { user, customer } = await customerFor();
    const t0 = Math.floor(Date.now() / 1000) - 100;
    const first = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, status: "past_due" }), t0);
    expect((await (await postWebhook(first)).json<{ result: string }>()).result).toBe("applied");
    const later = stripeEvent("customer.subscription.updated", subscriptionObject({ customer, status: "active" }), t0 + 50);
    await postWebhook(later);
    const replay = await postWebhook(first);
    expect(replay.status).toBe(200);
    expect((await replay.json<{ result: string }>()).result).toBe("duplicate");
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("active");
    expect(await db().select().from(stripeEvents).where(eq(stripeEvents.id, first.id)).all()).toHaveLength(1);
  });

  it("ends in the right state when subscription.updated arrives before subscription.created", async () => {
    const { user, customer } = await customerFor();
    const t0 = Math.floor(Date.now() / 1000) - 100;
    const periodEnd = t0 + 30 * 86400;
    const created = stripeEvent(
      "customer.subscription.created",
      subscriptionObject({ customer, userId: user.id, status: "trialing", trialEnd: t0 + 14 * 86400 }),
      t0,
    );
    const updated = stripeEvent(
      "customer.subscription.updated",
      subscriptionObject({ customer, userId: user.id, status: "active", periodEnd }),
      t0 + 20,
    );
    expect((await (await postWebhook(updated)).json<{ result: string }>()).result).toBe("applied");
    expect((await (await postWebhook(created)).json<{ result: string }>()).result).toBe("stale");
    const row = (await subscriberOf(user.id))!;
    expect(row.subscriptionStatus).toBe("active");
    expect(row.currentPeriodEnd?.getTime()).toBe(periodEnd * 1000);
  });

  it("marks a failed payment past_due, and the guard then sends the agent to renew", async () => {
    const { user, customer } = await customerFor("active");
    const browser = await signInAs(user);
    expect((await browser.get("/dashboard")).status).toBe(200);
    await postWebhook(stripeEvent("invoice.payment_failed", { id: "in_1", object: "invoice", customer, amount_paid: 0 }));
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("past_due");
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/pricing?billing=expired");

    await postWebhook(stripeEvent("invoice.paid", { id: "in_2", object: "invoice", customer, amount_paid: 4000 }, Math.floor(Date.now() / 1000) + 1));
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("active");
    expect((await browser.get("/dashboard")).status).toBe(200);
  });

  it("cancels on subscription.deleted", async () => {
    const { user, customer } = await customerFor("active");
    await postWebhook(stripeEvent("customer.subscription.deleted", subscriptionObject({ customer, status: "canceled" })));
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("canceled");
  });

  it("acknowledges events it does not handle, and events for unknown customers, without effects", async () => {
    const ignored = await postWebhook(stripeEvent("customer.created", { id: "cus_new", object: "customer" }));
    expect(await ignored.json()).toEqual({ received: true, result: "ignored" });
    const unknown = await postWebhook(stripeEvent("customer.subscription.updated", subscriptionObject({ customer: "cus_nobody", status: "active" })));
    expect(await unknown.json()).toEqual({ received: true, result: "unknown-user" });
  });
});

describe("Stripe webhook: invoices", () => {
  const invoice = (customer: string, amountPaid: number) => ({
    id: `in_${crypto.randomUUID().slice(0, 8)}`,
    object: "invoice",
    customer,
    amount_paid: amountPaid,
  });
  const later = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

  it("ignores a $0 paid invoice (a trial's first): the status stays as it is", async () => {
    for (const status of ["trialing", "active"] as const) {
      const { user, customer } = await customerFor(status);
      const before = (await subscriberOf(user.id))!;
      const response = await postWebhook(stripeEvent("invoice.paid", invoice(customer, 0), later(1)));
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true, result: "ignored" });
      expect((await subscriberOf(user.id))!).toMatchObject({ subscriptionStatus: status, statusChangedAt: before.statusChangedAt });
    }
    // Nor does it bring a past-due account back: nothing was paid.
    const { user, customer } = await customerFor("active");
    await postWebhook(stripeEvent("invoice.payment_failed", invoice(customer, 0), later(1)));
    await postWebhook(stripeEvent("invoice.paid", invoice(customer, 0), later(2)));
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("past_due");
  });

  it("never revives a canceled subscription with a paid invoice that arrives after the cancellation", async () => {
    const { user, customer } = await customerFor("active");
    const browser = await signInAs(user);
    await postWebhook(stripeEvent("customer.subscription.deleted", subscriptionObject({ customer, status: "canceled" }), later(1)));
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("canceled");

    const paid = await postWebhook(stripeEvent("invoice.paid", invoice(customer, 4000), later(2)));
    expect(paid.status).toBe(200);
    expect(await paid.json()).toEqual({ received: true, result: "stale" });
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("canceled");
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/pricing?billing=expired");

    // A new subscription is what brings the account back.
    await postWebhook(
      stripeEvent(
        "customer.subscription.created",
        subscriptionObject({ id: `sub_new_${user.id.slice(0, 6)}`, customer, userId: user.id, status: "active" }),
        later(3),
      ),
    );
    expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("active");
  });

  it("turns a past-due or trialing account active on a real payment", async () => {
    for (const status of ["past_due", "trialing"] as const) {
      const { user, customer } = await customerFor("active");
      await db().update(subscribers).set({ subscriptionStatus: status }).where(eq(subscribers.userId, user.id));
      const paid = await postWebhook(stripeEvent("invoice.paid", invoice(customer, 4000), later(1)));
      expect(await paid.json()).toEqual({ received: true, result: "applied" });
      expect((await subscriberOf(user.id))!.subscriptionStatus).toBe("active");
    }
  });
});
