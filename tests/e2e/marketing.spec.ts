import { expect, test } from "./fixtures";

test("the pricing toggle shows monthly first and switches to yearly and back, on / and /pricing", async ({ page }) => {
  for (const path of ["/", "/pricing"]) {
    await page.goto(path);
    const card = page.getByRole("region", { name: "Solo Agent" });
    const monthly = page.getByRole("radio", { name: "Monthly" });
    const yearly = page.getByRole("radio", { name: "Yearly" });
    await expect(monthly).toBeChecked();
    await expect(card.getByText(/^\$40 per month$/)).toBeVisible();
    await expect(card.getByText("Save $96/year")).toBeHidden();
    await expect(card.getByText("Save 20%")).toBeHidden();

    await page.getByText("Yearly", { exact: true }).click();
    await expect(yearly).toBeChecked();
    await expect(card.getByText(/^\$32 per month$/)).toBeVisible();
    await expect(card.getByText("Save $96/year")).toBeVisible();
    await expect(card.getByText("Save 20%")).toBeVisible();
    await expect(card.getByText(/^\$40 per month$/)).toBeHidden();

    // Arrow keys move between the radios, as in any radio group.
    await yearly.focus();
    await page.keyboard.press("ArrowLeft");
    await expect(monthly).toBeChecked();
    await expect(card.getByText(/^\$40 per month$/)).toBeVisible();
    await expect(card.getByRole("link", { name: "Start Free Trial" })).toHaveAttribute("href", "/trial");
  }
});

test("on a phone the menu opens from the keyboard and leads to every section of the site", async ({ page }) => {
  await page.goto("/");
  const menu = page.locator("summary", { hasText: "Menu" });
  const nav = page.getByRole("navigation", { name: "Main" }).filter({ has: page.getByRole("link", { name: "Sign In" }) });
  await expect(nav).toBeHidden();
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(nav).toBeVisible();
  for (const name of ["Features", "Pricing", "About", "Blog", "Support", "Contact", "Sign In", "Start Free Trial"]) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
  await nav.getByRole("link", { name: "Support", exact: true }).click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole("heading", { name: "Support Center", level: 1 })).toBeVisible();
});

test("a visitor goes from the support centre to a guide and back, and from the blog to an article", async ({ page }) => {
  await page.goto("/support");
  await page.getByRole("link", { name: "View Guide: Billing" }).click();
  await expect(page).toHaveTitle("Billing — Porchlight");
  await expect(page.getByRole("link", { name: "Open Billing Settings" })).toHaveAttribute("href", "/settings?tab=billing");
  await page.getByRole("link", { name: "← Back to Support" }).click();
  await expect(page).toHaveURL(/\/support$/);

  await page.goto("/blog");
  const first = page.getByRole("article").first().getByRole("link");
  const title = await first.innerText();
  await first.click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Blog");
});

test("/trial sends every call to action to sign-up, which leads to the trial", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("main").getByRole("link", { name: "Start Free Trial" }).first().click();
  await expect(page).toHaveURL(/\/trial$/);
  await expect(page.getByRole("heading", { name: "How It Works" })).toBeVisible();
  await page.getByRole("link", { name: "Create your account" }).first().click();
  await expect(page).toHaveURL(/\/auth\?mode=signup$/);
  await expect(page.getByRole("link", { name: "Have an account? Sign in" })).toBeVisible();
});
