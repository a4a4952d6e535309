import { test as base, expect, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import accounts from "./accounts.json" with { type: "json" };
import { accountFor } from "./project-accounts.mjs";

export type Account = { email: string; password: string };
/**
 * The spec accounts, as the running project knows them: each project signs in with its own copy
 * (project-accounts.mjs), so the desktop run of a journey never meets the mobile run's data.
 */
export const ACCOUNTS = new Proxy(accounts, {
  get(target, key) {
    const account = Reflect.get(target, key) as (typeof accounts)[keyof typeof accounts] | undefined;
    return account && accountFor(account, base.info().project.name);
  },
}) as Record<keyof typeof accounts, Account>;
/** The demo account the README documents. */
export const DEMO: Account = { email: "demo@porchlight.app", password: "porchlight-demo" };

// Each test browses from its own client address, so the server's per-IP sign-in limits of one test never
// reach another (Cloudflare sets CF-Connecting-IP in production; locally the header passes through).
export const test = base.extend({
  context: async ({ context }, use) => {
    // Random, not a counter: Playwright restarts its worker after a failure, which would reset a counter.
    const [a, b, c] = randomBytes(3);
    await context.setExtraHTTPHeaders({ "CF-Connecting-IP": `10.${a}.${b}.${c}` });
    await use(context);
  },
});
export { expect };

export async function signIn(page: Page, account: Account, landing = "/dashboard") {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**${landing}`);
}
