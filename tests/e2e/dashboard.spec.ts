import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, nyDay, signIn, test, type Account } from "./fixtures";

// The dashboard of an agent with a little of everything, on a phone and on a desktop: the figures,
// where they link, how each is counted (by keyboard), the charts' text alternative, and axe in both themes.

/** The date in the account's timezone (the default, New York), n calendar days on: what the server calls today. */
const dayInNewYork = nyDay;

async function post(page: Page, path: string, form: Record<string, string>) {
  const response = await page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin } });
  expect(response.status(), `${path} ${JSON.stringify(form)}`).toBe(200);
}

/** Three contacts, an open deal closing in 30 days, a won deal closed today, and a deal moved from Lead to Showing. */
async function seedAgent(page: Page, account: Account) {
  await signIn(page, account);
  await expect(page.getByRole("heading", { name: "Your dashboard fills in as you work" })).toBeVisible();
  await post(page, "/contacts?index", { intent: "create", name: "Priya Hot", email: "priya@example.com", status: "hot", source: "referral" });
  await post(page, "/contacts?index", { intent: "create", name: "Marco Warm", email: "marco@example.com", status: "warm", source: "website" });
  await post(page, "/contacts?index", { intent: "create", name: "Lena Cold", email: "lena@example.com", status: "cold", source: "website" });
  await post(page, "/pipeline?index", {
    intent: "create",
    title: "14 Birch Lane",
    stage: "offer",
    dealValueCents: "500000",
    expectedCloseDate: dayInNewYork(30),
  });
  await post(page, "/pipeline?index", { intent: "create", title: "9 Elm Court", stage: "closed_won", dealValueCents: "400000" });
  await post(page, "/pipeline?index", { intent: "create", title: "22 Oak Road", stage: "lead", dealValueCents: "250000" });
  await page.goto("/pipeline?view=list");
  const oak = await page.getByRole("link", { name: "22 Oak Road" }).getAttribute("href");
  await post(page, `${oak}`, { intent: "move", stage: "showing" });
  await page.goto("/dashboard");
}

/** The quick stats, in order. */
const stats = (page: Page) =>
  page
    .getByRole("list")
    .filter({ has: page.getByRole("link", { name: /^Total contacts/ }) })
    .getByRole("listitem");
const stat = (page: Page, label: string) => stats(page).filter({ hasText: label });

async function expectFigures(page: Page) {
  await expect(page.getByRole("link", { name: "Total contacts 3" })).toHaveAttribute("href", "/contacts");
  await expect(stat(page, "Total contacts")).toContainText("1 hot · 1 warm · 1 cold");
  await expect(page.getByRole("link", { name: "Active deals 2" })).toHaveAttribute("href", "/pipeline");
  await expect(stat(page, "Active deals")).toContainText("$750,000 in value");
  await expect(page.getByRole("link", { name: "Tasks due 0" })).toHaveAttribute("href", "/tasks");
  // The stage change is Porchlight's record, not an activity the agent logged.
  await expect(page.getByRole("link", { name: "Recent activity 0" })).toHaveAttribute("href", "/dashboard#activity");
  await expect(page.getByRole("link", { name: "New leads this month 3" })).toHaveAttribute("href", "/reports#speed");
  await expect(page.getByRole("link", { name: "Follow-up required 0" })).toHaveAttribute("href", "/dashboard#follow-up");
  await expect(page.getByRole("link", { name: "Hot prospects 1" })).toHaveAttribute("href", "/contacts?status=hot");
  await expect(page.getByRole("link", { name: "Sphere growth +3" })).toBeVisible();
  // Nobody called, texted, e-mailed or met the three new contacts yet.
  await expect(page.getByRole("link", { name: "Speed to lead —" })).toHaveAttribute("href", "/reports#speed");
  await expect(stat(page, "Speed to lead")).toContainText("0 of 3 new leads of the last 30 days answered");

  const pipeline = page.getByRole("region", { name: "Pipeline overview" });
  await expect(pipeline.getByRole("link", { name: /Offer 1 deal/ })).toHaveAttribute("href", "/pipeline?view=list&stage=offer");
  await expect(pipeline.getByRole("listitem").filter({ hasText: "Offer" })).toContainText("$500,000 · weighted $300,000");
  await expect(pipeline.getByRole("listitem").filter({ hasText: "Showing" })).toContainText("$250,000 · weighted $100,000");
  const closings = page.getByRole("region", { name: "Upcoming closings" });
  await expect(closings.getByRole("link", { name: "14 Birch Lane" })).toHaveAttribute("href", /^\/deals\//);
  // The default plan: 3 % of $500,000, nothing taken off.
  await expect(closings).toContainText("net $15,000.00");
  await expect(page.getByRole("region", { name: "Latest activity" })).toContainText("Stage change: Lead → Showing");
  await expect(page.getByRole("region", { name: "Task reminders" })).toContainText("No open tasks.");
  const sources = page.getByRole("region", { name: "Lead sources" });
  await expect(sources.getByRole("link", { name: "Website" })).toHaveAttribute("href", "/contacts?source=website");
  await expect(sources.getByRole("listitem").first()).toContainText("Website 2 · 67%");

  // The charts' text alternative: this month's row has the won deal's price and its net.
  const thisMonth = new Date(`${dayInNewYork()}T12:00:00Z`).toLocaleDateString("en-US", { month: "long", year: "numeric", timeZone: "UTC" });
  const volume = page.getByRole("table", { name: "Closed volume by month, last 12 months" });
  await expect(volume.getByRole("row", { name: new RegExp(thisMonth) })).toContainText("$400,000");
  await expect(
    page.getByRole("table", { name: "Agent net by month, last 12 months" }).getByRole("row", { name: new RegExp(thisMonth) }),
  ).toContainText("$12,000.00");
  await expect(page.locator('svg[data-chart="volume"] rect')).toHaveCount(12);
}

test("every figure from the agent's data, each linked and explained, keyboard included", async ({ page }) => {
  await seedAgent(page, ACCOUNTS.dashboardPhone);
  await expectFigures(page);
  await expectNoSideways(page);
  // Two stats a row on a phone, three from Tailwind's lg (1024 px) up.
  const perRow = page.viewportSize()!.width >= 1024 ? 3 : 2;
  const [first, lastOfRow, nextRow] = await Promise.all([0, perRow - 1, perRow].map((i) => stats(page).nth(i).boundingBox()));
  expect(lastOfRow!.y).toBe(first!.y);
  expect(nextRow!.y).toBeGreaterThan(first!.y);

  // How a figure is counted: the button after the stat's link, opened with Enter, closed with Escape.
  await page.getByRole("link", { name: "Tasks due 0" }).focus();
  await page.keyboard.press("Tab");
  const how = page.getByRole("button", { name: "How Tasks due is counted" });
  await expect(how).toBeFocused();
  await expect(how).toHaveAttribute("aria-expanded", "false");
  const definition = page.getByText("Open tasks due today or earlier, where today is the date in your timezone (Settings).", { exact: false });
  await expect(definition).toBeHidden();
  await page.keyboard.press("Enter");
  await expect(how).toHaveAttribute("aria-expanded", "true");
  await expect(definition).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(definition).toBeHidden();
  await expect(how).toBeFocused();
  // Space works too, on a section's definition.
  const sectionHow = page.getByRole("button", { name: "How Follow up next is counted" });
  await sectionHow.focus();
  await page.keyboard.press("Space");
  await expect(page.getByRole("region", { name: "Follow up next" })).toContainText("Hot and warm contacts with no activity in the last 14 days");
  await expect(page.getByRole("region", { name: "Follow up next" })).toContainText(
    "Every hot and warm contact has had activity in the last 14 days.",
  );

  // Links go where they say.
  await page.getByRole("link", { name: "Hot prospects 1" }).click();
  await page.waitForURL(/\/contacts\?status=hot$/);
  await expect(page.getByRole("main").getByRole("link", { name: "Priya Hot", exact: true })).toBeVisible();
});

test.describe("on a desktop", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the same figures in three columns, every definition reachable with Tab", async ({ page }) => {
    await seedAgent(page, ACCOUNTS.dashboardDesktop);
    await expectFigures(page);
    await expectNoSideways(page);
    const boxes = await Promise.all([0, 2, 3].map((i) => stats(page).nth(i).boundingBox()));
    expect(boxes[0]!.y).toBe(boxes[1]!.y);
    expect(boxes[2]!.y).toBeGreaterThan(boxes[0]!.y);
    // Tab from the page heading through the stats: each stat's link, then its definition button.
    // Every figure's, and the new leads waiting above them (the three contacts just added).
    const buttons = page.getByRole("button", { name: /^How .* is counted$/ });
    await expect(buttons).toHaveCount(19);
    await page.getByRole("link", { name: "Total contacts 3" }).focus();
    const reached: string[] = [];
    for (let i = 0; i < 27 && reached.length < 9; i++) {
      await page.keyboard.press("Tab");
      const name = await page.evaluate(() =>
        document.activeElement?.getAttribute("aria-expanded") !== null ? document.activeElement?.textContent : null,
      );
      if (name) reached.push(name);
    }
    expect(reached).toEqual(
      [
        "Total contacts",
        "Active deals",
        "Tasks due",
        "Recent activity",
        "New leads this month",
        "Follow-up required",
        "Hot prospects",
        "Sphere growth",
        "Speed to lead",
      ].map((l) => `How ${l} is counted`),
    );
  });
});

test("the dashboard has no WCAG 2.2 AA violations in light and dark, with a definition open", async ({ page }) => {
  test.setTimeout(90_000);
  await seedAgent(page, ACCOUNTS.dashboardA11y);
  const check = async (label: string) => {
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  };
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.goto("/dashboard");
    await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"));
    await page.getByRole("button", { name: "How Sphere growth is counted" }).click();
    await check(`/dashboard (${theme})`);
  }
});

test("long names give way on one line with an ellipsis, prices stay on it, and Sphere growth reads clearly in both themes", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.dashboardLayout);
  const title = "1234 Northwest Evergreen Meadows Boulevard, Unit 5B, Lake Town";
  await post(page, "/contacts?index", {
    intent: "create",
    name: "Maximiliana Bartholomew-Featherstonehaugh",
    email: "max@example.com",
    status: "hot",
  });
  await post(page, "/pipeline?index", { intent: "create", title, stage: "offer", dealValueCents: "1250000", expectedCloseDate: dayInNewYork(10) });
  await page.goto("/dashboard");
  const closings = page.getByRole("region", { name: "Upcoming closings" });
  const link = closings.getByRole("link", { name: title });
  await expect(link).toHaveAttribute("title", title);
  // Cut, not wrapped: the text is wider than its box, and the box is one line tall.
  expect(await link.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  const price = closings.getByText("$1,250,000", { exact: true });
  const [titleBox, priceBox] = [await link.boundingBox(), await price.boundingBox()];
  expect(Math.abs(titleBox!.y - priceBox!.y)).toBeLessThan(4);
  expect(priceBox!.x).toBeGreaterThan(titleBox!.x + titleBox!.width - 1);

  const sphere = stat(page, "Sphere growth");
  await expect(sphere).toContainText("in the last 30 days; none in the 30 before");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    const results = await new AxeBuilder({ page }).include("li:has(> a[href='/contacts?sort=newest'])").withRules(["color-contrast"]).analyze();
    expect(results.violations, theme).toEqual([]);
    expect(results.passes.flatMap((rule) => rule.nodes).length, `${theme}: contrast was measured`).toBeGreaterThan(0);
  }
});
