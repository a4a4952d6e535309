import { ACCOUNTS, expect, signIn, test } from "./fixtures";

test("an unknown path shows the 404 page with a way home", async ({ page }) => {
  const response = await page.goto("/this-page-does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404" })).toBeVisible();
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await page.getByRole("link", { name: "Return to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { level: 1, name: /Every lead answered/ })).toBeVisible();
});

test("a signed-in user asking for a contact that is not theirs gets the 404 page", async ({ page }) => {
  await signIn(page, ACCOUNTS.nav);
  const response = await page.goto("/contacts/00000000-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
});
