import { TWO_FACTOR_DUE } from "../../workers/api/session.api";
import { env } from "cloudflare:workers";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { and, eq, isNull } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDb } from "~/db/client.server";
import { auditEvents, passkeys, recoveryCodes, sessionDevices, teams, totpAuthenticators, users } from "~/db/schema";
import { LOCKOUT_MS, LOCKOUT_THRESHOLD } from "~/modules/auth/lockout.server";
import { totpCode, totpStep } from "~/modules/auth/totp";
import { signInAs, TestBrowser } from "../factories/browser";
import { restoreSuiteClock } from "../factories/dates";
import { team } from "../factories/teams";
import { createUser } from "../factories/users";
import { SoftPasskey } from "../factories/webauthn";

// Two-factor sign-in (ADR 0074) through the real routes: the authenticator app (RFC 6238), recovery codes, passkeys
// with a software authenticator, the lockout, the team's requirement and the list of signed-in devices. Time is set
// with vi.setSystemTime (the Worker shares this isolate), so a code and the server agree on the 30-second step.

const db = () => createDb(env.DB);
const user = (id: string) => db().select().from(users).where(eq(users.id, id)).get();
afterEach(restoreSuiteClock);

/** An instant a second into the next minute: a fresh rate-limit window, and mid-way into a TOTP step. */
function freshMinute(from = Date.now()) {
  const at = (Math.floor(from / 60_000) + 1) * 60_000 + 1000;
  vi.setSystemTime(at);
  return at;
}

const CHROME_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

const passwordStep = (browser: TestBrowser, account: { email: string; password: string }, headers: Record<string, string> = {}) =>
  browser.post("/auth", { mode: "signin", email: account.email, password: account.password, website_url: "" }, headers);
const secondStep = (browser: TestBrowser, code: string) => browser.post("/auth/two-factor", { intent: "code", code });

/** Turns the authenticator app on through Settings → Security; answers its key and the recovery codes shown once. */
async function enableTotp(browser: TestBrowser, now: number) {
  expect((await browser.post("/settings/security", { intent: "totp-start" })).status).toBe(302);
  const page = await browser.page("/settings/security");
  const secret = /data-totp-secret="">([A-Z2-7 ]+)</.exec(page)![1]!;
  const key = decodeBase32IgnorePadding(secret.replace(/ /g, ""));
  expect(page).toContain("otpauth://totp/Porchlight:");
  expect(page).toContain("<svg");
  const confirmed = await browser.post("/settings/security", { intent: "totp-confirm", code: totpCode(key, totpStep(now)) });
  expect(confirmed.status).toBe(200);
  const codes = [...(await confirmed.text()).matchAll(/data-recovery-code="">([a-z2-9]{5}-[a-z2-9]{5})</g)].map((m) => m[1]!);
  expect(codes).toHaveLength(10);
  return { key, codes };
}

/**
 * A verified agent with the authenticator app on; the clock then at the next fresh minute, so the test's own sign-ins
 * have the per-account limit's five tries of a minute to themselves.
 */
async function agentWithTotp() {
  const setup = freshMinute();
  const agent = await createUser(env.DB);
  const { key, codes } = await enableTotp(await signInAs(agent), setup);
  return { agent, key, codes, now: freshMinute(setup) };
}

describe("authenticator codes (RFC 6238, SHA-1)", () => {
  it("match the RFC's Appendix B vectors, 8 digits and the last 6", () => {
    const secret = new TextEncoder().encode("12345678901234567890");
    const vectors: [number, string][] = [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1111111111, "14050471"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
    ];
    for (const [seconds, expected] of vectors) {
      const step = totpStep(seconds * 1000);
      expect(totpCode(secret, step, 8)).toBe(expected);
      expect(totpCode(secret, step)).toBe(expected.slice(2));
    }
  });
});

describe("turning the authenticator app on", () => {
  it("needs a right code: a wrong one leaves it off, and the secret is stored encrypted", async () => {
    const now = freshMinute();
    const agent = await createUser(env.DB);
    const browser = await signInAs(agent);
    await browser.post("/settings/security", { intent: "totp-start" });
    const page = await browser.page("/settings/security");
    const secret = /data-totp-secret="">([A-Z2-7 ]+)</.exec(page)![1]!.replace(/ /g, "");
    const key = decodeBase32IgnorePadding(secret);
    const right = totpCode(key, totpStep(now));
    const wrong = right === "000000" ? "111111" : "000000";

    const refused = await browser.post("/settings/security", { intent: "totp-confirm", code: wrong });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That code is not right");
    const row = await db().select().from(totpAuthenticators).where(eq(totpAuthenticators.userId, agent.id)).get();
    expect(row!.confirmedAt).toBeNull();
    expect(row!.secret).toMatch(/^v1\./);
    expect(row!.secret).not.toContain(secret);
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, agent.id))).toEqual([]);

    expect((await browser.post("/settings/security", { intent: "totp-confirm", code: right })).status).toBe(200);
    expect((await db().select().from(totpAuthenticators).where(eq(totpAuthenticators.userId, agent.id)).get())!.confirmedAt).not.toBeNull();
    // Turning it on is one security event of the account; the refused code wrote none of that kind.
    const events = await db().select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.subjectUserId, agent.id));
    expect(events.filter((e) => e.action.startsWith("account.two_factor"))).toEqual([{ action: "account.two_factor_enabled" }]);
  });
});

describe("signing in with the authenticator app on", () => {
  it("gives no session for the password alone; the right code does, once", async () => {
    const { agent, key, now } = await agentWithTotp();
    const browser = new TestBrowser();
    const first = await passwordStep(browser, agent);
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/auth/two-factor");
    expect(browser.session()).toBeNull();
    expect(browser.cookies.get("porchlight_2fa")).toBeTruthy();
    expect((await browser.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    expect(await browser.page("/auth/two-factor")).toContain("Confirm it&#x27;s you");

    const code = totpCode(key, totpStep(now));
    const done = await secondStep(browser, code);
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect(browser.session()).not.toBeNull();
    expect(browser.cookies.has("porchlight_2fa")).toBe(false);
    expect((await browser.get("/dashboard")).status).toBe(200);
    expect((await user(agent.id))!.failedSigninCount).toBe(0);

    // A replay of the same code, by another browser that knows the password, is refused.
    const thief = new TestBrowser();
    await passwordStep(thief, agent);
    const replay = await secondStep(thief, code);
    expect(replay.status).toBe(401);
    expect(await replay.text()).toContain("was used already");
    expect(thief.session()).toBeNull();
    // And an older step's code, still inside the ±1 window, is refused too.
    expect((await secondStep(thief, totpCode(key, totpStep(now)))).status).toBe(401);
    expect((await user(agent.id))!.failedSigninCount).toBe(2);
  });

  it("refuses malformed input without counting it, and a used pending step cannot be used again", async () => {
    const { agent, key, now } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    const malformed = await secondStep(browser, "12ab");
    expect(malformed.status).toBe(400);
    expect((await user(agent.id))!.failedSigninCount).toBe(0);

    vi.setSystemTime(now + 30_000);
    const pending = browser.cookies.get("porchlight_2fa")!;
    expect((await secondStep(browser, totpCode(key, totpStep(now + 30_000)))).status).toBe(302);
    // The pending cookie, kept by someone, finds nothing to finish.
    const copy = new TestBrowser();
    copy.cookies.set("porchlight_2fa", pending);
    vi.setSystemTime(now + 60_000);
    const again = await secondStep(copy, totpCode(key, totpStep(now + 60_000)));
    // Nothing pending: the page sends the browser back to the password step.
    expect(again.status).toBe(302);
    expect(again.headers.get("Location")).toBe("/auth");
    expect(copy.session()).toBeNull();
  });

  it("expires the pending step after 5 minutes", async () => {
    const { agent, key, now } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    const later = now + 5 * 60_000 + 1000;
    vi.setSystemTime(later);
    const late = await secondStep(browser, totpCode(key, totpStep(later)));
    expect(late.status).toBe(302);
    expect(late.headers.get("Location")).toBe("/auth");
    expect(browser.session()).toBeNull();
    expect((await browser.follow(late)).html).toContain("Sign in again");
  });

  it("counts wrong codes toward the lockout; locked, even the right code is refused until it lifts", async () => {
    const { agent, key, now } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    const right = (at: number) => totpCode(key, totpStep(at));
    const wrong = (at: number) => (right(at) === "123456" ? "654321" : "123456");

    expect((await secondStep(browser, wrong(now))).status).toBe(401);
    expect((await user(agent.id))!.failedSigninCount).toBe(1);
    // A right password on the way does not start the count again while the second step is owed.
    await passwordStep(new TestBrowser(), agent);
    expect((await user(agent.id))!.failedSigninCount).toBe(1);

    await db()
      .update(users)
      .set({ failedSigninCount: LOCKOUT_THRESHOLD - 1 })
      .where(eq(users.id, agent.id));
    const locking = await secondStep(browser, wrong(now));
    expect(locking.status).toBe(423);
    expect(await locking.text()).toContain("Account Locked");
    expect((await user(agent.id))!.lockedUntil?.getTime()).toBe(now + LOCKOUT_MS);

    vi.setSystemTime(now + 30_000);
    expect((await secondStep(browser, right(now + 30_000))).status).toBe(423);
    expect(browser.session()).toBeNull();

    // Lifted: the password, then the right code, sign in, and the count starts again.
    const after = freshMinute(now + LOCKOUT_MS + 1000);
    const back = new TestBrowser();
    expect((await passwordStep(back, agent)).headers.get("Location")).toBe("/auth/two-factor");
    expect((await secondStep(back, right(after))).status).toBe(302);
    expect(back.session()).not.toBeNull();
    expect(await user(agent.id)).toMatchObject({ failedSigninCount: 0, lockedUntil: null });
  });

  it("applies the per-address sign-in limit to the second step", async () => {
    const { agent } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await secondStep(browser, "999999")).status);
    // The password step used one of the five tries of this minute.
    expect(answers).toEqual([401, 401, 401, 401, 429]);
    expect((await user(agent.id))!.failedSigninCount).toBe(4);
  });

  it("accepts each recovery code once, and shows how many are left", async () => {
    const { agent, codes } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    expect((await secondStep(browser, codes[3]!.toUpperCase())).status).toBe(302);
    expect(await browser.page("/settings/security")).toContain("9 of 10 unused");

    const again = new TestBrowser();
    await passwordStep(again, agent);
    expect((await secondStep(again, codes[3]!)).status).toBe(401);
    expect(again.session()).toBeNull();
    expect((await secondStep(again, codes[4]!.replace("-", ""))).status).toBe(302);
  });

  it("makes new recovery codes that replace the old ones", async () => {
    const { agent, codes } = await agentWithTotp();
    const browser = new TestBrowser();
    await passwordStep(browser, agent);
    await secondStep(browser, codes[0]!);
    const made = await browser.post("/settings/security", { intent: "recovery-new" });
    expect(made.status).toBe(200);
    const fresh = [...(await made.text()).matchAll(/data-recovery-code="">([a-z2-9]{5}-[a-z2-9]{5})</g)].map((m) => m[1]!);
    expect(fresh).toHaveLength(10);
    const rows = await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, agent.id));
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.usedAt === null && !fresh.includes(r.codeHash))).toBe(true);

    const other = new TestBrowser();
    await passwordStep(other, agent);
    expect((await secondStep(other, codes[1]!)).status).toBe(401);
    expect((await secondStep(other, fresh[0]!)).status).toBe(302);
  });
});

describe("passkeys", () => {
  async function addPasskey(browser: TestBrowser, passkey: SoftPasskey, name = "Test laptop") {
    const options = (await (await browser.post("/settings/security/passkey-options", {})).json()) as { challenge: string; rp: { id: string } };
    return browser.post("/settings/security", { intent: "passkey-add", name, response: JSON.stringify(await passkey.register(options)) });
  }
  const signInOptions = async (browser: TestBrowser) =>
    (await (await browser.post("/auth/two-factor/passkey-options", {})).json()) as {
      challenge: string;
      rpId: string;
      allowCredentials: { id: string }[];
    };
  const usePasskey = (browser: TestBrowser, assertion: unknown) =>
    browser.post("/auth/two-factor", { intent: "passkey", response: JSON.stringify(assertion) });

  it("registers only for the kept challenge and this origin, then confirms sign-in; a replayed assertion is refused", async () => {
    freshMinute();
    const agent = await createUser(env.DB);
    const browser = await signInAs(agent);
    const passkey = await SoftPasskey.create();

    // A wrong origin, and an answer to another challenge, are refused and add nothing.
    const options = (await (await browser.post("/settings/security/passkey-options", {})).json()) as { challenge: string; rp: { id: string } };
    expect(options.rp.id).toBe("localhost");
    const elsewhere = await browser.post("/settings/security", {
      intent: "passkey-add",
      name: "Phished",
      response: JSON.stringify(await passkey.register(options, "https://evil.example")),
    });
    expect(elsewhere.status).toBe(400);
    await browser.post("/settings/security/passkey-options", {});
    const forged = await browser.post("/settings/security", {
      intent: "passkey-add",
      name: "Forged",
      response: JSON.stringify(await passkey.register({ challenge: "c29tZS1vdGhlci1jaGFsbGVuZ2U", rp: { id: "localhost" } })),
    });
    expect(forged.status).toBe(400);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, agent.id))).toEqual([]);

    const added = await addPasskey(browser, passkey);
    expect(added.status).toBe(200);
    expect([...(await added.text()).matchAll(/data-recovery-code=""/g)]).toHaveLength(10);
    const row = (await db().select().from(passkeys).where(eq(passkeys.userId, agent.id)).get())!;
    expect(row).toMatchObject({ id: passkey.credentialId, name: "Test laptop", counter: 0, backedUp: false, deviceType: "singleDevice" });
    expect(await browser.page("/settings/security")).toContain("Test laptop");

    // Sign-in now asks for the passkey after the password.
    const next = new TestBrowser();
    expect((await passwordStep(next, agent)).headers.get("Location")).toBe("/auth/two-factor");
    const request = await signInOptions(next);
    expect(request.rpId).toBe("localhost");
    expect(request.allowCredentials.map((c) => c.id)).toEqual([passkey.credentialId]);
    const assertion = await passkey.assert(request);
    const done = await usePasskey(next, assertion);
    expect(done.status).toBe(302);
    expect(next.session()).not.toBeNull();
    const used = (await db().select().from(passkeys).where(eq(passkeys.id, passkey.credentialId)).get())!;
    expect(used.counter).toBe(1);
    expect(used.lastUsedAt).not.toBeNull();

    // The same assertion again, in a new sign-in: its challenge was used up, so it fails (and counts).
    freshMinute();
    const replayer = new TestBrowser();
    await passwordStep(replayer, agent);
    await signInOptions(replayer);
    expect((await usePasskey(replayer, assertion)).status).toBe(401);
    expect(replayer.session()).toBeNull();
    // Signed for another origin: refused.
    const phished = await passkey.assert(await signInOptions(replayer), "https://evil.example");
    expect((await usePasskey(replayer, phished)).status).toBe(401);
    expect((await user(agent.id))!.failedSigninCount).toBe(2);
  });

  it("removes only the agent's own passkey; with none left, two-factor sign-in is off", async () => {
    freshMinute();
    const agent = await createUser(env.DB);
    const other = await createUser(env.DB);
    const browser = await signInAs(agent);
    const passkey = await SoftPasskey.create();
    expect((await addPasskey(browser, passkey)).status).toBe(200);

    const stranger = await signInAs(other);
    expect((await stranger.post("/settings/security", { intent: "passkey-remove", id: passkey.credentialId })).status).toBe(404);
    expect(await db().select().from(passkeys).where(eq(passkeys.id, passkey.credentialId)).get()).toBeTruthy();

    expect((await browser.post("/settings/security", { intent: "passkey-remove", id: passkey.credentialId })).status).toBe(302);
    expect(await db().select().from(passkeys).where(eq(passkeys.userId, agent.id))).toEqual([]);
    expect(await db().select().from(recoveryCodes).where(eq(recoveryCodes.userId, agent.id))).toEqual([]);
    const actions = (await db().select({ action: auditEvents.action }).from(auditEvents).where(eq(auditEvents.subjectUserId, agent.id))).map(
      (e) => e.action,
    );
    // Once each (a test clock may give both the same instant, so not by their order).
    expect(actions.filter((a) => a.startsWith("account.two_factor")).sort()).toEqual(["account.two_factor_disabled", "account.two_factor_enabled"]);
    const again = new TestBrowser();
    expect((await passwordStep(again, agent)).headers.get("Location")).toBe("/dashboard");
  });
});

describe("a team that requires two-factor sign-in", () => {
  it("only the owner can require it; an admin is refused with 403 and nothing changes", async () => {
    freshMinute();
    const t = await team("Two-Factor Realty");
    const admin = await signInAs(t.admin);
    const refused = await admin.post("/team", { intent: "two-factor", on: "1" });
    expect(refused.status).toBe(403);
    expect((await db().select().from(teams).where(eq(teams.id, t.teamId)).get())!.requireTwoFactor).toBe(false);

    const owner = await signInAs(t.owner);
    expect((await owner.post("/team", { intent: "two-factor", on: "1" })).status).toBe(302);
    expect((await db().select().from(teams).where(eq(teams.id, t.teamId)).get())!.requireTwoFactor).toBe(true);
    // One row in the team's log, from the owner's change only.
    const logged = await db().select().from(auditEvents).where(eq(auditEvents.teamId, t.teamId));
    expect(logged.map((a) => [a.action, a.actorId, a.details])).toEqual([
      ["team.settings_changed", t.owner.id, { changes: [{ setting: "two-factor sign-in", from: "not required", to: "required" }] }],
    ]);
  });

  it("sends a member without a second factor to set one up first, saying why; then lets them through", async () => {
    const now = freshMinute();
    const t = await team("Required Realty");
    await db().update(teams).set({ requireTwoFactor: true }).where(eq(teams.id, t.teamId));
    const agent = await signInAs(t.agentA);
    for (const path of ["/dashboard", "/contacts", "/settings"]) {
      const sent = await agent.get(path);
      expect(sent.status).toBe(302);
      expect(sent.headers.get("Location")).toBe("/settings/security");
    }
    const page = await agent.page("/settings/security");
    expect(page).toContain("Your team requires two-factor sign-in");
    // The JSON API (the field app's sync, search, AI) serves them nothing either, and says why.
    for (const path of ["/api/sync", "/api/search?q=a"]) {
      const refused = await agent.get(path);
      expect(refused.status, path).toBe(403);
      expect(await refused.json()).toEqual({ ok: false, error: TWO_FACTOR_DUE, redirectTo: "/settings/security" });
    }

    await enableTotp(agent, now);
    expect((await agent.get("/dashboard")).status).toBe(200);
    expect((await agent.get("/api/sync")).status).toBe(200);
    expect(await agent.page("/settings/security")).not.toContain("Your team requires two-factor sign-in");
  });
});

describe("signed-in devices", () => {
  it("lists the agent's sessions with their device, marks this one, and signs another out", async () => {
    freshMinute();
    const agent = await createUser(env.DB);
    const laptop = new TestBrowser();
    const phone = new TestBrowser();
    expect((await passwordStep(laptop, agent, { "User-Agent": CHROME_MAC })).status).toBe(302);
    expect((await passwordStep(phone, agent, { "User-Agent": SAFARI_IPHONE })).status).toBe(302);

    const page = await laptop.page("/settings/security");
    expect(page).toContain("Chrome on Mac");
    expect(page).toContain("Safari on iPhone");
    expect(page.match(/This device/g)).toHaveLength(1);

    const rows = await db().select().from(sessionDevices).where(eq(sessionDevices.userId, agent.id));
    expect(rows).toHaveLength(2);
    const phoneRow = rows.find((r) => r.device === "Safari on iPhone")!;

    // Another agent cannot end it.
    const stranger = await signInAs(await createUser(env.DB));
    expect((await stranger.post("/settings/security", { intent: "session-end", key: phoneRow.key })).status).toBe(404);
    expect((await phone.get("/dashboard")).status).toBe(200);

    expect((await laptop.post("/settings/security", { intent: "session-end", key: phoneRow.key })).status).toBe(302);
    expect((await phone.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    expect((await laptop.get("/dashboard")).status).toBe(200);
    expect(await laptop.page("/settings/security")).not.toContain("Safari on iPhone");
  });

  it("sign out everywhere still ends every session and empties the list", async () => {
    freshMinute();
    const agent = await createUser(env.DB);
    const a = await signInAs(agent);
    const b = await signInAs(agent);
    const out = await a.post("/auth/signout", { scope: "everywhere", confirm: "everywhere" });
    expect(out.status).toBe(302);
    expect((await b.get("/dashboard")).headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);
    expect(
      await db()
        .select()
        .from(sessionDevices)
        .where(and(eq(sessionDevices.userId, agent.id), isNull(sessionDevices.place))),
    ).toEqual([]);
  });
});
