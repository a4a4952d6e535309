import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { userPreferences, users } from "~/db/schema";
import { AUTH_MESSAGES } from "~/modules/auth/auth.messages";
import { LOCKOUT_THRESHOLD } from "~/modules/auth/lockout.server";
import type { Env } from "~/lib/env.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { failingD1 } from "../factories/context";
import { linkFromLatestEmail, latestEmail } from "../factories/mail";
import { createUser, DEFAULT_PASSWORD, setSubscriptionStatus, uniqueEmail } from "../factories/users";
import { atFreshWindow } from "../factories/dates";

const db = () => createDb(env.DB);
const signUp = (browser: TestBrowser, email: string, password = DEFAULT_PASSWORD) =>
  browser.post("/auth", { mode: "signup", email, password, website_url: "" });
const signIn = (browser: TestBrowser, email: string, password = DEFAULT_PASSWORD) =>
  browser.post("/auth", { mode: "signin", email, password, website_url: "" });
const userByEmail = (email: string) => db().select().from(users).where(eq(users.email, email)).get();

describe("sign-up, verification, sign-in and sign-out", () => {
  it("takes a new agent from sign-up through e-mail verification to the app and back out", async () => {
    const browser = new TestBrowser();
    const email = uniqueEmail("newagent");

    const created = await signUp(browser, email);
    expect(created.status).toBe(302);
    expect(created.headers.get("Location")).toBe("/auth/verify-email");
    const cookie = created.headers.getSetCookie().find((c: string) => c.startsWith("porchlight_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const waiting = await browser.follow(created);
    expect(waiting.html).toContain("Confirm your e-mail");
    expect(waiting.html).toContain(email);

    // Unverified accounts cannot reach the app.
    const blocked = await browser.get("/dashboard");
    expect(blocked.headers.get("Location")).toBe("/auth/verify-email");

    const link = await linkFromLatestEmail(env.DB, email);
    expect(link).toMatch(/^\/auth\/verify\?token=/);
    const verified = await browser.get(link);
    expect(verified.headers.get("Location")).toBe("/dashboard");
    expect((await userByEmail(email))!.emailVerifiedAt).not.toBeNull();

    // Verified but no subscription yet: the billing guard sends the account to start its trial.
    expect((await browser.get("/dashboard")).headers.get("Location")).toBe("/trial/start");
    await setSubscriptionStatus(env.DB, (await userByEmail(email))!.id, "trialing");
    const dashboard = await browser.get("/dashboard");
    expect(dashboard.status).toBe(200);
    expect(await dashboard.text()).toContain("Dashboard");

    const out = await browser.post("/auth/signout", {});
    expect(out.headers.get("Location")).toBe("/auth");
    expect(browser.session()).toBeNull();
    expect((await browser.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);

    const again = await signIn(browser, email);
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/dashboard");
    expect((await browser.get("/dashboard")).status).toBe(200);

    // The verification link was single-use.
    const reused = await new TestBrowser().get(link);
    expect(reused.headers.get("Location")).toBe("/auth");
  });

  it("sends a signed-in visitor from /auth to /dashboard", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const response = await browser.get("/auth");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
  });

  it("returns to the page that asked for sign-in, but never to another site", async () => {
    const user = await createUser(env.DB);
    const browser = new TestBrowser();
    const kept = await browser.post("/auth", {
      mode: "signin",
      email: user.email,
      password: user.password,
      website_url: "",
      redirectTo: "/settings",
    });
    expect(kept.headers.get("Location")).toBe("/settings");
    const other = new TestBrowser();
    const refused = await other.post("/auth", {
      mode: "signin",
      email: user.email,
      password: user.password,
      website_url: "",
      redirectTo: "//evil.example/x",
    });
    expect(refused.headers.get("Location")).toBe("/dashboard");
  });

  it("lets a user ask for a fresh verification link", async () => {
    const user = await createUser(env.DB, { verified: false });
    const browser = await signInAs(user);
    const first = await latestEmail(env.DB, user.email);
    expect(first).toBeUndefined();
    const resent = await browser.post("/auth/verify-email", {});
    expect(resent.headers.get("Location")).toBe("/auth/verify-email");
    expect((await latestEmail(env.DB, user.email))?.subject).toBe("Confirm your e-mail for Porchlight");
  });
});

describe("sign-in and sign-up messages (spec section 8)", () => {
  it("answers a wrong password and an unknown address with the same message", async () => {
    const user = await createUser(env.DB);
    const wrong = await signIn(new TestBrowser(), user.email, "not the password at all");
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain(AUTH_MESSAGES.invalidCredentials.description);
    const unknown = await signIn(new TestBrowser(), uniqueEmail("nobody"));
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain(AUTH_MESSAGES.invalidCredentials.description);
  });

  it("is served without React, and answers a native post with the page again: its message and the e-mail filled in", async () => {
    const page = await new TestBrowser().get("/auth?mode=signup&redirectTo=%2Fcontacts");
    const html = await page.text();
    expect(page.status).toBe(200);
    // No runtime: no module script and no preloaded chunk; the inline script drives the form.
    expect(html).not.toMatch(/type="module"|modulepreload/);
    expect(html).toContain("data-auth-form");
    expect(html).toContain("Create your account");
    expect(html).toContain('name="timezone"');
    // The switch is a link that keeps where the agent was going.
    expect(html).toContain('href="/auth?redirectTo=%2Fcontacts"');

    const user = await createUser(env.DB);
    const wrong = await signIn(new TestBrowser(), user.email, "not the password at all");
    const answer = await wrong.text();
    expect(wrong.status).toBe(401);
    expect(answer).not.toMatch(/type="module"|modulepreload/);
    expect(answer).toContain(`value="${user.email}"`);
    expect(answer).toMatch(/<div id="auth-error"[^>]*role="alert"[^>]*>/);
    expect(answer).not.toMatch(/<div id="auth-error"[^>]*hidden/);
    expect(answer).toContain(AUTH_MESSAGES.invalidCredentials.description);
    expect(answer).toContain("Sign in to Porchlight");

    // A field's error stays on its field, in the mode the agent was in.
    const invalid = await signUp(new TestBrowser(), "not-an-address");
    const form = await invalid.text();
    expect(invalid.status).toBe(400);
    expect(form).toContain('value="not-an-address"');
    expect(form).toMatch(/<input[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/);
    expect(form).toContain(`<p id="email-error"`);
    expect(form).toContain("Create your account");
  });

  it("refuses a second account for the same address, whatever its case", async () => {
    const user = await createUser(env.DB);
    const response = await signUp(new TestBrowser(), user.email.toUpperCase());
    expect(response.status).toBe(409);
    expect(await response.text()).toContain(AUTH_MESSAGES.alreadyRegistered.description);
  });

  it("refuses an invalid e-mail address and creates nothing", async () => {
    const response = await signUp(new TestBrowser(), "not-an-address");
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(AUTH_MESSAGES.invalidEmail.description);
    expect(await userByEmail("not-an-address")).toBeUndefined();
  });

  it("refuses a filled honeypot and creates nothing", async () => {
    const email = uniqueEmail("bot");
    const response = await new TestBrowser().post("/auth", { mode: "signup", email, password: DEFAULT_PASSWORD, website_url: "http://spam.example" });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(AUTH_MESSAGES.honeypot.description);
    expect(await userByEmail(email)).toBeUndefined();
  });

  it("says 'Unable to … at this time' when the database fails, and signs nobody in", async () => {
    const broken = new TestBrowser().using({ ...(env as Env), DB: failingD1(env.DB, /"users"/) });
    const signin = await signIn(broken, uniqueEmail());
    expect(signin.status).toBe(500);
    expect(await signin.text()).toContain(AUTH_MESSAGES.signinFailed.description);
    const signup = await signUp(broken, uniqueEmail());
    expect(signup.status).toBe(500);
    expect(await signup.text()).toContain(AUTH_MESSAGES.signupFailed.description);
    expect(broken.session()).toBeNull();
  });

  it("refuses passwords shorter than 12 or longer than 128 characters", async () => {
    const short = await signUp(new TestBrowser(), uniqueEmail(), "elevenchars");
    expect(short.status).toBe(400);
    expect(await short.text()).toContain("Password must be at least 12 characters.");
    const long = await signUp(new TestBrowser(), uniqueEmail(), "x".repeat(129));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Password must be at most 128 characters.");
  });
});

describe("server-side attempt limits", () => {
  it("refuses the 6th sign-in in a minute from one address, even with the right password", () =>
    atFreshWindow(60, async () => {
      const user = await createUser(env.DB);
      const browser = new TestBrowser();
      for (let i = 0; i < 5; i++) expect((await signIn(browser, user.email, "wrong password here")).status).toBe(401);
      const sixth = await signIn(browser, user.email);
      expect(sixth.status).toBe(429);
      expect(await sixth.text()).toContain(AUTH_MESSAGES.tooManyAttempts.description);
      expect(browser.session()).toBeNull();
    }));

  it("refuses the 6th sign-in in a minute for one e-mail, however many client addresses try", () =>
    atFreshWindow(60, async () => {
      const user = await createUser(env.DB);
      for (let i = 0; i < 5; i++) expect((await signIn(new TestBrowser(), user.email, "wrong password here")).status).toBe(401);
      expect((await signIn(new TestBrowser(), user.email)).status).toBe(429);
    }));

  it("locks the account after repeated failures, exactly, and a reset unlocks it", async () => {
    const user = await createUser(env.DB);
    await db()
      .update(users)
      .set({ failedSigninCount: LOCKOUT_THRESHOLD - 1 })
      .where(eq(users.id, user.id));
    const failing = await signIn(new TestBrowser(), user.email, "wrong password here");
    expect(failing.status).toBe(423);
    expect(await failing.text()).toContain("Too many failed sign-in attempts");
    // Even the right password is refused while locked.
    expect((await signIn(new TestBrowser(), user.email)).status).toBe(423);

    await new TestBrowser().post("/auth/forgot", { email: user.email });
    const link = await linkFromLatestEmail(env.DB, user.email);
    const token = new URL(`http://x${link}`).searchParams.get("token")!;
    const reset = await new TestBrowser().post("/auth/reset", { token, password: "a brand new passphrase", confirm: "a brand new passphrase" });
    expect(reset.headers.get("Location")).toBe("/auth");
    expect((await signIn(new TestBrowser(), user.email, "a brand new passphrase")).status).toBe(302);
  });

  it("resets the failure count after a successful sign-in", async () => {
    const user = await createUser(env.DB);
    await signIn(new TestBrowser(), user.email, "wrong password here");
    expect((await userByEmail(user.email))!.failedSigninCount).toBe(1);
    await signIn(new TestBrowser(), user.email);
    expect((await userByEmail(user.email))!.failedSigninCount).toBe(0);
  });
});

describe("sessions", () => {
  it("refuses a session cookie replayed after sign-out", async () => {
    const browser = await signInAs(await createUser(env.DB));
    const stolen = browser.session()!;
    await browser.post("/auth/signout", {});
    const attacker = new TestBrowser();
    attacker.cookies.set("porchlight_session", stolen);
    const response = await attacker.get("/dashboard");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/^\/auth/);
  });

  it("gives a new session id at every sign-in", async () => {
    const user = await createUser(env.DB);
    const browser = new TestBrowser();
    browser.cookies.set("porchlight_session", "A".repeat(43));
    await signInAs(user, browser);
    const first = browser.session();
    expect(first).not.toBe("A".repeat(43));
    await browser.post("/auth/signout", {});
    await signInAs(user, browser);
    expect(browser.session()).not.toBe(first);
  });

  it("ends every other session when the password changes, and keeps this one", async () => {
    const user = await createUser(env.DB);
    const laptop = await signInAs(user);
    const phone = await signInAs(user);
    const changed = await laptop.post("/settings", {
      intent: "password",
      currentPassword: user.password,
      password: "another long passphrase",
      confirm: "another long passphrase",
    });
    expect(changed.status).toBe(302);
    expect(changed.headers.get("Location")).toBe("/settings");
    expect((await laptop.get("/settings")).status).toBe(200);
    expect((await phone.get("/settings")).headers.get("Location")).toMatch(/^\/auth/);
    expect((await signIn(new TestBrowser(), user.email, "another long passphrase")).status).toBe(302);
    expect((await signIn(new TestBrowser(), user.email, user.password)).status).toBe(401);
  });

  it("does not change the password when the current one is wrong", async () => {
    const user = await createUser(env.DB);
    const browser = await signInAs(user);
    const before = (await userByEmail(user.email))!.passwordHash;
    const response = await browser.post("/settings", {
      intent: "password",
      currentPassword: "not my password",
      password: "another long passphrase",
      confirm: "another long passphrase",
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("Your current password is not correct.");
    expect((await userByEmail(user.email))!.passwordHash).toBe(before);
  });

  it("signs out every device at once", async () => {
    const user = await createUser(env.DB);
    const laptop = await signInAs(user);
    const phone = await signInAs(user);
    // Without the dialog's confirmation: a clear 400, and every device stays signed in.
    const unconfirmed = await laptop.post("/auth/signout", { scope: "everywhere" });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toBe("Confirm signing out everywhere: every device signed in to your account is signed out, this one included.");
    expect((await laptop.post("/auth/signout", { scope: "everywhere", confirm: "yes" })).status).toBe(400);
    expect((await phone.get("/dashboard")).status).toBe(200);
    expect((await laptop.get("/dashboard")).status).toBe(200);
    const response = await laptop.post("/auth/signout", { scope: "everywhere", confirm: "everywhere" });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/auth");
    expect((await phone.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
    expect((await laptop.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
  });

  it("ignores malformed session cookies", async () => {
    const browser = new TestBrowser();
    browser.cookies.set("porchlight_session", "%%%not-a-session");
    expect((await browser.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
  });
});

describe("password reset", () => {
  it("resets by a single-use link and ends existing sessions", async () => {
    const user = await createUser(env.DB);
    const oldSession = await signInAs(user);
    const asked = await new TestBrowser().post("/auth/forgot", { email: user.email });
    expect(await asked.text()).toContain("If an account exists for that address");
    const link = await linkFromLatestEmail(env.DB, user.email);
    expect(link).toMatch(/^\/auth\/reset\?token=/);
    const form = await new TestBrowser().get(link);
    expect(await form.text()).toContain("Choose a new password");
    const token = new URL(`http://x${link}`).searchParams.get("token")!;

    const mismatch = await new TestBrowser().post("/auth/reset", { token, password: "a brand new passphrase", confirm: "something else entirely" });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain("Passwords do not match.");

    const done = await new TestBrowser().post("/auth/reset", { token, password: "a brand new passphrase", confirm: "a brand new passphrase" });
    expect(done.headers.get("Location")).toBe("/auth");
    expect((await oldSession.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth/);
    expect((await signIn(new TestBrowser(), user.email, "a brand new passphrase")).status).toBe(302);

    const reused = await new TestBrowser().post("/auth/reset", { token, password: "yet another passphrase", confirm: "yet another passphrase" });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain("This reset link was already used.");
  });

  it("answers the same for unknown addresses and sends nothing", async () => {
    const email = uniqueEmail("ghost");
    const response = await new TestBrowser().post("/auth/forgot", { email });
    expect(await response.text()).toContain("If an account exists for that address");
    expect(await latestEmail(env.DB, email)).toBeUndefined();
  });

  it("refuses an altered link", async () => {
    const user = await createUser(env.DB);
    await new TestBrowser().post("/auth/forgot", { email: user.email });
    const link = await linkFromLatestEmail(env.DB, user.email);
    const token = new URL(`http://x${link}`).searchParams.get("token")!;
    const [id, exp, secret, sig] = token.split(".");
    const later = `${id}.${Number(exp) + 86_400_000}.${secret}.${sig}`;
    const page = await new TestBrowser().get(`/auth/reset?token=${encodeURIComponent(later)}`);
    expect(await page.text()).toContain("This reset link is not valid.");
  });
});

describe("the new account's timezone", () => {
  const timezoneAfterSignUp = async (timezone?: string) => {
    const email = uniqueEmail("tz");
    const response = await new TestBrowser().post("/auth", {
      mode: "signup",
      email,
      password: DEFAULT_PASSWORD,
      website_url: "",
      ...(timezone === undefined ? {} : { timezone }),
    });
    expect(response.status).toBe(302);
    const user = (await userByEmail(email))!;
    return (await db().select().from(userPreferences).where(eq(userPreferences.userId, user.id)).get())!.timezone;
  };

  it("is the browser's when it sends a supported IANA zone", async () => {
    expect(await timezoneAfterSignUp("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(await timezoneAfterSignUp("Europe/Oslo")).toBe("Europe/Oslo");
  });

  it("falls back to America/New_York when absent, empty or not a supported zone, and the sign-up still succeeds", async () => {
    expect(await timezoneAfterSignUp()).toBe("America/New_York");
    expect(await timezoneAfterSignUp("")).toBe("America/New_York");
    expect(await timezoneAfterSignUp("Mars/Olympus_Mons")).toBe("America/New_York");
    expect(await timezoneAfterSignUp("+05:00")).toBe("America/New_York");
    expect(await timezoneAfterSignUp("x".repeat(500))).toBe("America/New_York");
  });
});
