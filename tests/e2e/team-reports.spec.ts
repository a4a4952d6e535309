import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, expectNoViolations, test, type Account } from "./fixtures";

// Team reports (ADR 0077) for the seeded team "Lakeside Lead Realty": the admin opens them from the team page, sees
// Ivy's row and downloads the agents' CSV; the agent gets 404. At 375 and 1280 px, axe clean in light and dark.

async function axeClean(page: Page, width: number) {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    await expectNoViolations(page, `team reports (${theme})`, "main");
    await page.screenshot({ path: `/tmp/team-reports-${width}-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => localStorage.setItem("porchlight-theme", "light"));
}

async function signedIn(browser: Browser, account: Account, width: number) {
  const [a, b] = randomBytes(2);
  const context = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": `10.141.${a}.${b}` }, viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
  return { page, close: () => context.close() };
}

for (const width of [375, 1280]) {
  test(`at ${width} px: an admin opens Team reports, sees Ivy's row and downloads the agents' CSV; an agent gets 404`, async ({ browser }) => {
    test.setTimeout(120_000);
    const admin = await signedIn(browser, ACCOUNTS.leadAdmin, width);
    await admin.page.goto("/team");
    await admin.page.getByRole("link", { name: "Team reports" }).click();
    await expect(admin.page.getByRole("heading", { name: "Team reports", level: 1 })).toBeVisible();
    await admin.page.getByRole("link", { name: "Last 12 months" }).click();
    await admin.page.waitForURL(/period=last-12-months/);
    const agents = width < 768 ? admin.page.getByRole("list", { name: /^Per agent/ }) : admin.page.getByRole("table", { name: /^Per agent/ });
    await expect(agents.getByText("Ivy Agent", { exact: true })).toBeVisible();
    await expectNoSideways(admin.page);
    const [download] = await Promise.all([
      admin.page.waitForEvent("download"),
      admin.page.getByRole("link", { name: /^Download CSV: Per agent/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^porchlight-team-agents-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.split("\n")[0]).toContain("Agent,Currency,Leads");
    expect(csv).toContain("Ivy Agent,");
    await axeClean(admin.page, width);
    await admin.close();

    const agent = await signedIn(browser, ACCOUNTS.leadAgent, width);
    const response = await agent.page.goto("/team/reports");
    expect(response?.status()).toBe(404);
    await agent.close();
  });
}
