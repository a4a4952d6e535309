import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// Nothing that floats (position fixed or sticky: the Add New Contact button, the AI page's Commands
// and Scroll to top, the header, the bottom nav, sticky bars) may cover a control the agent cannot then reach.
//
// At each scroll position checked, every visible interactive element under a floating box (by its box, and on
// top in the stacking order at that spot) must be uncoverable by the scroll that is left: content under a
// bar at the bottom of the screen must be able to scroll up out of it, content under a bar at the top down
// out of it. So at the top of the page nothing may sit under the header, and at the bottom nothing under the
// bottom nav or a floating button; in between, what scrolls under a bar can always be scrolled back out.

type Covered = { floating: string; control: string; at: string };

/** Runs in the page: the covered controls that the remaining scroll cannot free. */
function findTrapped(): Covered[] {
  const describe = (el: Element) => {
    const name =
      el.getAttribute("aria-label") ||
      el.getAttribute("title") ||
      el.textContent?.trim().replace(/\s+/g, " ").slice(0, 40) ||
      el.getAttribute("name") ||
      "";
    return `<${el.tagName.toLowerCase()}${el.getAttribute("role") ? ` role=${el.getAttribute("role")}` : ""}> "${name}"`;
  };
  // 1 px boxes are visually hidden (sr-only skip link, live regions): nothing to cover or be covered.
  const shown = (el: Element) => {
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1 && el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  };
  const floating = [...document.querySelectorAll("body *")].filter((el) => {
    const style = getComputedStyle(el);
    return (style.position === "fixed" || style.position === "sticky") && style.pointerEvents !== "none" && shown(el);
  });
  // tabindex="-1" marks targets of script focus (rows, headings), not controls.
  const controls = [
    ...document.querySelectorAll(
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])',
    ),
  ].filter(shown);
  const vh = window.innerHeight;
  const vw = window.innerWidth;
  const scrollLeftBelow = document.documentElement.scrollHeight - vh - window.scrollY;
  const trapped: Covered[] = [];
  for (const f of floating) {
    const fr = f.getBoundingClientRect();
    for (const el of controls) {
      if (f.contains(el) || el.contains(f)) continue;
      const r = el.getBoundingClientRect();
      const left = Math.max(fr.left, r.left, 0);
      const right = Math.min(fr.right, r.right, vw);
      const top = Math.max(fr.top, r.top, 0);
      const bottom = Math.min(fr.bottom, r.bottom, vh);
      if (right - left < 1 || bottom - top < 1) continue;
      // On top at the middle of the shared area? (A bar under the control in the stacking order covers nothing.)
      const hit = document.elementFromPoint((left + right) / 2, (top + bottom) / 2);
      if (!hit || !f.contains(hit) || el.contains(hit)) continue;
      // A box anchored at the bottom (its middle below the screen's middle) is left by scrolling down, one at
      // the top by scrolling up; a box taller than half the screen cannot be scrolled out of.
      const middle = (fr.top + fr.bottom) / 2;
      const free = fr.height > vh / 2 ? false : middle > vh / 2 ? scrollLeftBelow >= r.bottom - fr.top : window.scrollY >= fr.bottom - r.top;
      if (!free) trapped.push({ floating: describe(f), control: describe(el), at: `${Math.round(left)},${Math.round(top)}` });
    }
  }
  return trapped;
}

async function settle(page: Page) {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

async function expectNothingTrapped(page: Page, label: string) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
  for (const [where, y] of [
    ["top", 0],
    ["middle", Math.round(height / 2)],
    ["bottom", height],
  ] as const) {
    await page.evaluate((top) => window.scrollTo({ top, behavior: "instant" }), y);
    await settle(page);
    // The AI page's Scroll to top appears after 300 px: wait for it where the page has scrolled that far.
    if (label.includes("/ai-assistant") && y > 300) await expect(page.getByRole("button", { name: "Scroll to top" })).toBeVisible();
    expect(await page.evaluate(findTrapped), `${label}, scrolled to the ${where}`).toEqual([]);
  }
}

test("no floating button or bar covers a control at 375 or 1280 px, at the top, middle or bottom of any signed-in page", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, ACCOUNTS.floating);
  // The account holds the demo book (demoData), so every page is full: a contact with tasks, a deal, insights.
  const link = async (path: string, pattern: RegExp) => {
    await page.goto(path);
    const href = await page
      .getByRole("main")
      .locator("a[href]")
      .evaluateAll((links, source) => links.map((a) => a.getAttribute("href")!).find((h) => new RegExp(source).test(h)), pattern.source);
    expect(href, `a link like ${pattern} on ${path}`).toBeTruthy();
    return href!;
  };
  const contact = await link("/contacts", /^\/contacts\/[0-9a-f-]{36}$/);
  const deal = await link("/pipeline", /^\/deals\/[0-9a-f-]{36}$/);
  const pages = [
    "/dashboard",
    "/contacts",
    contact,
    "/pipeline",
    deal,
    "/pipeline/commissions",
    "/pipeline/stages",
    "/tasks",
    "/activities",
    "/ai-assistant",
    "/settings",
    "/reports",
  ];
  for (const size of [
    { width: 375, height: 812 },
    { width: 1280, height: 800 },
  ]) {
    await page.setViewportSize(size);
    for (const path of pages) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expectNothingTrapped(page, `${path} at ${size.width} px`);
    }
    // With contacts selected, the sticky selection bar joins the floating buttons.
    await page.goto("/contacts");
    await page.getByRole("checkbox", { name: "Select all shown" }).check();
    await expect(page.getByRole("region", { name: "Selected contacts" })).toBeVisible();
    await expectNothingTrapped(page, `/contacts with a selection at ${size.width} px`);
  }
});
