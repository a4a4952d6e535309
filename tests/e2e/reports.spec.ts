import AxeBuilder from "@axe-core/playwright";
import { ACCOUNTS, expect, expectNoSideways, signIn, test } from "./fixtures";

// Reports on an account with the demo book of business (scripts/demo-data.mjs), at 375 px and, in the
// desktop project, at 1280 px. The demo's two won deals (Brooks, $468,000, 20 days ago; Whitaker, $289,000, 70
// days ago) sit in the last 12 months whatever day the suite runs; the default plan is 3 % with nothing taken off.

test("the demo account's reports are filled in: income, sources, speed to lead, funnel and activity", async ({ page }, info) => {
  await signIn(page, ACCOUNTS.reports);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await page.getByRole("navigation", { name: "Report period" }).getByRole("link", { name: "Last 12 months" }).click();
  await expect(page).toHaveURL(/\/reports\?period=last-12-months$/);
  await expect(page.getByRole("link", { name: "Last 12 months" })).toHaveAttribute("aria-current", "page");

  const income = page.getByRole("region", { name: "Income" });
  const incomeTable = income.getByRole("table", { name: /Closed won deals/ });
  const incomeTotal = incomeTable.getByRole("row", { name: /^Total/ });
  await expect(incomeTotal).toContainText("$757,000.00");
  // 3 % of $757,000.
  await expect(incomeTotal).toContainText("$22,710.00");
  // The totals end with the 12 months before (no demo deal closed then) and the change.
  await expect(incomeTable.getByRole("row", { name: /^Previous period/ })).toContainText("$0.00");
  await expect(incomeTable.getByRole("row").last()).toContainText("Change");
  await expect(income).toContainText("of $120,000"); // the demo's income goal

  const sources = page.getByRole("region", { name: "Lead sources" });
  await expect(sources.getByRole("table", { name: /Lead sources/ }).getByRole("row", { name: /^Website/ })).toContainText("$8,670.00");
  await expect(sources.getByRole("table", { name: /reached each stage/ })).toBeVisible();
  // New leads by month: a column per month, so at 375 px it scrolls inside its own box, never the page (below).
  const months = sources.getByRole("table", { name: /^New leads per source per month/ });
  await expect(months.getByRole("columnheader", { name: "Total" })).toBeVisible();
  await expect(months.getByRole("row", { name: /^To review \(not yet a contact\)/ })).toBeVisible();
  if (info.project.name === "mobile") {
    const box = sources.getByRole("group", { name: /^New leads per source per month/ });
    expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  }

  const speed = page.getByRole("region", { name: "Speed to lead" });
  // Every demo contact arrived as a new lead.
  await expect(speed.locator("dl > div").filter({ hasText: "New leads" }).getByRole("definition")).toHaveText("10");
  await expect(speed.locator("dl > div").filter({ hasText: "Median" }).getByRole("definition")).toHaveText(/\d+ (days?|h|min)/);
  // Five of the ten demo contacts have had no call, text, e-mail or meeting.
  await expect(speed.locator("dl > div").filter({ hasText: "Not answered" })).toContainText("50%");
  await expect(
    speed
      .getByRole("table", { name: /still waiting/ })
      .getByRole("link")
      .first(),
  ).toHaveAttribute("href", /^\/contacts\//);

  const funnel = page.getByRole("region", { name: "Pipeline conversion" });
  await expect(funnel.getByRole("table", { name: /entered each stage/ }).getByRole("row", { name: /^Lead/ })).toContainText("9");
  await expect(funnel).toContainText("Bought with another agent.");

  const activity = page.getByRole("region", { name: "Activity" });
  await expect(activity.getByRole("table", { name: /Activities logged by week and type/ })).toBeVisible();
  await expect(activity.locator('svg[data-chart="Activities by week"]')).toBeVisible();

  await expectNoSideways(page);
  await page.screenshot({ path: `test-results/screenshots/${info.project.name}-reports.png`, fullPage: true });

  // Summary cards jump to their report.
  await page
    .getByRole("list", { name: "Summary" })
    .getByRole("link", { name: /Agent net/ })
    .click();
  await expect(page).toHaveURL(/#income$/);
});

test("the period switch, a custom range, a CSV download and the print view", async ({ page }, info) => {
  await signIn(page, ACCOUNTS.reports);
  await page.goto("/reports?period=ytd");
  await expect(page.getByText(/^Year to date · /)).toBeVisible();

  // A custom range of the last 100 days (the demo's closings), and a range that ends before it starts.
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toLocaleDateString("en-CA", { timeZone: "America/New_York" });
  const range = page.getByRole("form", { name: "Custom range" });
  await range.getByLabel("From").fill(day(-100));
  await range.getByLabel("To").fill(day(0));
  await range.getByRole("button", { name: "Show custom range" }).click();
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${day(-100)}&to=${day(0)}`));
  await expect(
    page
      .getByRole("region", { name: "Income" })
      .getByRole("table")
      .getByRole("row", { name: /^Total/ }),
  ).toContainText("$757,000.00");
  await page.goto(`/reports?period=custom&from=${day(0)}&to=${day(-5)}`);
  await expect(page.getByRole("alert")).toHaveText("The custom range ends before it starts, so this shows This month.");

  await page.goto("/reports?period=last-12-months");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: /^CSV: Lead sources/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^porchlight-sources-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = Buffer.concat(await (await file.createReadStream()).toArray())
    .toString("utf8")
    .replace(/^\uFEFF/, "");
  const lines = csv.trim().split("\r\n");
  expect(lines[0]).toBe(
    "Source,Contacts added,Won,Conversion (%),Deals closed,Days to close,Closed volume (USD),Agent net (USD),Cost (USD),Cost per lead (USD),Cost per closed deal (USD),Return on spend (×)",
  );
  expect(lines.find((line) => line.startsWith("Website,"))).toMatch(/^Website,\d+,\d+,\d*,1,\d+,289000,8670,/);

  // Print: the light theme even when the screen is dark, without the app's header, navigation or floating buttons.
  const colors = () =>
    page.evaluate(() => ({
      body: getComputedStyle(document.body).color,
      section: getComputedStyle(document.querySelector(".report-section")!).backgroundColor,
    }));
  await page.evaluate(() => localStorage.setItem("porchlight-theme", "light"));
  await page.reload();
  const light = await colors();
  await page.evaluate(() => localStorage.setItem("porchlight-theme", "dark"));
  await page.reload();
  expect(await colors()).not.toEqual(light);
  await page.emulateMedia({ media: "print" });
  await expect(page.getByRole("navigation", { name: "Main" })).toBeHidden();
  await expect(page.getByRole("button", { name: "Print" })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Report period" })).toBeHidden();
  expect(await colors()).toEqual(light);
  await page.screenshot({ path: `test-results/screenshots/${info.project.name}-reports-print.png`, fullPage: true });
  await page.emulateMedia({ media: "screen" });
  await expect(page.getByRole("button", { name: "Print" })).toBeVisible();
});

test("reports have no WCAG 2.2 AA violations in light and dark, with a definition open", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.reportsA11y);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of ["/reports?period=last-12-months", "/reports?period=this-month", "/settings?tab=goals"]) {
      await page.goto(path);
      await expect(page.getByRole("main")).toBeVisible();
      if (path.startsWith("/reports")) await page.getByRole("button", { name: "How Speed to lead is counted" }).click();
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(results.violations.map((v) => `${theme} ${path}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
      await expectNoSideways(page);
    }
  }
});
