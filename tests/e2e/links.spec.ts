import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// decisions.md: every internal link resolves. Visit the pages, collect their same-site links, fetch each.
async function brokenLinks(page: Page, paths: string[]) {
  const links = new Set<string>();
  for (const path of paths) {
    await page.goto(path);
    for (const href of await page.locator("a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))) {
      links.add(href.split("#")[0]!);
    }
  }
  const broken: string[] = [];
  for (const link of links) {
    const response = await page.request.get(link);
    if (response.status() >= 400) broken.push(`${link} → ${response.status()}`);
  }
  return { links, broken };
}

test("every internal link on the public pages resolves", async ({ page }) => {
  const { links, broken } = await brokenLinks(page, ["/", "/auth", "/auth/forgot", "/pricing", "/contact", "/terms", "/privacy", "/missing-page"]);
  expect(links.size).toBeGreaterThan(3);
  expect(broken).toEqual([]);
});

test("every internal link on the signed-in pages resolves", async ({ page }) => {
  await signIn(page, ACCOUNTS.links);
  const { links, broken } = await brokenLinks(page, ["/dashboard", "/contacts", "/settings", "/app/welcome?trial=1"]);
  expect(links.size).toBeGreaterThanOrEqual(7);
  expect(broken).toEqual([]);
});
