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

test("a signed-in user asking for a contact that is not theirs gets the 404 page", async ({ page, browser }) => {
  // A real contact of another agent (an id nobody owns would pass without any owner check).
  const name = `Errors Owner Client ${Date.now().toString(36)}`;
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await signIn(owner, ACCOUNTS.errorsOther);
  const created = await owner.request.post("/contacts?index", {
    form: { intent: "create", name, phone: "555 0177" },
    headers: { Origin: new URL(owner.url()).origin },
  });
  expect(created.status()).toBe(200);
  await owner.goto(`/contacts?q=${encodeURIComponent(name)}`);
  const href = await owner.getByRole("main").getByRole("link", { name }).first().getAttribute("href");
  expect(href).toMatch(/^\/contacts\/[\w-]+$/);
  expect((await owner.goto(href!))?.status()).toBe(200);
  await expect(owner.getByRole("heading", { name })).toBeVisible();
  await ownerContext.close();

  await signIn(page, ACCOUNTS.nav);
  const response = await page.goto(href!);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
});
