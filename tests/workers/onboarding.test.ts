import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDb } from "~/db/client.server";
import { userPreferences } from "~/db/schema";
import type { UserId } from "~/modules/auth/session.server";
import { getOnboardingState } from "~/modules/onboarding/onboarding.server";
import { signInAs, TestBrowser } from "../factories/browser";
import { requestContext } from "../factories/context";
import { createUser } from "../factories/users";

// Spec section 4 "Onboarding": Skip sets onboarding_skipped with a time, completing sets
// onboarding_completed with a time, reset clears all four. Through the real action route and D1.

async function agent(options: Parameters<typeof createUser>[1] = {}) {
  const user = await createUser(env.DB, options);
  return { user, browser: await signInAs(user), state: () => getOnboardingState(requestContext(), user.id as UserId) };
}

const post = (browser: TestBrowser, intent: string) => browser.post("/onboarding", { intent });

describe("onboarding through /onboarding", () => {
  it("a new account has not finished onboarding", async () => {
    const { state } = await agent();
    expect(await state()).toEqual({ onboardingCompleted: false, onboardingSkipped: false, onboardingCompletedAt: null, onboardingSkippedAt: null });
  });

  it("skip sets skipped with the time and goes to the dashboard", async () => {
    const { browser, state } = await agent();
    const before = Date.now();
    const response = await post(browser, "skip");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const after = await state();
    expect(after).toMatchObject({ onboardingSkipped: true, onboardingCompleted: false, onboardingCompletedAt: null });
    expect(after.onboardingSkippedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(after.onboardingSkippedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("the welcome dialog's skip sets skipped and completed, both with the time", async () => {
    const { browser, state } = await agent();
    const before = Date.now();
    const response = await post(browser, "dismiss");
    expect(response.headers.get("Location")).toBe("/dashboard");
    const after = await state();
    expect(after).toMatchObject({ onboardingSkipped: true, onboardingCompleted: true });
    expect(after.onboardingSkippedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(after.onboardingCompletedAt!.getTime()).toBe(after.onboardingSkippedAt!.getTime());
  });

  it("complete sets completed with the time and goes to the dashboard", async () => {
    const { browser, state } = await agent();
    const before = Date.now();
    const response = await post(browser, "complete");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/dashboard");
    const after = await state();
    expect(after).toMatchObject({ onboardingCompleted: true, onboardingSkipped: false, onboardingSkippedAt: null });
    expect(after.onboardingCompletedAt!.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(after.onboardingCompletedAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1);
  });

  it("reset clears all four fields and returns to Settings, which then says it is not finished", async () => {
    const { browser, state } = await agent();
    await post(browser, "skip");
    await post(browser, "complete");
    expect(await state()).toMatchObject({ onboardingCompleted: true, onboardingSkipped: true });
    expect(await (await browser.get("/settings")).text()).toMatch(/Completed on [A-Z][a-z]{2} \d{1,2}, \d{4}\./);

    const response = await post(browser, "reset");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/settings");
    expect(await state()).toEqual({ onboardingCompleted: false, onboardingSkipped: false, onboardingCompletedAt: null, onboardingSkippedAt: null });
    expect(await (await browser.get("/settings")).text()).toContain("Not finished.");
  });

  it("starting the tour again clears a previous outcome and goes to the dashboard", async () => {
    const { browser, state } = await agent();
    await post(browser, "skip");
    expect(await (await browser.get("/settings")).text()).toMatch(/Skipped on [A-Z][a-z]{2} \d{1,2}, \d{4}\./);
    const response = await post(browser, "start");
    expect(response.headers.get("Location")).toBe("/dashboard");
    expect(await state()).toMatchObject({ onboardingCompleted: false, onboardingSkipped: false, onboardingSkippedAt: null });
  });

  it("writes a preferences row when the account has none yet", async () => {
    const { user, browser, state } = await agent();
    await createDb(env.DB).delete(userPreferences).where(eq(userPreferences.userId, user.id));
    expect((await post(browser, "complete")).status).toBe(302);
    expect(await state()).toMatchObject({ onboardingCompleted: true });
  });

  it("refuses an unknown intent and changes nothing", async () => {
    const { browser, state } = await agent();
    const response = await post(browser, "delete-everything");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ ok: false, intent: "delete-everything", error: "Unknown action.", fieldErrors: {} });
    expect(await state()).toMatchObject({ onboardingCompleted: false, onboardingSkipped: false });
  });

  it("needs a signed-in subscriber", async () => {
    const signedOut = await new TestBrowser().post("/onboarding", { intent: "complete" });
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("Location")).toMatch(/^\/auth\?redirectTo=/);

    const { browser, state } = await agent({ status: "inactive" });
    const response = await post(browser, "complete");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).not.toBe("/dashboard");
    expect(await state()).toMatchObject({ onboardingCompleted: false });
  });

  it("keeps each agent's onboarding their own: one agent's skip, complete and reset never touch another's", async () => {
    const alice = await agent();
    const bob = await agent();
    await post(bob.browser, "complete");
    const bobs = await bob.state();

    await post(alice.browser, "skip");
    await post(alice.browser, "complete");
    expect(await bob.state()).toEqual(bobs);

    await post(alice.browser, "reset");
    expect(await alice.state()).toMatchObject({ onboardingCompleted: false, onboardingSkipped: false });
    expect(await bob.state()).toEqual(bobs);
    expect(bobs).toMatchObject({ onboardingCompleted: true, onboardingSkipped: false });
  });
});
