import { env } from "cloudflare:workers";
import { and, eq, isNull, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { contacts, crmActivities, leadAlerts, pushOutbox, pushSubscriptions } from "~/db/schema";
import { getConfig, type Env } from "~/lib/env.server";
import { LEAD_REMINDER_MINUTES } from "~/modules/push/lead-alerts";
import { importContacts } from "~/modules/contacts/import.server";
import { raiseLeadAlert, sendLeadReminders } from "~/modules/push/lead-alerts.server";
import { leadsWaitingNow, WAITING_LEADS_SHOWN } from "~/modules/reports/figures.server";
import { HELD_ELSEWHERE, MAX_SUBSCRIPTIONS, saveSubscription } from "~/modules/push/push.server";
import {
  PUSH_DEAD_LETTER_QUEUE_NAME,
  PUSH_QUEUE_NAME,
  pushDeliveryFigures,
  queuePushes,
  type PushMessage,
} from "~/modules/push/push-delivery.server";
import { OUTGOING_MAX_RETRIES } from "~/modules/outgoing/queue-delivery.server";
import { loadMonitoring } from "~/modules/ops/monitoring.server";
import { readThresholdMetrics } from "~/modules/ops/thresholds.server";
import { applyQueuedChanges } from "~/modules/sync/queued-changes.server";
import { JOBS } from "../../workers/cron";
import { signInAs } from "../factories/browser";
import { requestContext } from "../factories/context";
import { expectWarningAbove0 } from "../factories/thresholds";
import { deliverBatch, drainPushes, waitingPushes } from "../factories/queues";
import { createAgent } from "../factories/users";
import { fakeDevice, fakePushService, vapidKeys, type FakeDevice } from "../fakes/push-service";
import { accountDatabases } from "~/modules/shards/databases.server";

// Speed-to-lead alerts over real Web Push. Devices subscribe in Settings → Notifications; a new lead is
// pushed to each, encrypted to the device and signed with the deployment's VAPID key, checked here by a fake push
// service that verifies and decrypts like a real one; the cron reminds once at five minutes.

const db = createDb(env.DB);
const MINUTE = 60_000;
const realFetch = globalThis.fetch;

async function pushEnv(): Promise<Env> {
  return { ...(env as Env), FEATURE_FLAGS: "PUSH_NOTIFICATIONS=on", ...(await vapidKeys()) };
}

/** Routes the fake devices' endpoints to the fake push service; everything else goes out as before. */
function withPushService(devices: FakeDevice[], config: Env, statusFor?: (endpoint: string) => number) {
  const service = fakePushService(devices, { publicKey: config.VAPID_PUBLIC_KEY!, statusFor, passThrough: realFetch });
  vi.spyOn(globalThis, "fetch").mockImplementation(service.handler);
  return service;
}

afterEach(() => vi.restoreAllMocks());

/**
 * Queues one push for the agent and delivers it once through the push queue's consumer; answers how many devices
 * took it (the row's record of them).
 */
async function pushToUser(config: Env, userId: string, message: PushMessage): Promise<number> {
  const key = `test:${crypto.randomUUID()}`;
  await queuePushes(requestContext(config), [{ userId, key, kind: "lead_alert", ...message }]);
  await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: key }], 1, config);
  const row = await db.select({ sentTo: pushOutbox.sentTo }).from(pushOutbox).where(eq(pushOutbox.id, key)).get();
  return row?.sentTo.length ?? 0;
}

/** An agent with one subscribed device, and the fake push service it is reached through. */
async function agentWithPhone() {
  const config = await pushEnv();
  const user = await createAgent(env.DB);
  const phone = await fakeDevice();
  const context = requestContext(config);
  await saveSubscription(context, user.userId, phone.subscription);
  return { config, user, phone, context, service: withPushService([phone], config) };
}

const subscribe = (browser: Awaited<ReturnType<typeof signInAs>>, body: unknown, method = "POST") =>
  browser.fetch("/api/push/subscriptions", {
    method,
    headers: { Origin: "http://localhost", "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

async function addContact(userId: string, name: string) {
  const now = new Date();
  const row = {
    id: crypto.randomUUID(),
    userId,
    name,
    phone: "(512) 555-0142",
    email: null,
    status: "hot" as const,
    createdAt: now,
    lastActivity: now,
  };
  await db.insert(contacts).values(row);
  return row;
}

describe("subscriptions (Settings → Notifications)", () => {
  it("keeps a device for the signed-in agent, refuses a bad subscription with a message, and removes only the agent's own", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const other = await createAgent(env.DB);
    const browser = (await signInAs(user)).using(config);
    const theirs = (await signInAs(other)).using(config);
    const phone = await fakeDevice();

    expect((await subscribe(browser, phone.subscription)).status).toBe(201);
    const rows = await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint)).all();
    expect(rows).toMatchObject([{ userId: user.id, p256dh: phone.subscription.keys.p256dh, auth: phone.subscription.keys.auth }]);

    for (const [body, message] of [
      [{ ...phone.subscription, endpoint: "http://push.fake.test/x" }, "The subscription's endpoint must be an https address."],
      [
        { endpoint: phone.endpoint, keys: { p256dh: "short", auth: phone.subscription.keys.auth } },
        "The subscription's p256dh key has the wrong length.",
      ],
      [
        { endpoint: phone.endpoint, keys: { p256dh: phone.subscription.keys.p256dh, auth: "not base64!" } },
        "The subscription's auth secret is not base64url.",
      ],
      [{ endpoint: phone.endpoint }, "The subscription's keys are missing."],
      [["a list"], "Send the subscription as JSON."],
    ] as const) {
      const response = await subscribe(browser, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await response.json()) as object).toEqual({ ok: false, error: message });
    }
    // Nothing the refused ones said was kept.
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).toHaveLength(1);

    // Another agent cannot turn this agent's device off.
    expect((await (await subscribe(theirs, { endpoint: phone.endpoint }, "DELETE")).json()) as object).toEqual({ ok: true, removed: false });
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint)).all()).toHaveLength(1);
    expect((await (await subscribe(browser, { endpoint: phone.endpoint }, "DELETE")).json()) as object).toEqual({ ok: true, removed: true });
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint)).all()).toHaveLength(0);
  });

  it("gives a device to the agent who subscribed it last, so one phone never alerts two agents", async () => {
    const config = await pushEnv();
    const first = await createAgent(env.DB);
    const second = await createAgent(env.DB);
    const shared = await fakeDevice();
    expect((await subscribe((await signInAs(first)).using(config), shared.subscription)).status).toBe(201);
    expect((await subscribe((await signInAs(second)).using(config), shared.subscription)).status).toBe(201);
    expect(
      await db.select({ userId: pushSubscriptions.userId }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, shared.endpoint)).all(),
    ).toEqual([{ userId: second.id }]);
  });

  it("does not hand another agent's device to someone who knows only its endpoint: the same browser's keys are the proof", async () => {
    const config = await pushEnv();
    const owner = await createAgent(env.DB);
    const intruder = await createAgent(env.DB);
    const phone = await fakeDevice();
    const ownerBrowser = (await signInAs(owner)).using(config);
    expect((await subscribe(ownerBrowser, phone.subscription)).status).toBe(201);

    // The intruder's own browser has other keys for that endpoint (its own subscription's, or made up).
    const theirs = await fakeDevice();
    const response = await subscribe((await signInAs(intruder)).using(config), { endpoint: phone.endpoint, keys: theirs.subscription.keys });
    expect(response.status).toBe(409);
    expect((await response.json()) as object).toEqual({ ok: false, error: HELD_ELSEWHERE });
    const rows = await db
      .select({ userId: pushSubscriptions.userId, p256dh: pushSubscriptions.p256dh, auth: pushSubscriptions.auth })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, phone.endpoint))
      .all();
    expect(rows).toEqual([{ userId: owner.id, ...phone.subscription.keys }]);

    // The owner's own browser may renew its keys for the endpoint.
    const renewed = await fakeDevice();
    expect((await subscribe(ownerBrowser, { endpoint: phone.endpoint, keys: renewed.subscription.keys })).status).toBe(201);
    expect(
      await db
        .select({ userId: pushSubscriptions.userId, auth: pushSubscriptions.auth })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.endpoint, phone.endpoint))
        .all(),
    ).toEqual([{ userId: owner.id, auth: renewed.subscription.keys.auth }]);
  });

  it("keeps only endpoints at the browsers' push services: https, named, default port, no credentials", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const browser = (await signInAs(user)).using(config);
    const keys = (await fakeDevice()).subscription.keys;
    const NOT_A_SERVICE = "The subscription's endpoint is not a browser push service Porchlight sends to (Chrome, Edge, Firefox or Safari).";
    const IP = "The subscription's endpoint must name a push service, not an IP address.";
    for (const [endpoint, message] of [
      ["https://127.0.0.1/send/x", IP],
      ["https://0x7f000001/send/x", IP],
      ["https://2130706433/send/x", IP],
      ["https://[::1]/send/x", IP],
      ["https://10.1.2.3/send/x", IP],
      ["https://169.254.169.254/latest/meta-data/", IP],
      ["https://localhost/send/x", NOT_A_SERVICE],
      ["https://metadata.google.internal/computeMetadata/v1/", NOT_A_SERVICE],
      ["https://fcm.googleapis.com.attacker.example/fcm/send/x", NOT_A_SERVICE],
      ["https://evilpush.apple.com/x", NOT_A_SERVICE],
      ["https://example.com/fcm.googleapis.com", NOT_A_SERVICE],
      ["https://user:secret@fcm.googleapis.com/fcm/send/x", "The subscription's endpoint must not carry a user name or password."],
      ["https://fcm.googleapis.com@attacker.example/fcm/send/x", "The subscription's endpoint must not carry a user name or password."],
      ["https://fcm.googleapis.com:8443/fcm/send/x", "The subscription's endpoint must use the standard https port."],
      ["http://fcm.googleapis.com/fcm/send/x", "The subscription's endpoint must be an https address."],
    ] as const) {
      const response = await subscribe(browser, { endpoint, keys });
      expect(response.status, endpoint).toBe(400);
      expect((await response.json()) as object, endpoint).toEqual({ ok: false, error: message });
    }
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).toEqual([]);

    // What Chrome, Firefox, Safari and Edge hand out is kept (saving sends nothing).
    const real = [
      `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
      `https://updates.push.services.mozilla.com/wpush/v2/${crypto.randomUUID()}`,
      `https://web.push.apple.com/${crypto.randomUUID()}`,
      `https://wns2-par02p.notify.windows.com/w/?token=${crypto.randomUUID()}`,
    ];
    for (const endpoint of real) expect((await subscribe(browser, { endpoint, keys })).status, endpoint).toBe(201);
    const kept = await db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all();
    expect(kept.map((k) => k.endpoint).sort()).toEqual([...real].sort());
  });

  it("honours the tests' fake push service only outside production", async () => {
    const config = await pushEnv();
    expect(getConfig(config).PUSH_TEST_HOSTS).toEqual(["push.fake.test"]);
    const production = { ...config, APP_ENV: "production" };
    expect(getConfig(production).PUSH_TEST_HOSTS).toEqual([]);
    const user = await createAgent(env.DB);
    const phone = await fakeDevice();
    expect(await saveSubscription(requestContext(production), user.userId, phone.subscription)).toEqual({
      ok: false,
      status: 400,
      error: "The subscription's endpoint is not a browser push service Porchlight sends to (Chrome, Edge, Firefox or Safari).",
    });
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).toEqual([]);
    expect(() => getConfig({ ...config, PUSH_TEST_HOSTS: "127.0.0.1" })).toThrowError(/PUSH_TEST_HOSTS must be host names/);
  });

  it(`holds at most ${MAX_SUBSCRIPTIONS} devices an agent`, async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const context = requestContext(config);
    for (let i = 0; i < MAX_SUBSCRIPTIONS; i++)
      expect((await saveSubscription(context, user.userId, (await fakeDevice()).subscription)).ok).toBe(true);
    expect(await saveSubscription(context, user.userId, (await fakeDevice()).subscription)).toEqual({
      ok: false,
      status: 409,
      error: `Alerts are on for ${MAX_SUBSCRIPTIONS} devices already. Turn them off on one you no longer use first.`,
    });
  });

  it("is not there while PUSH_NOTIFICATIONS is off, and the flag cannot be on without a VAPID key pair", async () => {
    const user = await createAgent(env.DB);
    const browser = await signInAs(user);
    const response = await subscribe(browser, (await fakeDevice()).subscription);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe("Push notifications are not turned on for this Porchlight.");
    const settings = await (await browser.get("/settings?tab=notifications")).text();
    expect(settings).not.toContain("New-lead alerts");
    expect(() => getConfig({ ...(env as Env), FEATURE_FLAGS: "PUSH_NOTIFICATIONS=on" })).toThrowError(
      /PUSH_NOTIFICATIONS is on, but VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not both set/,
    );
    expect(() => getConfig({ ...(env as Env), VAPID_PUBLIC_KEY: "too-short" })).toThrowError(/VAPID_PUBLIC_KEY must be/);
  });

  it("shows Settings → Notifications with the count of devices while push is on", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const browser = (await signInAs(user)).using(config);
    await subscribe(browser, (await fakeDevice()).subscription);
    const html = await (await browser.get("/settings?tab=notifications")).text();
    expect(html).toContain("New-lead alerts");
    expect(html).toContain("Alerts are on for 1 device.");
  });
});

describe("sending", () => {
  it("pushes a new lead to each of the agent's devices, encrypted to the device and signed with the deployment's key", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const other = await createAgent(env.DB);
    const [phone, laptop, theirs] = await Promise.all([fakeDevice(), fakeDevice(), fakeDevice()]);
    const context = requestContext(config);
    for (const device of [phone, laptop]) await saveSubscription(context, user.userId, device.subscription);
    await saveSubscription(context, other.userId, theirs.subscription);
    const service = withPushService([phone, laptop, theirs], config);

    const lead = await addContact(user.id, "Rowan Lee");
    expect(await raiseLeadAlert(context, user.userId, lead)).toBe(1);
    expect(service.delivered).toEqual([]);
    await drainPushes(user.id, config);
    expect(service.delivered.map((d) => d.endpoint).sort()).toEqual([phone.endpoint, laptop.endpoint].sort());
    for (const delivery of service.delivered) {
      expect(delivery.message).toEqual({
        title: "New lead: Rowan Lee",
        body: `(512) 555-0142. Reach out in the next ${LEAD_REMINDER_MINUTES} minutes.`,
        url: `/contacts/${lead.id}`,
        tag: `lead-${lead.id}`,
      });
      expect(delivery.jwt.sub).toBe("mailto:ops@porchlight.test");
      expect(delivery.urgency).toBe("high");
      expect(Number(delivery.ttl)).toBeGreaterThan(0);
    }
    const [alert] = await db.select().from(leadAlerts).where(eq(leadAlerts.contactId, lead.id)).all();
    expect(alert?.pushedAt).not.toBeNull();
    // The same lead raised again (a retry) is not pushed twice, nor is the push delivered twice.
    expect(await raiseLeadAlert(context, user.userId, lead)).toBe(0);
    await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: `lead-alert:${lead.id}` }], 2, config);
    expect(service.delivered).toHaveLength(2);
  });

  it("drops a subscription the push service says is gone (410), and one that keeps failing", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const [gone, flaky] = await Promise.all([fakeDevice(), fakeDevice()]);
    const context = requestContext(config);
    await saveSubscription(context, user.userId, gone.subscription);
    await saveSubscription(context, user.userId, flaky.subscription);
    withPushService([gone, flaky], config, (endpoint) => (endpoint === gone.endpoint ? 410 : 503));
    const message = { title: "t", body: "b", url: "/dashboard", tag: "x" };
    expect(await pushToUser(config, user.userId, message)).toBe(0);
    const left = await db
      .select({ endpoint: pushSubscriptions.endpoint, failures: pushSubscriptions.failures })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, user.id))
      .all();
    expect(left).toEqual([{ endpoint: flaky.endpoint, failures: 1 }]);
    for (let i = 0; i < 4; i++) await pushToUser(config, user.userId, message);
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).toEqual([]);
  });

  it("never contacts an endpoint outside the push services, even one already stored, and drops it", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const phone = await fakeDevice();
    const context = requestContext(config);
    await saveSubscription(context, user.userId, phone.subscription);
    // Kept before endpoints were checked: the cloud metadata address, and the fake service in a production deployment.
    const stored = ["https://169.254.169.254/latest/meta-data/", "https://metadata.google.internal/computeMetadata/v1/"];
    for (const endpoint of stored)
      await db.insert(pushSubscriptions).values({
        id: crypto.randomUUID(),
        userId: user.id,
        endpoint,
        p256dh: phone.subscription.keys.p256dh,
        auth: phone.subscription.keys.auth,
        createdAt: Date.now(),
      });
    const service = withPushService([phone], config);
    const spy = vi.mocked(globalThis.fetch);

    expect(await pushToUser(config, user.userId, { title: "t", body: "b", url: "/dashboard", tag: "x" })).toBe(1);
    expect(spy.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input))).toEqual([phone.endpoint]);
    expect(service.delivered.map((d) => d.endpoint)).toEqual([phone.endpoint]);
    expect(
      (await db.select({ endpoint: pushSubscriptions.endpoint }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).map(
        (r) => r.endpoint,
      ),
    ).toEqual([phone.endpoint]);

    // A push service's redirect is not followed (it could point anywhere): the send counts as failed.
    spy.mockClear();
    withPushService([phone], config, () => 307);
    const redirected = vi.mocked(globalThis.fetch);
    expect(await pushToUser(config, user.userId, { title: "t", body: "b", url: "/dashboard", tag: "x" })).toBe(0);
    expect(redirected.mock.calls.map(([, init]) => init?.redirect)).toEqual(["manual"]);
    expect(
      await db.select({ failures: pushSubscriptions.failures }).from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint)).all(),
    ).toEqual([{ failures: 1 }]);

    // In production the fake service's host is just another host: not contacted either.
    vi.restoreAllMocks();
    const inProduction = vi.spyOn(globalThis, "fetch");
    expect(await pushToUser({ ...config, APP_ENV: "production" }, user.userId, { title: "t", body: "b", url: "/dashboard", tag: "x" })).toBe(0);
    expect(inProduction).not.toHaveBeenCalled();
  });

  it("sends nothing while push is off", async () => {
    const user = await createAgent(env.DB);
    const spy = vi.spyOn(globalThis, "fetch");
    const lead = await addContact(user.id, "Quiet Lead");
    expect(await raiseLeadAlert(requestContext(), user.userId, lead)).toBe(0);
    expect(spy).not.toHaveBeenCalled();
    // The lead still waits on the dashboard.
    expect((await leadsWaitingNow({ db }, user.userId)).leads.map((l) => l.name)).toEqual(["Quiet Lead"]);
  });

  it("raises an alert for a contact added in the app and for one sent from the phone's offline queue", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const phone = await fakeDevice();
    await saveSubscription(requestContext(config), user.userId, phone.subscription);
    const service = withPushService([phone], config);
    const browser = (await signInAs(user)).using(config);
    const added = await browser.post("/contacts?index", {
      intent: "create",
      name: "Dialog Lead",
      phone: "555 0101",
      status: "hot",
      propertyType: "house",
      source: "website",
    });
    expect(added.status).toBe(200);
    // Queued after the response (waitUntil), then delivered by the push queue's consumer.
    await vi.waitFor(async () => expect(await waitingPushes(user.id)).toHaveLength(1), { timeout: 5_000 });
    await drainPushes(user.id, config);
    expect(service.delivered.map((d) => d.message.title)).toEqual(["New lead: Dialog Lead"]);

    const [result] = await applyQueuedChanges(requestContext(config), user.userId, [
      { key: "offline-lead-0001", type: "add_contact", contact: { name: "Offline Lead", phone: "555 0102" } },
    ]);
    expect(result?.status).toBe("applied");
    await vi.waitFor(async () => expect(await waitingPushes(user.id)).toHaveLength(1), { timeout: 5_000 });
    await drainPushes(user.id, config);
    expect(service.delivered.map((d) => d.message.title)).toEqual(["New lead: Dialog Lead", "New lead: Offline Lead"]);
    expect((await leadsWaitingNow({ db }, user.userId)).leads.map((l) => l.name)).toEqual(["Dialog Lead", "Offline Lead"]);
  });
});

describe("an import's new leads", () => {
  it("pushes the rows marked New as one alert naming a few, and one reminder for the leads still waiting", async () => {
    const { user, phone, context, service, config } = await agentWithPhone();
    const rows = [
      ["Ada New", "New"],
      ["Ben New", "New"],
      ["Cy New", "New lead"],
      ["Di New", "New"],
      ["Ed Old", "Lead"],
    ].map(([name, status], i) => [name!, `55501${i}0`, status!]);
    const summary = await importContacts(context, user.userId, { rows, mapping: ["name", "phone", "status"], mode: "skip" });
    expect(summary).toMatchObject({ created: 5, newLeads: 4 });
    await vi.waitFor(async () => expect(await waitingPushes(user.id)).toHaveLength(1), { timeout: 5_000 });
    await drainPushes(user.id, config);
    expect(service.delivered).toHaveLength(1);
    expect(service.delivered[0]!.message).toEqual({
      title: "4 new leads imported",
      body: `Ada New, Ben New, Cy New and 1 more. Reach out in the next ${LEAD_REMINDER_MINUTES} minutes.`,
      url: "/dashboard",
      tag: expect.stringMatching(/^leads-\d+$/),
    });
    const alerts = await db.select().from(leadAlerts).where(eq(leadAlerts.userId, user.id)).all();
    expect(alerts).toHaveLength(4);
    expect((await db.select().from(leadAlerts).where(eq(leadAlerts.userId, user.id)).all()).every((a) => a.pushedAt !== null)).toBe(true);

    // Five minutes on, one reminder for the three still waiting (a call answered one), not three.
    const [ada] = await db.select().from(contacts).where(eq(contacts.name, "Ada New")).all();
    await db.insert(crmActivities).values({ id: crypto.randomUUID(), userId: user.id, contactId: ada!.id, type: "call", occurredAt: new Date() });
    const arrived = alerts[0]!.arrivedAt;
    const { reminded } = await sendLeadReminders(context, arrived + 6 * MINUTE);
    expect(reminded).toBeGreaterThanOrEqual(3);
    await drainPushes(user.id, config);
    const mine = service.delivered.slice(1).filter((d) => d.endpoint === phone.endpoint);
    expect(mine.map((d) => d.message)).toEqual([
      {
        title: "Still waiting: 3 new leads",
        body: "Ben New, Cy New and Di New, with no reply yet; the first arrived 6 minutes ago.",
        url: "/dashboard",
        tag: "lead-reminders",
      },
    ]);
    const after = await db
      .select({ name: contacts.name, remindedAt: leadAlerts.remindedAt })
      .from(leadAlerts)
      .innerJoin(contacts, eq(contacts.id, leadAlerts.contactId))
      .where(eq(leadAlerts.userId, user.id))
      .all();
    expect(Object.fromEntries(after.map((a) => [a.name, a.remindedAt]))).toEqual({
      "Ada New": null,
      "Ben New": arrived + 6 * MINUTE,
      "Cy New": arrived + 6 * MINUTE,
      "Di New": arrived + 6 * MINUTE,
    });
    await sendLeadReminders(context, arrived + 7 * MINUTE);
    expect(await waitingPushes(user.id)).toEqual([]);
  });

  it("reminds an agent with thousands of leads waiting in one push, without crowding out another agent's reminder", async () => {
    const busy = await createAgent(env.DB);
    const rows = Array.from({ length: 2_100 }, (_, i) => [`Bulk ${i}`, `bulk${i}@example.com`, "New"]);
    await importContacts(requestContext(), busy.userId, { rows, mapping: ["name", "email", "status"], mode: "skip" });
    const [bulk] = await db.select({ arrivedAt: leadAlerts.arrivedAt }).from(leadAlerts).where(eq(leadAlerts.userId, busy.id)).limit(1).all();
    const { user, context, service, phone, config } = await agentWithPhone();
    const lead = await addContact(user.id, "Lone Lead");
    await raiseLeadAlert(context, user.userId, lead, bulk!.arrivedAt + 1);
    await drainPushes(user.id, config);
    service.delivered.length = 0;

    const { reminded } = await sendLeadReminders(context, bulk!.arrivedAt + 6 * MINUTE);
    expect(reminded).toBeGreaterThanOrEqual(2_101);
    await drainPushes(user.id, config);
    expect(service.delivered.filter((d) => d.endpoint === phone.endpoint).map((d) => d.message.title)).toEqual(["Still waiting: Lone Lead"]);
    const left = await db
      .select({ n: sql<number>`count(*)` })
      .from(leadAlerts)
      .where(and(eq(leadAlerts.userId, busy.id), isNull(leadAlerts.remindedAt)))
      .get();
    expect(left?.n).toBe(0);
  });

  it("lists the oldest waiting leads on the dashboard and says how many more wait", async () => {
    const user = await createAgent(env.DB);
    const rows = Array.from({ length: WAITING_LEADS_SHOWN + 3 }, (_, i) => [`Lead ${String(i).padStart(2, "0")}`, `lead${i}@example.com`, "New"]);
    await importContacts(requestContext(), user.userId, { rows, mapping: ["name", "email", "status"], mode: "skip" });
    const waiting = await leadsWaitingNow({ db }, user.userId);
    expect(waiting.leads).toHaveLength(WAITING_LEADS_SHOWN);
    expect(waiting.count - waiting.leads.length).toBe(3);
    const browser = await signInAs(user);
    const page = await browser.get("/dashboard");
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/3 more new leads are(<!-- -->)? waiting/);
  });
});

describe("the lead timer and the five-minute reminder", () => {
  it("lists the agent's own unanswered leads, oldest first, until an activity is logged with one", async () => {
    const user = await createAgent(env.DB);
    const other = await createAgent(env.DB);
    const context = requestContext();
    const now = Date.now();
    const first = await addContact(user.id, "First");
    const second = await addContact(user.id, "Second");
    const theirs = await addContact(other.id, "Theirs");
    await raiseLeadAlert(context, user.userId, first, now - 3 * MINUTE);
    await raiseLeadAlert(context, user.userId, second, now - MINUTE);
    await raiseLeadAlert(context, other.userId, theirs, now - 2 * MINUTE);
    expect((await leadsWaitingNow({ db }, user.userId, now)).leads.map((l) => [l.name, l.arrivedAt])).toEqual([
      ["First", now - 3 * MINUTE],
      ["Second", now - MINUTE],
    ]);
    // A stage change is the pipeline's, not a response; a call is.
    await db
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId: user.id, contactId: first.id, type: "stage_change", occurredAt: new Date(now) });
    expect((await leadsWaitingNow({ db }, user.userId, now)).leads).toHaveLength(2);
    await db.insert(crmActivities).values({ id: crypto.randomUUID(), userId: user.id, contactId: first.id, type: "call", occurredAt: new Date(now) });
    expect((await leadsWaitingNow({ db }, user.userId, now)).leads.map((l) => l.name)).toEqual(["Second"]);
  });

  it("reminds once, at five minutes, only about leads nobody has answered", async () => {
    const { user, context, service, config } = await agentWithPhone();
    const now = Date.now();
    const due = await addContact(user.id, "Due Lead");
    const early = await addContact(user.id, "Early Lead");
    const answeredLead = await addContact(user.id, "Answered Lead");
    const stale = await addContact(user.id, "Stale Lead");
    await raiseLeadAlert(context, user.userId, due, now - 6 * MINUTE);
    await raiseLeadAlert(context, user.userId, early, now - 4 * MINUTE);
    await raiseLeadAlert(context, user.userId, answeredLead, now - 7 * MINUTE);
    await raiseLeadAlert(context, user.userId, stale, now - 3 * 60 * MINUTE);
    await db
      .insert(crmActivities)
      .values({ id: crypto.randomUUID(), userId: user.id, contactId: answeredLead.id, type: "text", occurredAt: new Date(now) });
    await drainPushes(user.id, config);
    service.delivered.length = 0;

    await sendLeadReminders(context, now);
    expect(await waitingPushes(user.id)).toHaveLength(1);
    await drainPushes(user.id, config);
    expect(service.delivered.map((d) => d.message)).toEqual([
      {
        title: "Still waiting: Due Lead",
        body: "6 minutes since they arrived, with no reply yet. (512) 555-0142.",
        url: `/contacts/${due.id}`,
        tag: `lead-${due.id}`,
      },
    ]);
    // The reminder's push delivered again (Queues deliver at least once) is not pushed again.
    await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: `lead-reminder:${user.id}:${now}` }], 2, config);
    expect(service.delivered).toHaveLength(1);
    // Once only.
    await sendLeadReminders(context, now + MINUTE);
    await drainPushes(user.id, config);
    expect(service.delivered.map((d) => d.message.title)).toEqual(["Still waiting: Due Lead", "Still waiting: Early Lead"]);
    await sendLeadReminders(context, now + 2 * MINUTE);
    expect(await waitingPushes(user.id)).toEqual([]);
    expect(service.delivered).toHaveLength(2);
    const marked = await db
      .select({ contactId: leadAlerts.contactId, remindedAt: leadAlerts.remindedAt })
      .from(leadAlerts)
      .where(eq(leadAlerts.userId, user.id))
      .all();
    expect(Object.fromEntries(marked.map((m) => [m.contactId, m.remindedAt]))).toEqual({
      [due.id]: now,
      [early.id]: now + MINUTE,
      [answeredLead.id]: null,
      [stale.id]: null,
    });
  });

  it("runs in the five-minute cron, and does nothing while push is off", async () => {
    expect(JOBS["*/5 * * * *"]!.map((job) => job.name)).toContain("leadReminderJob");
    const user = await createAgent(env.DB);
    const lead = await addContact(user.id, "Cron Lead");
    await raiseLeadAlert(requestContext(), user.userId, lead, Date.now() - 6 * MINUTE);
    const job = JOBS["*/5 * * * *"]!.find((j) => j.name === "leadReminderJob")!;
    await job(db, { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, env as Env);
    const [alert] = await db.select().from(leadAlerts).where(eq(leadAlerts.contactId, lead.id)).all();
    expect(alert?.remindedAt).toBeNull();
    const config = await pushEnv();
    await job(db, { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController, config);
    const [after] = await db.select().from(leadAlerts).where(eq(leadAlerts.contactId, lead.id)).all();
    expect(after?.remindedAt).not.toBeNull();
  });
});

describe("the push queue", () => {
  const pushRow = (id: string) => db.select().from(pushOutbox).where(eq(pushOutbox.id, id)).get();

  it("retries only the devices a push service refused, so no device gets a push twice, and sends nothing on a repeat", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const [phone, laptop] = await Promise.all([fakeDevice(), fakeDevice()]);
    const context = requestContext(config);
    for (const device of [phone, laptop]) await saveSubscription(context, user.userId, device.subscription);
    let laptopUp = false;
    const service = withPushService([phone, laptop], config, (endpoint) => (endpoint === laptop.endpoint && !laptopUp ? 503 : 201));
    const lead = await addContact(user.id, "Retry Lead");
    expect(await raiseLeadAlert(context, user.userId, lead)).toBe(1);
    const key = `lead-alert:${lead.id}`;

    const first = await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: key }], 1, config);
    expect(first.retried).toEqual(first.ids);
    expect(first.delays).toEqual([30]);
    expect(service.delivered.map((d) => d.endpoint)).toEqual([phone.endpoint]);
    const phoneId = (await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, phone.endpoint)).get())!.id;
    expect(await pushRow(key)).toMatchObject({
      status: "retrying",
      attempts: 1,
      sentTo: [phoneId],
      error: "1 of 2 devices not reached: push service answered 503",
    });
    expect((await db.select().from(leadAlerts).where(eq(leadAlerts.contactId, lead.id)).get())?.pushedAt).toBeNull();

    laptopUp = true;
    const second = await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: key }], 2, config);
    expect(second.acked).toEqual(second.ids);
    expect(service.delivered.map((d) => d.endpoint)).toEqual([phone.endpoint, laptop.endpoint]);
    expect(await pushRow(key)).toMatchObject({ status: "sent", attempts: 2, error: null });
    expect((await pushRow(key))!.sentTo).toHaveLength(2);
    expect((await db.select().from(leadAlerts).where(eq(leadAlerts.contactId, lead.id)).get())?.pushedAt).not.toBeNull();

    // Delivered again (Queues deliver at least once), twice in one batch or later: nothing more is sent.
    const again = await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: key }, { pushId: key }], 3, config);
    expect(again.acked.sort()).toEqual(again.ids.sort());
    expect(service.delivered).toHaveLength(2);
  });

  it("lands dead after the last retry, shows in the Operations Center and trips the dead push threshold", async () => {
    const config = await pushEnv();
    const user = await createAgent(env.DB);
    const phone = await fakeDevice();
    await saveSubscription(requestContext(config), user.userId, phone.subscription);
    const service = withPushService([phone], config, () => 503);
    const before = await pushDeliveryFigures(accountDatabases(env as Env), Date.now());
    const lead = await addContact(user.id, "Dead Lead");
    await raiseLeadAlert(requestContext(config), user.userId, lead);
    const key = `lead-alert:${lead.id}`;
    const delays: (number | undefined)[] = [];
    for (let attempt = 1; attempt <= OUTGOING_MAX_RETRIES + 1; attempt++) {
      const result = await deliverBatch(PUSH_QUEUE_NAME, [{ pushId: key }], attempt, config);
      expect(result.retried).toEqual(result.ids);
      delays.push(...result.delays);
    }
    expect(delays).toEqual([30, 60, 120, 240, 480, 960]);
    // Five refusals in a row dropped the device; the sixth attempt had nowhere to go, and the refusal stands.
    expect(await db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, user.id)).all()).toEqual([]);
    expect(service.delivered).toEqual([]);
    const dead = await deliverBatch(PUSH_DEAD_LETTER_QUEUE_NAME, [{ pushId: key }], 1, config);
    expect(dead.acked).toEqual(dead.ids);
    expect(await pushRow(key)).toMatchObject({
      status: "dead",
      attempts: OUTGOING_MAX_RETRIES + 1,
      error: "1 of 1 devices not reached: push service answered 503",
    });

    const now = Date.now();
    const figures = await pushDeliveryFigures(accountDatabases(env as Env), now);
    expect(figures.dead24h).toBeGreaterThanOrEqual(before.dead24h + 1);
    expect(figures.deadTotal).toBeGreaterThanOrEqual(before.deadTotal + 1);
    const monitoring = await loadMonitoring(db, accountDatabases(env as Env), now);
    expect((await readThresholdMetrics(db, accountDatabases(env as Env), now)).dead_pushes_24h).toBe(monitoring.push.figures.dead24h);
    expect(monitoring.watch.dead_pushes_24h.reading).toBe(monitoring.push.figures.dead24h);
    expect(monitoring.push.dead.find((d) => d.id === key)).toMatchObject({ to: user.email, subject: "New lead: Dead Lead", attempts: 6 });

    const admin = await signInAs(await createAgent(env.DB, { role: "admin" }));
    const page = await (await admin.get("/operations")).text();
    const panel = page.slice(page.indexOf('id="push-delivery-heading"'));
    expect(panel).toContain("New lead: Dead Lead");
    expect(panel).toContain(`To the devices of ${user.email}`);
    expect(panel).toContain("Last error: 1 of 1 devices not reached: push service answered 503");

    // The threshold (seeded as dead_pushes_24h > 0) alerts like the others.
    await expectWarningAbove0("dead_pushes_24h", now);
  });
});
