import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// The app keeps the signed-in agent's field copy in IndexedDB, one database per agent, synced by cursor;
// sign-out deletes it, a sign-in as another agent deletes the first one's, and a session revoked elsewhere drops
// it at the next sync.

/** The field copies on this device: database name → contacts, tasks and deals held, and whether it has a cursor. */
function copies(page: Page) {
  return page.evaluate(async () => {
    const result: Record<string, { contacts: number; tasks: number; deals: number; cursor: boolean }> = {};
    for (const { name } of await indexedDB.databases()) {
      if (!name?.startsWith("porchlight-field-")) continue;
      // Opened without creating: a database deleted since the listing (the app wiping it) is skipped, never made
      // again empty under the app's name.
      const db = await new Promise<IDBDatabase | null>((resolve) => {
        const open = indexedDB.open(name);
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => resolve(null);
      });
      if (!db) continue;
      if (!db.objectStoreNames.contains("meta")) {
        // Still being created by the app: not a copy yet.
        db.close();
        continue;
      }
      const count = (store: string) =>
        new Promise<number>((resolve) => {
          const request = db.transaction(store).objectStore(store).count();
          request.onsuccess = () => resolve(request.result);
        });
      const cursor = await new Promise<boolean>((resolve) => {
        const request = db.transaction("meta").objectStore("meta").get("sync");
        request.onsuccess = () => resolve(typeof request.result?.cursor === "string");
      });
      result[name] = { contacts: await count("contacts"), tasks: await count("tasks"), deals: await count("deals"), cursor };
      db.close();
    }
    return result;
  });
}

async function cacheHoldsNoPage(page: Page) {
  const urls = await page.evaluate(async () => {
    const all: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) all.push(new URL(request.url).pathname);
    return all;
  });
  expect(urls.filter((url) => !url.startsWith("/assets/") && !["/offline", "/field", "/icons/icon-192.png", "/favicon.svg"].includes(url))).toEqual(
    [],
  );
}

test("signing in fills the agent's own copy; signing out leaves no copy and no page in the caches", async ({ page }) => {
  await signIn(page, ACCOUNTS.fieldA);
  await expect.poll(async () => Object.values(await copies(page))[0]?.cursor ?? false, { timeout: 15_000 }).toBe(true);
  const [name, copy] = Object.entries(await copies(page))[0]!;
  expect(name).toMatch(/^porchlight-field-[0-9a-f-]{36}$/);
  // The demo data: hot and warm contacts, tasks due soon, open deals.
  expect(copy.contacts).toBeGreaterThan(0);
  expect(copy.tasks).toBeGreaterThan(0);
  expect(copy.deals).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/auth");
  expect(await copies(page)).toEqual({});
  await cacheHoldsNoPage(page);
});

test("another agent signing in on the same device never finds the first one's copy", async ({ page, context }) => {
  await signIn(page, ACCOUNTS.fieldA);
  await expect.poll(async () => Object.keys(await copies(page)).length, { timeout: 15_000 }).toBe(1);
  const [first] = Object.keys(await copies(page));
  // The first agent's session ends without the sign-out button (a cleared browser, an expired cookie).
  await context.clearCookies();
  await signIn(page, ACCOUNTS.fieldB);
  // The second agent's own copy, and only it: the first one's is gone.
  await expect.poll(async () => Object.keys(await copies(page)), { timeout: 15_000 }).toEqual([`porchlight-field-${ACCOUNTS.fieldB.id}`]);
  expect(first).toBe(`porchlight-field-${ACCOUNTS.fieldA.id}`);
});

test("signed out everywhere from another device, the copy is dropped at the next sync", async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.fieldC);
  await expect.poll(async () => Object.keys(await copies(page)).length, { timeout: 15_000 }).toBe(1);

  const laptopContext = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": "10.79.0.1" } });
  const laptop = await laptopContext.newPage();
  await signIn(laptop, ACCOUNTS.fieldC);
  await laptop.goto("/settings/security");
  await laptop.getByRole("button", { name: "Sign out everywhere" }).click();
  await laptop.getByRole("dialog", { name: "Sign out everywhere?" }).getByRole("button", { name: "Sign out everywhere" }).click();
  await laptop.waitForURL("**/auth");
  await laptopContext.close();

  // The phone comes back online: its sync is refused, and the copy goes.
  await page.evaluate(() => window.dispatchEvent(new Event("online")));
  await expect.poll(async () => Object.keys(await copies(page)).length, { timeout: 15_000 }).toBe(0);
});
