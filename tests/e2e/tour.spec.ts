import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, expectNoViolations, signIn, test } from "./fixtures";
import { PUBLIC_PAGES, SIGNED_IN_PAGES } from "./pages";

// The desktop project's tour: every page of the product once at 1280 px: it shows its heading, fits the screen, and
// axe-core finds no WCAG 2.2 AA violation; a screenshot of each, light and dark, lands in
// test-results/screenshots/desktop-tour-*.png for review. axe runs in the light theme here: what the width changes is
// layout (targets, overlaps, what is hidden), while the dark theme's colours are the same at every width and the
// mobile project's specs scan every page in dark at 375 px. The journeys themselves run once, at 375 px; what
// depends on the width is checked where it is built (layout.spec, the specs' "on a desktop" groups).

const THEMES = ["light", "dark"] as const;
const shot = (page: Page, theme: string, path: string) =>
  page.screenshot({ path: `test-results/screenshots/desktop-tour-${theme}${path.replace(/[/?=]/g, "_") || "_home"}.png`, fullPage: true });

/** Visits each path: a heading shows, nothing scrolls sideways, no axe violation (light); then a screenshot. */
async function tour(page: Page, theme: (typeof THEMES)[number], paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await expect(page.locator("h1").first()).toBeVisible();
    await expectNoSideways(page);
    if (theme === "light") await expectNoViolations(page, `${path} at 1280 px`);
    await shot(page, theme, path);
  }
}

for (const theme of THEMES) {
  test(`every public page at 1280 px, ${theme}`, async ({ page }) => {
    test.setTimeout(180_000);
    expect(page.viewportSize()?.width).toBe(1280);
    await page.goto("/");
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await tour(page, theme, PUBLIC_PAGES);
  });

  test(`every signed-in page at 1280 px, ${theme}`, async ({ page }) => {
    test.setTimeout(300_000);
    expect(page.viewportSize()?.width).toBe(1280);
    await signIn(page, ACCOUNTS.desktopTour);
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    // The navigation is a sidebar down the left edge, the full height of the screen (layout.spec: the phone's tab bar).
    const nav = (await page.getByRole("navigation", { name: "Main" }).boundingBox())!;
    expect(nav.x).toBe(0);
    expect(nav.height).toBeGreaterThanOrEqual(799);
    // A contact's and a deal's own page, from the lists.
    const firstLink = async (path: string, pattern: RegExp) => {
      await page.goto(path);
      const hrefs = await page
        .getByRole("main")
        .locator("a[href]")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
      return hrefs.find((href) => pattern.test(href));
    };
    const contact = await firstLink("/contacts", /^\/contacts\/[0-9a-f-]{36}$/);
    const deal = await firstLink("/pipeline?view=list", /^\/deals\/[0-9a-f-]{36}$/);
    expect([contact, deal]).toEqual([expect.any(String), expect.any(String)]);
    await tour(page, theme, [...SIGNED_IN_PAGES, contact!, deal!]);
  });
}
