import { env } from "cloudflare:workers";
import { and, count, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { checkoutSessions, emailOutbox, subscribers, users } from "~/db/schema";
import { RATE_LIMITS, type RateLimitRule } from "~/lib/rate-limit.server";
import { AUTH_MESSAGES } from "~/modules/auth/auth.messages";
import { LOCKOUT_MS, LOCKOUT_THRESHOLD } from "~/modules/auth/lockout.server";
import { TOKEN_TTL_MS } from "~/modules/auth/tokens.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { linkFromLatestEmail } from "../factories/mail";
import { createUser, DEFAULT_PASSWORD, uniqueEmail } from "../factories/users";
import { restoreSuiteClock } from "../factories/dates";

// The hour-long limits on sign-up, e-mailed links and checkout, expired links, and the lockout's
// edges. The limits are fixed KV windows, so each test sets the clock to just after a window starts (vi's
// system time, which the Worker under test shares) instead of racing the real window's end.

const db = () => createDb(env.DB);
const userByEmail = (email: string) => db().select().from(users).where(eq(users.email, email)).get();
const emailsTo = async (to: string, kind: "verify_email" | "reset_password") =>
  (await db()
    .select({ n: count() })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toAddress, to.toLowerCase()), eq(emailOutbox.kind, kind)))
    .get())!.n;
const signIn = (browser: TestBrowser, email: string, password = DEFAULT_PASSWORD) =>
  browser.post("/auth", { mode: "signin", email, password, website_url: "" });

/** Sets the clock a second into the next window of `rule` (ahead of real time, so KV expirations stay valid). */
function startOfNextWindow(rule: RateLimitRule, from = Date.now()) {
  const windowMs = rule.windowSeconds * 1000;
  const start = (Math.floor(from / windowMs) + 1) * windowMs + 1000;
  vi.setSystemTime(start);
  return start;
}

afterEach(restoreSuiteClock);

describe("sign-up limit per client address", () => {
  it("takes 10 sign-ups an hour from one address, refuses the 11th with a clear message and no account, and opens again next hour", async () => {
    const rule = RATE_LIMITS.signupIp;
    const start = startOfNextWindow(rule);
    const browser = new TestBrowser();
    // Every attempt counts, refused ones too: a weak password is refused after the limit is counted.
    for (let i = 0; i < rule.limit; i++) {
      const weak = await browser.post("/auth", { mode: "signup", email: uniqueEmail("limit"), password: "short", website_url: "" });
      expect(weak.status, `attempt ${i + 1}`).toBe(400);
    }
    vi.setSystemTime(start + rule.windowSeconds * 1000 - 2000);
    const email = uniqueEmail("limit");
    const refused = await browser.post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" });
    expect(refused.status).toBe(429);
    // Two seconds before the window ends: the spec's "wait a minute" is true.
    const text = await refused.text();
    expect(text).toContain(AUTH_MESSAGES.tooManyAttempts.title);
    expect(text).toContain("Please wait a minute before trying again.");
    expect(await userByEmail(email)).toBeUndefined();
    // Another address is not held back.
    expect(
      (await new TestBrowser().post("/auth", { mode: "signup", email: uniqueEmail("limit"), password: DEFAULT_PASSWORD, website_url: "" })).status,
    ).toBe(302);

    vi.setSystemTime(start + rule.windowSeconds * 1000);
    const next = await browser.post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "" });
    expect(next.status).toBe(302);
    expect(await userByEmail(email)).toBeDefined();
  });
});

describe("e-mailed link limits", () => {
  it("sends 5 fresh verification links an hour, then refuses the 6th and sends nothing", async () => {
    const rule = RATE_LIMITS.emailLink;
    const start = startOfNextWindow(rule);
    const user = await createUser(env.DB, { verified: false });
    const browser = await signInAs(user);
    for (let i = 0; i < rule.limit; i++) expect((await browser.post("/auth/verify-email", {})).status, `resend ${i + 1}`).toBe(302);
    expect(await emailsTo(user.email, "verify_email")).toBe(rule.limit);
    const refused = await browser.post("/auth/verify-email", {});
    expect(refused.status).toBe(429);
    // An hour-long window says how long, not "a minute" (a retry after a minute would fail again).
    expect(await refused.text()).toContain("Please wait 60 minutes before trying again.");
    expect(await emailsTo(user.email, "verify_email")).toBe(rule.limit);

    vi.setSystemTime(start + rule.windowSeconds * 1000);
    expect((await browser.post("/auth/verify-email", {})).status).toBe(302);
    expect(await emailsTo(user.email, "verify_email")).toBe(rule.limit + 1);
  });

  it("sends 5 reset links an hour per address, whoever asks, then refuses the 6th and sends nothing", async () => {
    const rule = RATE_LIMITS.emailLink;
    const start = startOfNextWindow(rule);
    const user = await createUser(env.DB);
    for (let i = 0; i < rule.limit; i++) {
      const asked = await new TestBrowser().post("/auth/forgot", { email: user.email });
      expect(asked.status, `request ${i + 1}`).toBe(200);
    }
    expect(await emailsTo(user.email, "reset_password")).toBe(rule.limit);
    vi.setSystemTime(start + 30 * 60_000);
    const refused = await new TestBrowser().post("/auth/forgot", { email: user.email });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Please wait 30 minutes before trying again.");
    expect(await emailsTo(user.email, "reset_password")).toBe(rule.limit);

    vi.setSystemTime(start + rule.windowSeconds * 1000);
    expect((await new TestBrowser().post("/auth/forgot", { email: user.email })).status).toBe(200);
    expect(await emailsTo(user.email, "reset_password")).toBe(rule.limit + 1);
  });
});

describe("checkout limit", () => {
  it("starts 10 checkouts an hour for one agent and address, then refuses with a message and starts none", async () => {
    const rule = RATE_LIMITS.trialCheckout;
    startOfNextWindow(rule);
    const user = await createUser(env.DB, { status: "inactive" });
    const browser = await signInAs(user);
    for (let i = 0; i < rule.limit; i++) {
      const started = await browser.post("/trial/start", { period: "monthly" });
      expect(started.status, `checkout ${i + 1}`).toBe(302);
      expect(started.headers.get("Location")).toMatch(/^\/billing\/test-checkout\//);
    }
    const sessions = async () => (await db().select({ n: count() }).from(checkoutSessions).where(eq(checkoutSessions.userId, user.id)).get())!.n;
    expect(await sessions()).toBe(rule.limit);
    const refused = await browser.post("/trial/start", { period: "monthly" });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Please wait 60 minutes before trying again.");
    expect(await sessions()).toBe(rule.limit);
    const row = await db().select().from(subscribers).where(eq(subscribers.userId, user.id)).get();
    expect(row!.subscriptionStatus).toBe("pending_checkout");
  });
});

describe("expired links", () => {
  it("refuses a confirmation link after 24 hours and leaves the address unconfirmed; a fresh link works", async () => {
    const issued = Date.now();
    vi.setSystemTime(issued);
    const user = await createUser(env.DB, { verified: false });
    const browser = await signInAs(user);
    expect((await browser.post("/auth/verify-email", {})).status).toBe(302);
    const link = await linkFromLatestEmail(env.DB, user.email);

    vi.setSystemTime(issued + TOKEN_TTL_MS.verify_email + 1);
    const expired = await browser.follow(await browser.get(link));
    expect(expired.url).toBe("/auth/verify-email");
    expect(expired.html).toContain("This confirmation link has expired. Ask for a new one below.");
    expect((await userByEmail(user.email))!.emailVerifiedAt).toBeNull();

    expect((await browser.post("/auth/verify-email", {})).status).toBe(302);
    const fresh = await browser.get(await linkFromLatestEmail(env.DB, user.email));
    expect(fresh.headers.get("Location")).toBe("/dashboard");
    expect((await userByEmail(user.email))!.emailVerifiedAt).not.toBeNull();
  });

  it("shows a reset link as expired after an hour, refuses to use it, and keeps the old password", async () => {
    const issued = Date.now();
    vi.setSystemTime(issued);
    const user = await createUser(env.DB);
    expect((await new TestBrowser().post("/auth/forgot", { email: user.email })).status).toBe(200);
    const link = await linkFromLatestEmail(env.DB, user.email);
    const token = new URL(`http://x${link}`).searchParams.get("token")!;

    // A second before it expires the form still shows.
    vi.setSystemTime(issued + TOKEN_TTL_MS.reset_password - 1000);
    expect(await new TestBrowser().page(link)).toContain("Choose a new password");

    vi.setSystemTime(issued + TOKEN_TTL_MS.reset_password + 1);
    expect(await new TestBrowser().page(link)).toContain("This reset link has expired.");
    const used = await new TestBrowser().post("/auth/reset", { token, password: "a brand new passphrase", confirm: "a brand new passphrase" });
    expect(used.status).toBe(400);
    expect(await used.text()).toContain("This reset link has expired.");
    expect((await signIn(new TestBrowser(), user.email, "a brand new passphrase")).status).toBe(401);
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(302);
  });
});

describe("account lockout edges", () => {
  const failures = (userId: string, n: number) => db().update(users).set({ failedSigninCount: n }).where(eq(users.id, userId));

  it(`still signs in after ${LOCKOUT_THRESHOLD - 1} failures, and the count starts again`, async () => {
    const user = await createUser(env.DB);
    await failures(user.id, LOCKOUT_THRESHOLD - 2);
    expect((await signIn(new TestBrowser(), user.email, "wrong password here")).status).toBe(401);
    expect((await userByEmail(user.email))!.failedSigninCount).toBe(LOCKOUT_THRESHOLD - 1);
    expect((await userByEmail(user.email))!.lockedUntil).toBeNull();
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(302);
    expect((await userByEmail(user.email))!).toMatchObject({ failedSigninCount: 0, lockedUntil: null });
  });

  it(`locks at ${LOCKOUT_THRESHOLD} failures for the lockout period, then signs in again`, async () => {
    const start = Date.now();
    vi.setSystemTime(start);
    const user = await createUser(env.DB);
    await failures(user.id, LOCKOUT_THRESHOLD - 1);
    const locking = await signIn(new TestBrowser(), user.email, "wrong password here");
    expect(locking.status).toBe(423);
    expect(await locking.text()).toContain(AUTH_MESSAGES.locked.description);
    expect((await userByEmail(user.email))!.lockedUntil?.getTime()).toBe(start + LOCKOUT_MS);

    vi.setSystemTime(start + LOCKOUT_MS - 1000);
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(423);

    vi.setSystemTime(start + LOCKOUT_MS + 1000);
    const back = new TestBrowser();
    expect((await signIn(back, user.email)).status).toBe(302);
    expect(back.session()).not.toBeNull();
    expect((await userByEmail(user.email))!).toMatchObject({ failedSigninCount: 0, lockedUntil: null });
  });
});
