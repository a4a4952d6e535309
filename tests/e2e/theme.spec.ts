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
