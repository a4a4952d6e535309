import { ACCOUNTS, expect, signIn, test } from "./fixtures";

test("a canceled agent lands on the expired-billing page with a way back in", async ({ page }) => {
  await signIn(page, ACCOUNTS.canceled, "/pricing?billing=expired");
  await expect(page.getByRole("alert").filter({ hasText: "Your subscription has ended" })).toBeVisible();
  await page.getByRole("link", { name: "Resubscribe" }).click();
  await page.waitForURL("**/trial/start");
  // The seed records no earlier trial for this account, so the trial is offered.
  await expect(page.getByRole("button", { name: "Start Free Trial" })).toBeVisible();
});

test("the billing tab shows the subscription, and test mode can cancel at the end of the period", async ({ page }, info) => {
  await signIn(page, ACCOUNTS.billing);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Billing" }).click();
  await page.waitForURL("**/settings?tab=billing");
  await expect(page.getByRole("link", { name: "Billing" })).toHaveAttribute("aria-current", "page");
  const panel = page.getByRole("region", { name: "Plan and billing" });
  await expect(panel.getByText("Solo Agent · $40 billed monthly")).toBeVisible();
  await expect(panel.getByText("Active", { exact: true })).toBeVisible();
  await page.screenshot({ path: `test-results/screenshots/${info.project.name}-billing-tab.png`, fullPage: true });
  await panel.getByRole("button", { name: "Cancel at period end (test mode)" }).click();
  await expect(panel.getByText("Active · ends at the close of this period")).toBeVisible();
  await panel.getByRole("button", { name: "Keep my subscription (test mode)" }).click();
  await expect(panel.getByText("Active", { exact: true })).toBeVisible();
});

test("the start-trial and test checkout pages fit the screen, a phone's included", async ({ page }, info) => {
  await signIn(page, ACCOUNTS.trial, "/trial/start");
  await expect(page.getByRole("heading", { name: "Start Your 14-Day Free Trial" })).toBeVisible();
  await page.screenshot({ path: `test-results/screenshots/${info.project.name}-trial-start.png`, fullPage: true });
  await page.getByRole("button", { name: "Start Free Trial" }).click();
  await page.waitForURL("**/billing/test-checkout/**");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/screenshots/${info.project.name}-test-checkout.png`, fullPage: true });
  await page.getByRole("button", { name: "Cancel checkout" }).click();
  await page.waitForURL("**/trial/start?canceled=1");
  await expect(page.getByText("Checkout was not completed")).toBeVisible();
});
