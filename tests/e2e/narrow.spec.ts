import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";
import { SIGNED_IN_PAGES } from "./pages";

// A phone 375 px wide and an agent with a 60-character e-mail address (the header, Settings and the trial pages show
// it): no signed-in page may be wider than the screen, or the tab bar, the floating Add button and the page's right
// edge slide off it. A row of tabs or a wide table may scroll sideways inside its own box; the page itself never.
// The account is an admin with the demo data, so every page this layout reaches is full.

/** How far the page reaches past the right edge of the screen (0 when it fits). */
const overflow = (page: Page) => page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - window.innerWidth));

test("with a 60-character e-mail address, no signed-in page is wider than a 375 px screen", async ({ page }) => {
  test.setTimeout(180_000);
  expect(ACCOUNTS.wideEmail.email).toHaveLength(60);
  expect(page.viewportSize()?.width).toBe(375);
  await signIn(page, ACCOUNTS.wideEmail);
  // A contact's and a deal's own page, from the lists.
  const firstLink = async (path: string, pattern: RegExp) => {
    await page.goto(path);
    const hrefs = await page
      .getByRole("main")
      .locator("a[href]")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    return hrefs.find((href) => pattern.test(href))!;
  };
  const contact = await firstLink("/contacts", /^\/contacts\/[0-9a-f-]{36}$/);
  const deal = await firstLink("/pipeline?view=list", /^\/deals\/[0-9a-f-]{36}$/);
  expect([contact, deal]).toEqual([expect.any(String), expect.any(String)]);
  const wider: string[] = [];
  for (const path of [...SIGNED_IN_PAGES, contact, deal]) {
    await page.goto(path);
    await expect(page.locator("h1").first()).toBeVisible();
    const past = await overflow(page);
    if (past > 0) wider.push(`${path}: ${past} px too wide`);
  }
  // The tab bar spans the screen exactly.
  await page.goto("/settings");
  const nav = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
  expect(nav.x + nav.width).toBeLessThanOrEqual(375);
  expect(wider).toEqual([]);
});

test("with a 60-character e-mail address, the trial's start page fits a 375 px screen", async ({ page }) => {
  expect(ACCOUNTS.wideEmailTrial.email).toHaveLength(60);
  await signIn(page, ACCOUNTS.wideEmailTrial, "/trial/start");
  await expect(page.getByText(ACCOUNTS.wideEmailTrial.email)).toBeVisible();
  expect(await overflow(page), "/trial/start").toBe(0);
});
