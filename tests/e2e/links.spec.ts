import { readdirSync } from "node:fs";
import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

/** Same-site links on the current page, without fragments. */
const linksOn = async (page: Page) =>
  (await page.locator("a[href^='/']").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))).map((href) => href.split("#")[0]!);

/** Pages of the public site the crawl follows links from; anything else (the app, /auth) is only fetched. */
const isPublicPage = (path: string) =>
  /^\/(features|pricing|about|blog(\/[\w-]+)?|contact|support|guides\/[\w-]+|trial|terms|privacy)?$/.test(path.split("?")[0]!);

// decisions.md: every internal link resolves. Start at / and follow every internal link of the public site.
test("a crawl from / over every internal link of the public site finds no dead link", async ({ page }) => {
  test.setTimeout(120_000);
  const queue = ["/"];
  const visited = new Set<string>();
  const checked = new Map<string, number>();
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (visited.has(path)) continue;
    visited.add(path);
    const response = await page.goto(path);
    checked.set(path, response!.status());
    for (const link of await linksOn(page)) {
      if (isPublicPage(link)) {
        if (!visited.has(link)) queue.push(link);
      } else if (!checked.has(link)) {
        checked.set(link, (await page.request.get(link)).status());
      }
    }
  }
  // Redirects are followed (to sign in, for app pages), so every link ends on a page that answers 200.
  const broken = [...checked].filter(([, status]) => status !== 200).map(([link, status]) => `${link} → ${status}`);
  expect(broken).toEqual([]);
  // The whole site was reached: every guide and article, the legal pages and the feed's pages.
  const guides = readdirSync("content/guides").filter((file) => file.endsWith(".md")).length;
  expect(guides).toBeGreaterThanOrEqual(21);
  expect([...visited].filter((p) => p.startsWith("/guides/")).length).toBe(guides);
  expect([...visited].filter((p) => p.startsWith("/blog/")).length).toBeGreaterThanOrEqual(6);
  for (const path of ["/features", "/pricing", "/about", "/contact", "/support", "/terms", "/privacy", "/trial", "/blog"])
    expect(visited).toContain(path);
});

test("every internal link on the sign-in and not-found pages resolves", async ({ page }) => {
  const links = new Set<string>();
  for (const path of ["/auth", "/auth/forgot", "/missing-page"]) {
    await page.goto(path);
    for (const link of await linksOn(page)) links.add(link);
  }
  expect(links.size).toBeGreaterThan(1);
  for (const link of links) expect((await page.request.get(link)).status(), link).toBe(200);
});

test("every internal link on the signed-in pages resolves", async ({ page }) => {
  await signIn(page, ACCOUNTS.links);
  const links = new Set<string>();
  for (const path of ["/dashboard", "/contacts", "/settings", "/app/welcome?trial=1"]) {
    await page.goto(path);
    for (const link of await linksOn(page)) links.add(link);
  }
  expect(links.size).toBeGreaterThanOrEqual(7);
  const broken: string[] = [];
  for (const link of links) {
    const status = (await page.request.get(link)).status();
    if (status !== 200) broken.push(`${link} → ${status}`);
  }
  expect(broken).toEqual([]);
});
