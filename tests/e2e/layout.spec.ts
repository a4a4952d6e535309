import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

const NAV = ["Dashboard", "Contacts", "Pipeline", "Tasks", "Reports", "AI Assistant", "Settings"];
// The layout account has the demo data, so tables, cards and calendars are full (a lost deal's list row included).
const PAGES = [
  "/dashboard",
  "/contacts",
  "/pipeline",
  "/pipeline?view=list",
  "/tasks",
  "/tasks?view=week",
  "/tasks?view=month",
  "/reports",
  "/reports?period=last-12-months",
  "/ai-assistant",
  "/settings",
  "/settings?tab=goals",
  "/app/welcome?trial=1",
];

async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
}

async function screenshot(page: Page, name: string, project: string) {
  await page.screenshot({ path: `test-results/screenshots/${project}-${name}.png`, fullPage: true });
}

test("the navigation has the seven items, marks the current page, and sits where thumbs expect", async ({ page }) => {
  await signIn(page, ACCOUNTS.layout);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link")).toHaveText(NAV);
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");

  await nav.getByRole("link", { name: "Pipeline" }).click();
  await page.waitForURL("**/pipeline");
  await expect(nav.getByRole("link", { name: "Pipeline" })).toHaveAttribute("aria-current", "page");
  await expect(nav.getByRole("link", { name: "Dashboard" })).not.toHaveAttribute("aria-current", "page");

  // On a phone: a tab bar across the bottom of the screen (tour.spec checks the desktop's sidebar).
  const box = (await nav.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.y + box.height).toBeGreaterThanOrEqual(viewport.height - 1);
  expect(box.width).toBe(viewport.width);
  // Every item is a comfortable touch target.
  for (const link of await nav.getByRole("link").all()) expect((await link.boundingBox())!.height).toBeGreaterThanOrEqual(48);
});

test("every page fits the screen without sideways scrolling, in light and dark", async ({ page }, info) => {
  test.setTimeout(120_000);
  for (const path of [
    "/",
    "/features",
    "/pricing",
    "/about",
    "/trial",
    "/blog",
    "/blog/commission-splits-explained",
    "/support",
    "/guides/importing-contacts",
    "/auth",
    "/contact",
    "/terms",
    "/privacy",
    "/missing-page",
  ]) {
    await page.goto(path);
    await expectNoHorizontalScroll(page);
    await screenshot(page, `public${path.replace(/\//g, "_") || "_home"}`, info.project.name);
  }
  await signIn(page, ACCOUNTS.layout);
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of PAGES) {
      await page.goto(path);
      await expect(page.getByRole("main")).toBeVisible();
      await expectNoHorizontalScroll(page);
      await screenshot(page, `${theme}${path.replace(/[/?=]/g, "_")}`, info.project.name);
    }
  }
});
