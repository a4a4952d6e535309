import { ACCOUNTS, expect, signIn, test } from "./fixtures";

test("the theme toggle persists across reloads and applies before any app script runs", async ({ page }) => {
  await page.goto("/");
  const html = page.locator("html");
  await expect(html).not.toHaveClass(/dark/);
  await page.getByRole("button", { name: "Switch to dark theme" }).click();
  await expect(html).toHaveClass(/dark/);
  expect(await page.evaluate(() => localStorage.getItem("porchlight-theme"))).toBe("dark");

  // With the app's scripts blocked, only the inline head script can apply the theme: no light flash.
  await page.route("**/assets/*.js", (route) => route.abort());
  await page.reload();
  await expect(html).toHaveClass(/dark/);
  await page.unroute("**/assets/*.js");

  await signIn(page, ACCOUNTS.theme);
  await expect(html).toHaveClass(/dark/);
  await page.getByRole("button", { name: "Switch to light theme" }).click();
  await page.reload();
  await expect(html).not.toHaveClass(/dark/);
});

test.describe("with the device in dark mode", () => {
  test.use({ colorScheme: "dark" });

  test("the theme follows the system setting, live, until the agent chooses one; Settings can go back to the system", async ({ page }) => {
    const html = page.locator("html");
    await page.goto("/");
    expect(await page.evaluate(() => localStorage.getItem("porchlight-theme"))).toBeNull();
    await expect(html).toHaveClass(/dark/);
    // The device switches to light while the page is open: the page follows without a reload.
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Switch to dark theme" })).toHaveAttribute("aria-pressed", "false");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).toHaveClass(/dark/);
    await expect(page.getByRole("button", { name: "Switch to light theme" })).toHaveAttribute("aria-pressed", "true");

    // A chosen theme wins over the system setting, in the app too.
    await signIn(page, ACCOUNTS.theme);
    // The sign-in toast sits below the header: it never covers the buttons there (a pointer resting on a toast
    // pauses its timer, so a toast over the toggle kept taking its taps).
    const greeting = page.locator("li", { hasText: "Welcome back!" });
    await expect(greeting).toBeVisible();
    const toastTop = (await greeting.boundingBox())!.y;
    const header = (await page.getByRole("banner").boundingBox())!;
    expect(toastTop).toBeGreaterThanOrEqual(header.y + header.height);
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    expect(await page.evaluate(() => localStorage.getItem("porchlight-theme"))).toBe("light");
    await page.emulateMedia({ colorScheme: "light" });
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(html).not.toHaveClass(/dark/);

    await page.goto("/settings");
    const choice = page.getByLabel("Theme", { exact: true });
    await expect(choice).toHaveValue("light");
    await choice.selectOption("system");
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem("porchlight-theme"))).toBeNull();
    await page.emulateMedia({ colorScheme: "light" });
    await expect(html).not.toHaveClass(/dark/);
    await page.reload();
    await expect(html).not.toHaveClass(/dark/);
    await expect(page.getByLabel("Theme", { exact: true })).toHaveValue("system");
  });
});

test("the display example follows the fields before saving", async ({ page }) => {
  await signIn(page, ACCOUNTS.theme);
  await page.goto("/settings");
  const example = page.getByTestId("display-example");
  await expect(example).toContainText("$650,000");
  const saved = await example.textContent();
  await page.getByLabel("Currency").selectOption("EUR");
  await expect(example).toContainText("€650,000");
  await expect(example).toContainText("(not saved yet)");
  await page.getByLabel("Time format").selectOption("24h");
  await expect(example).toContainText(/\b\d{2}:\d{2}\b/);
  await expect(example).not.toContainText(/AM|PM/);
  await page.getByLabel("Date format").selectOption("EU");
  await expect(example).toContainText(/\b\d{2}\/\d{2}\/\d{2}\b/);
  // Back to the saved values: the example is the saved one again, and nothing was saved.
  await page.getByLabel("Currency").selectOption("USD");
  await page.getByLabel("Time format").selectOption("12h");
  await page.getByLabel("Date format").selectOption("US");
  await expect(example).toHaveText(saved!);
  await page.reload();
  await expect(example).toContainText("$650,000");
  await expect(example).not.toContainText("not saved");
});
