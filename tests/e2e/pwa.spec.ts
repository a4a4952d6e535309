import type { BrowserContext, Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// The service worker runs in every spec (ADR 0019); these tests check what it does.

/** Loads a page that registers the worker and waits until the worker is active. */
async function installWorker(page: Page) {
  await page.goto("/auth");
  return page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL);
}

/** Every URL in the worker's caches, by cache name. */
function cachedUrls(page: Page) {
  return page.evaluate(async () => {
    const result: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      result[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
    }
    return result;
  });
}

async function expectOfflinePageWithLogo(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole("heading", { name: "You're offline" })).toBeVisible();
  // The logo comes from the worker's cache: with no network a broken image has naturalWidth 0.
  const logo = page.locator("main img");
  await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
}

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

test("with the worker installed, a page that cannot load offline shows the offline page with its logo", async ({ page, context }) => {
  expect(await installWorker(page)).toMatch(/\/sw\.js$/);
  // Navigations reach the network through navigation preload: the worker never fetches a page itself.
  expect(await page.evaluate(async () => (await (await navigator.serviceWorker.ready).navigationPreload.getState()).enabled)).toBe(true);
  await context.setOffline(true);
  await expectOfflinePageWithLogo(page, "/pricing");
  // An app page opens the field view, which has nothing to show on a device where nobody has signed in.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/field#\/dashboard$/);
  await expect(page.getByRole("heading", { name: "No copy saved on this phone" })).toBeVisible();
  await expectOfflinePageWithLogo(page, "/pricing");
  await context.setOffline(false);
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
});

test("the page that installs the worker is not taken over; the next one gets its build assets from the cache", async ({ page, context }) => {
  await installWorker(page);
  // No clients.claim: the page that registered the worker finishes under the network alone.
  expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();

  const fromWorker: string[] = [];
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.startsWith("/assets/") && response.fromServiceWorker()) fromWorker.push(response.url());
  });
  await page.reload();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
  expect(fromWorker.length).toBeGreaterThan(0);

  // The assets this page loaded are now cached, and are served with no network at all.
  const assets = await page.evaluate(() =>
    performance
      .getEntriesByType("resource")
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith("/assets/")),
  );
  expect(assets.length).toBeGreaterThan(0);
  await expect.poll(async () => Object.values(await cachedUrls(page)).flat()).toEqual(expect.arrayContaining(assets));
  await context.setOffline(true);
  const statuses = await page.evaluate((paths) => Promise.all(paths.map(async (path) => (await fetch(path)).status)), assets);
  expect(statuses.every((status) => status === 200)).toBe(true);
  await context.setOffline(false);
});

test("no signed-in page is ever cached: the only page kept is the field view, which holds no data", async ({ page, context }) => {
  await signIn(page, ACCOUNTS.pwa);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.goto("/dashboard");
  await page.goto("/contacts");
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");

  const cached = Object.values(await cachedUrls(page)).flat();
  for (const path of cached)
    expect(["/offline", "/field", "/icons/icon-192.png", "/favicon.svg"].includes(path) || path.startsWith("/assets/"), path).toBe(true);
  expect(cached).toContain("/field");
  // The field view's document is the same for everyone: no e-mail, no name, no contact from this account.
  const fieldHtml = await page.evaluate(async () => (await (await caches.match("/field"))?.text()) ?? "");
  expect(fieldHtml).toContain("<html");
  for (const secret of [ACCOUNTS.pwa.email, "Grace Liu", "Priya", "Okafor"]) expect(fieldHtml).not.toContain(secret);
  await context.setOffline(true);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/field#\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toHaveCount(0);
  await context.setOffline(false);
});

/** Installs the worker as the previous deploy served it: the same script under another cache name. */
async function installPreviousVersion(context: BrowserContext, page: Page) {
  await context.route("**/sw.js", async (route) => {
    const response = await route.fetch();
    const script = await response.text();
    const previous = script.replace(/const CACHE = "porchlight-[^"]+";/, 'const CACHE = "porchlight-previous-version";');
    expect(previous).not.toBe(script);
    await route.fulfill({ response, body: previous });
  });
  await installWorker(page);
  await context.unrouteAll();
}

test("a new version waits for the old version's pages to close, then takes over and drops the old cache", async ({ context }) => {
  const first = await context.newPage();
  await installPreviousVersion(context, first);
  await first.reload();
  expect(Object.keys(await cachedUrls(first))).toEqual(["porchlight-previous-version"]);

  // The deploy: the update check finds the server's script, which installs beside the old one and waits.
  const waiting = await first.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    await registration.update();
    const next = registration.installing ?? registration.waiting;
    if (next && next.state === "installing") {
      await new Promise<void>((resolve) => next.addEventListener("statechange", () => next.state !== "installing" && resolve()));
    }
    return registration.waiting?.state;
  });
  expect(waiting).toBe("installed");
  const [current] = Object.keys(await cachedUrls(first)).filter((name) => name !== "porchlight-previous-version");
  expect(current).toMatch(/^porchlight-/);
  // The open page keeps the version it loaded with, and still navigates normally.
  await first.goto("/auth");
  await expect(first.getByRole("button", { name: "Sign in" })).toBeVisible();
  expect(await first.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting?.state)).toBe("installed");

  // Once no page runs the old version, the next visit is served by the new one, and the old cache is gone.
  await first.close();
  const second = await context.newPage();
  await second.goto("/auth");
  await expect(second.getByRole("button", { name: "Sign in" })).toBeVisible();
  await expect.poll(() => cachedUrls(second).then(Object.keys)).toEqual([current]);
  expect(await second.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
  await context.setOffline(true);
  await expectOfflinePageWithLogo(second, "/pricing");
  await context.setOffline(false);
});

test("a new version offers “A new version is ready — Reload”, and Reload moves this tab onto it", async ({ context }) => {
  const page = await context.newPage();
  await installPreviousVersion(context, page);
  // The banner is part of the app's React pages; /auth is served without React (ADR 0011), /auth/forgot is not.
  await page.goto("/auth/forgot");
  expect(Object.keys(await cachedUrls(page))).toEqual(["porchlight-previous-version"]);
  const banner = page.getByRole("status").filter({ hasText: "A new version is ready" });
  await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();
  await expect(banner).toBeHidden();

  // The deploy: the new version installs and waits, and the page offers it instead of being taken over.
  await page.getByLabel("Email").fill("typed-before-the-update@example.com");
  await page.evaluate(async () => (await navigator.serviceWorker.ready).update());
  await expect(banner).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("typed-before-the-update@example.com");
  await page.evaluate(() => Object.assign(window, { loadedBeforeReload: true }));

  // The tab reloads itself once the new worker controls it: a new document, without the mark set above.
  const reloaded = page.waitForEvent("load");
  await banner.getByRole("button", { name: "Reload" }).click();
  await reloaded;
  expect(await page.evaluate(() => "loadedBeforeReload" in window)).toBe(false);
  await expect(page.getByRole("button", { name: "Send reset link" })).toBeVisible();
  await expect.poll(() => cachedUrls(page).then(Object.keys)).not.toContain("porchlight-previous-version");
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null)).toBeNull();
  await expect(banner).toBeHidden();
});
