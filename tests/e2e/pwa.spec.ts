import { expect, test } from "./fixtures";

// The one spec with the service worker allowed (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: "allow" });

test("the app is installable: a manifest with icons that load", async ({ page }) => {
  await page.goto("/");
  const href = await page.locator("link[rel=manifest]").getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const manifest = await (await page.request.get(href!)).json();
  expect(manifest).toMatchObject({ short_name: "Porchlight", start_url: "/dashboard", display: "standalone" });
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  for (const icon of manifest.icons) {
    const response = await page.request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/png");
  }
});

test("with the service worker installed, a page that cannot load offline shows the offline page", async ({ page, context }) => {
  await page.goto("/auth");
  const active = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active?.scriptURL;
  });
  expect(active).toMatch(/\/sw\.js$/);
  await context.setOffline(true);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
});
