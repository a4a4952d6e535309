import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "@playwright/test";
import { ACCOUNTS, expect, nyDay, signIn, test, type Account } from "./fixtures";

// With the service worker on: after a sync the agent goes offline, reads and searches the copy kept on
// the phone, makes changes that wait in a queue, and comes back online; each change reaches the server once, a
// deal moved meanwhile on another device keeps the server's stage, and the agent is told.

interface SyncCopy {
  contacts: { upsert: { id: string; name: string; activities: { outcome: string | null }[] }[] };
  tasks: { upsert: { id: string; title: string }[] };
  deals: { all: { id: string; title: string; stage: string }[] };
}

/** The agent's whole copy as the server has it now (GET /api/sync without a cursor). */
async function serverCopy(page: Page): Promise<SyncCopy> {
  const response = await page.request.get("/api/sync");
  expect(response.status()).toBe(200);
  return (await response.json()) as SyncCopy;
}

/** Signs in, waits for the copy and for the worker to hold the field view, then reloads under the worker. */
async function signInWithCopy(page: Page, account: Account) {
  await signIn(page, account);
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(async () => Boolean(await caches.match("/field"))), { timeout: 15_000 }).toBe(true);
  await expect
    .poll(() => page.evaluate(async () => (await indexedDB.databases()).some((db) => db.name?.startsWith("porchlight-field-"))), { timeout: 15_000 })
    .toBe(true);
  await page.reload({ waitUntil: "load" });
  expect(await page.evaluate(() => navigator.serviceWorker.controller?.state)).toBe("activated");
  // The copy has its cursor (a whole sync landed).
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const name = (await indexedDB.databases()).find((db) => db.name?.startsWith("porchlight-field-"))?.name;
          if (!name) return false;
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          try {
            if (!db.objectStoreNames.contains("meta")) return false;
            return await new Promise<boolean>((resolve) => {
              const request = db.transaction("meta").objectStore("meta").get("sync");
              request.onsuccess = () => resolve(typeof request.result?.cursor === "string");
              request.onerror = () => resolve(false);
            });
          } finally {
            db.close();
          }
        }),
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** Another device of the same agent (its own browser context and address). */
async function otherDevice(context: BrowserContext, account: Account, ip: string) {
  const browser = context.browser()!;
  const laptopContext = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": ip } });
  const laptop = await laptopContext.newPage();
  await signIn(laptop, account);
  return { laptop, close: () => laptopContext.close() };
}

test("offline after a sync: read, search, queue five kinds of change, reconnect; each lands once and a conflict is explained", async ({
  page,
  context,
}) => {
  test.slow();
  await signInWithCopy(page, ACCOUNTS.fieldD);
  const before = await serverCopy(page);
  const liu = before.deals.all.find((deal) => deal.title === "Liu Tarrytown purchase")!;
  expect(liu.stage).toBe("showing");

  // No signal. An app page opens the copy on the phone, on the same screen.
  await context.setOffline(true);
  await page.goto("/contacts");
  await expect(page).toHaveURL(/\/field#\/contacts$/);
  await expect(page.getByRole("status").filter({ hasText: /^Offline — showing what was saved at \d{1,2}:\d{2} [AP]M/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();

  // Search over the copy.
  await page.getByLabel("Search the contacts saved on this phone").fill("grace");
  await expect(page.getByRole("link", { name: "Grace Liu", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Priya Lindqvist", exact: true })).toHaveCount(0);
  await page.getByLabel("Search the contacts saved on this phone").fill("mueller");
  await expect(page.getByRole("link", { name: "Priya Lindqvist", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Grace Liu", exact: true })).toHaveCount(0);

  // A profile: tap-to-call and tap-to-text, and the saved timeline.
  await page.getByLabel("Search the contacts saved on this phone").fill("grace");
  await page.getByRole("link", { name: "Grace Liu", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Grace Liu", level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Call / })).toHaveAttribute("href", /^tel:/);
  await expect(page.getByRole("link", { name: "Text" })).toHaveAttribute("href", /^sms:/);
  await expect(page.getByText("Loved the second home")).toBeVisible();

  // Log a call.
  const logForm = page.getByRole("form", { name: "Log an activity with Grace Liu" });
  await logForm.getByLabel("Outcome").fill("Offline call: wants a second showing");
  await logForm.getByRole("button", { name: "Log it" }).click();
  await expect(logForm.getByRole("status")).toHaveText("Saved on this phone. It will be sent when you are back online.");
  await expect(page.getByRole("listitem").filter({ hasText: "Offline call: wants a second showing" }).getByText("Waiting to send")).toBeVisible();

  // A wrong field is refused with the online form's message, and nothing is queued.
  const nav = page.getByRole("navigation", { name: "Saved copy" });
  await nav.getByRole("link", { name: "Contacts" }).click();
  await page.getByRole("link", { name: "Add contact" }).click();
  const addForm = page.getByRole("form", { name: "Add contact" });
  await addForm.getByRole("button", { name: "Save contact" }).click();
  await expect(addForm.getByText("Name is required", { exact: false })).toBeVisible();
  await addForm.getByLabel("Name").fill("Rowan Offline-Lead");
  await addForm.getByRole("button", { name: "Save contact" }).click();
  await expect(addForm.getByText("Phone or email is required")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "1 change waiting to send" })).toBeVisible();
  await addForm.getByLabel("Phone").fill("(512) 555-0199");
  await addForm.getByRole("button", { name: "Save contact" }).click();
  await expect(page.getByRole("heading", { name: "Rowan Offline-Lead", level: 1 })).toBeVisible();
  await expect(page.getByText("Added — waiting to send")).toBeVisible();
  // A task for the contact made offline names it by the id the server will give it.
  const taskForm = page.getByRole("form", { name: "Add a task for Rowan Offline-Lead" });
  await taskForm.getByLabel("Task").fill("Send Rowan the open-house list");
  await taskForm.getByRole("button", { name: "Add task" }).click();
  await expect(taskForm.getByRole("status")).toHaveText(/Saved on this phone/);

  // Complete a task. Its time reads as the agent reads times (this account keeps the 12-hour clock).
  await nav.getByRole("link", { name: "Tasks" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Call Priya about the inspection window" })).toContainText("at 3:00 PM");
  await page.getByRole("button", { name: "Complete Call Priya about the inspection window" }).click();
  await expect(
    page.getByRole("listitem").filter({ hasText: "Call Priya about the inspection window" }).getByText("Done — waiting to send"),
  ).toBeVisible();

  // Move two deals: one nobody else touched, and one that another device moves meanwhile.
  await nav.getByRole("link", { name: "Pipeline" }).click();
  const circle = page.getByRole("form", { name: "Move Circle C relocation" });
  await circle.getByLabel("Move to").selectOption({ label: "Offer" });
  await circle.getByRole("button", { name: "Move" }).click();
  const liuForm = page.getByRole("form", { name: "Move Liu Tarrytown purchase" });
  await liuForm.getByLabel("Move to").selectOption({ label: "Offer" });
  await liuForm.getByRole("button", { name: "Move" }).click();
  await expect(page.getByText("Moved here — waiting to send")).toHaveCount(2);
  await expect(page.getByRole("status").filter({ hasText: "6 changes waiting to send" })).toBeVisible();

  // Meanwhile, on the laptop, the Liu deal goes under contract.
  const { laptop, close } = await otherDevice(context, ACCOUNTS.fieldD, "10.79.0.2");
  const moved = await laptop.request.post("/api/sync/changes", {
    data: {
      changes: [{ key: "laptop-move-liu-0001", type: "move_deal", dealId: liu.id, fromStage: "showing", toStage: "under_contract", note: null }],
    },
  });
  expect((await moved.json()).results[0].status).toBe("applied");
  await close();

  // The last change: a task added on the Tasks screen, which stays open while the queue goes.
  await nav.getByRole("link", { name: "Tasks" }).click();
  const lastTask = page.getByRole("form", { name: "Add a task" });
  await lastTask.getByLabel("Task").fill("Book the Circle C movers");
  await lastTask.getByRole("button", { name: "Add task" }).click();
  await expect(lastTask.getByRole("status")).toHaveText("Saved on this phone. It will be sent when you are back online.");

  // Back online: the queue goes, in order, and the copy refreshes.
  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: /^Back online/ })).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "waiting to send" })).toHaveCount(0, { timeout: 15_000 });
  // It says they went, and the line under a change no longer says it will be sent.
  await expect(page.getByRole("status").filter({ hasText: /^Back online/ })).toContainText("7 changes sent");
  await expect(lastTask.getByRole("status")).toHaveText("Sent.");
  await expect(page.getByText("It will be sent when you are back online")).toHaveCount(0);
  await nav.getByRole("link", { name: "Pipeline" }).click();
  const answers = page.getByRole("region", { name: "What happened to changes made offline" });
  await expect(answers).toContainText(
    "Liu Tarrytown purchase moved to Offer: The deal had moved to Under Contract on another device, so it stays there. Your move to Offer is saved on the deal's timeline.",
  );
  await expect(page.getByText("Moved here — waiting to send")).toHaveCount(0);

  // On the server, each change exactly once.
  const after = await serverCopy(page);
  const rowans = after.contacts.upsert.filter((c) => c.name === "Rowan Offline-Lead");
  expect(rowans).toHaveLength(1);
  const grace = after.contacts.upsert.find((c) => c.name === "Grace Liu")!;
  expect(grace.activities.filter((a) => a.outcome === "Offline call: wants a second showing")).toHaveLength(1);
  expect(after.tasks.upsert.filter((t) => t.title === "Send Rowan the open-house list")).toHaveLength(1);
  expect(after.tasks.upsert.filter((t) => t.title === "Book the Circle C movers")).toHaveLength(1);
  expect(after.tasks.upsert.some((t) => t.title === "Call Priya about the inspection window")).toBe(false);
  expect(after.deals.all.find((d) => d.title === "Circle C relocation")?.stage).toBe("offer");
  expect(after.deals.all.find((d) => d.title === "Liu Tarrytown purchase")?.stage).toBe("under_contract");
  const search = await page.request.get(`/api/search?scope=contacts&q=${encodeURIComponent("Rowan Offline-Lead")}`);
  expect(JSON.stringify(await search.json()).match(/Rowan Offline-Lead/g)).toHaveLength(1);

  // The agent has read it; the full app opens where they were.
  await answers.getByRole("button", { name: "Got it" }).click();
  await expect(answers).toHaveCount(0);
  await page.getByRole("link", { name: "Open the full app" }).click();
  await expect(page).toHaveURL(/\/pipeline$/);
  await expect(page.getByRole("heading", { name: "Pipeline", level: 1 })).toBeVisible();
});

test("Background Sync: a change made offline is sent by the service worker after Porchlight is closed", async ({ page, context }) => {
  test.slow();
  await signInWithCopy(page, ACCOUNTS.fieldF);
  const origin = new URL(page.url()).origin;

  await context.setOffline(true);
  await page.goto("/field#/contacts");
  await page.getByLabel("Search the contacts saved on this phone").fill("grace");
  await page.getByRole("link", { name: "Grace Liu", exact: true }).click();
  const logForm = page.getByRole("form", { name: "Log an activity with Grace Liu" });
  await logForm.getByLabel("Outcome").fill("Sent by the service worker");
  await logForm.getByRole("button", { name: "Log it" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Sent by the service worker" }).getByText("Waiting to send")).toBeVisible();
  // The change asked the worker to send it when the connection is back.
  const worker = context.serviceWorkers().find((sw) => sw.url().startsWith(origin))!;
  await expect
    .poll(() => worker.evaluate(() => (self as unknown as { registration: { sync: { getTags(): Promise<string[]> } } }).registration.sync.getTags()))
    .toContain("porchlight-send-queue");

  // Porchlight is closed (only a blank tab is left), then the signal returns and the browser fires the sync.
  const blank = await context.newPage();
  await page.close();
  await context.setOffline(false);
  const cdp = await context.newCDPSession(blank);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on(
      "ServiceWorker.workerRegistrationUpdated",
      ({ registrations }: { registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] }) => {
        const ours = registrations.find((registration) => registration.scopeURL.startsWith(origin) && !registration.isDeleted);
        if (ours) resolve(ours.registrationId);
      },
    );
  });
  await cdp.send("ServiceWorker.enable");
  await cdp.send("ServiceWorker.dispatchSyncEvent", {
    origin,
    registrationId: await registrationId,
    tag: "porchlight-send-queue",
    lastChance: false,
  });

  // The call is on the server, once, and the queue on the phone is empty.
  await expect
    .poll(async () => {
      const response = await context.request.get("/api/sync");
      const copy = (await response.json()) as SyncCopy;
      return (
        copy.contacts.upsert.find((c) => c.name === "Grace Liu")?.activities.filter((a) => a.outcome === "Sent by the service worker").length ?? 0
      );
    })
    .toBe(1);
  const waiting = await worker.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        void indexedDB.databases().then((dbs) => {
          const open = indexedDB.open(dbs.find((db) => db.name?.startsWith("porchlight-field-"))!.name!);
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction("queue").objectStore("queue").count();
            count.onsuccess = () => {
              resolve(count.result);
              open.result.close();
            };
          };
        });
      }),
  );
  expect(waiting).toBe(0);
});

test("pages that need the server say so offline; the app's own links lead into the saved copy", async ({ page, context }) => {
  await signInWithCopy(page, ACCOUNTS.fieldE);
  await context.setOffline(true);
  // The open app loses its signal: it says so and offers the copy.
  await expect(page.getByRole("status").filter({ hasText: "You are offline." })).toBeVisible();
  await page.goto("/reports");
  await expect(page).toHaveURL(/\/field#\/reports$/);
  await expect(page.getByRole("heading", { name: "Reports needs a connection" })).toBeVisible();
  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: "Settings needs a connection" })).toBeVisible();
  await page.getByRole("link", { name: "Go to the dashboard" }).click();
  await expect(page.getByRole("heading", { name: "Today", level: 1 })).toBeVisible();
  await expect(
    page
      .getByRole("listitem")
      .filter({ hasText: "Confirm appraisal date with the lender" })
      .getByText(/^Overdue/),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Hot leads" }).getByRole("link", { name: "The Okafor family", exact: true })).toBeVisible();

  // Every screen of the field view, in light and dark, with no WCAG 2.2 AA violation.
  test.setTimeout(90_000);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const hash of ["#/dashboard", "#/contacts", "#/tasks", "#/pipeline", "#/add-contact", "#/reports"]) {
      await page.goto(`/field${hash}`);
      await expect(page.getByRole("status").filter({ hasText: /^Offline/ })).toBeVisible();
      await expect(page.locator("main h1")).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(
        results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
        `${hash} (${theme})`,
      ).toEqual([]);
    }
    await page.goto("/field#/contacts");
    await page.getByRole("link", { name: "The Okafor family", exact: true }).click();
    await expect(page.getByRole("heading", { name: "The Okafor family", level: 1 })).toBeVisible();
    const profile = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(
      profile.violations.map((v) => v.id),
      `profile (${theme})`,
    ).toEqual([]);
  }
  await context.setOffline(false);
});

test("offline, every tab of the app opens that screen of the saved copy, with its tab bar, never an error page", async ({ page, context }) => {
  test.slow();
  // Anything that ever shows "Something went wrong" in this tab is remembered across its page loads.
  await context.addInitScript(() => {
    const check = () => {
      if ([...document.querySelectorAll("h1")].some((h1) => h1.textContent === "Something went wrong"))
        sessionStorage.setItem("e2e-error-page-seen", location.href);
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await signInWithCopy(page, ACCOUNTS.fieldNav);
  // The tab bar's destinations, and what the saved copy shows for each.
  const tabs = [
    { name: "Dashboard", path: "/dashboard", heading: "Today" },
    { name: "Contacts", path: "/contacts", heading: "Contacts" },
    { name: "Pipeline", path: "/pipeline", heading: "Pipeline" },
    { name: "Tasks", path: "/tasks", heading: "Tasks" },
    { name: "Reports", path: "/reports", heading: "Reports needs a connection" },
    { name: "AI Assistant", path: "/ai-assistant", heading: "The AI Assistant needs a connection" },
    { name: "Settings", path: "/settings", heading: "Settings needs a connection" },
  ];
  const main = page.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link")).toHaveText(tabs.map((tab) => tab.name));
  const savedCopyTabs = page.getByRole("navigation", { name: "Saved copy" });
  // From every tab, opened with a connection, to the next one (so every tab is also a destination) with none.
  for (const [index, from] of tabs.entries()) {
    const to = tabs[(index + 1) % tabs.length]!;
    await context.setOffline(false);
    await page.goto(from.path);
    await expect(main.getByRole("link", { name: from.name })).toHaveAttribute("aria-current", "page");
    await context.setOffline(true);
    await main.getByRole("link", { name: to.name }).click();
    await expect(page, `${from.name} → ${to.name}`).toHaveURL(new RegExp(`/field#${to.path}$`));
    await expect(page.getByRole("heading", { name: to.heading, level: 1 })).toBeVisible();
    await expect(savedCopyTabs).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: /^Offline/ })).toBeVisible();
    await expect(savedCopyTabs.getByRole("link")).toHaveText(["Dashboard", "Contacts", "Pipeline", "Tasks"]);
    if (["/dashboard", "/contacts", "/pipeline", "/tasks"].includes(to.path))
      await expect(savedCopyTabs.getByRole("link", { name: to.name })).toHaveAttribute("aria-current", "page");
  }
  // A link inside a page (a contact in the list) opens that contact's saved profile.
  await context.setOffline(false);
  await page.goto("/contacts");
  await context.setOffline(true);
  await page.getByRole("main").getByRole("link", { name: "Grace Liu", exact: true }).first().click();
  await expect(page).toHaveURL(/\/field#\/contacts\/[A-Za-z0-9-]+$/);
  await expect(page.getByRole("heading", { name: "Grace Liu", level: 1 })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem("e2e-error-page-seen"))).toBeNull();
  await context.setOffline(false);
});

test("offline, a deal moved to Closed Won asks the day it closed, can be undone while it waits, and reaches the server with that day", async ({
  page,
  context,
}) => {
  test.slow();
  await signInWithCopy(page, ACCOUNTS.fieldClose);
  const okafor = (await serverCopy(page)).deals.all.find((deal) => deal.title === "Okafor Westlake purchase")!;
  expect(okafor.stage).toBe("under_contract");
  await context.setOffline(true);
  await page.goto("/field#/pipeline");
  const form = page.getByRole("form", { name: "Move Okafor Westlake purchase" });
  await form.getByLabel("Move to").selectOption({ label: "Closed Won" });
  await expect(form.getByLabel("Closed on")).toHaveValue(nyDay(0));
  await form.getByLabel("Closed on").fill(nyDay(-1));
  await form.getByRole("button", { name: "Move" }).click();
  const day = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" }).format(
    new Date(`${nyDay(-1)}T12:00:00Z`),
  );
  await expect(page.getByText(`Moved here, closed ${day} — waiting to send`)).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "1 change waiting to send" })).toBeVisible();
  // Undo while it waits: the move leaves the queue.
  await page.getByRole("button", { name: "Undo the move of Okafor Westlake purchase" }).click();
  await expect(page.getByText(/waiting to send/)).toHaveCount(0);
  await expect(page.getByRole("region", { name: /^Under Contract/ }).getByText("Okafor Westlake purchase")).toBeVisible();
  // Again, for good.
  await form.getByLabel("Move to").selectOption({ label: "Closed Won" });
  await form.getByLabel("Closed on").fill(nyDay(-1));
  await form.getByRole("button", { name: "Move" }).click();
  await expect(page.getByText(`Moved here, closed ${day} — waiting to send`)).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByRole("status").filter({ hasText: "waiting to send" })).toHaveCount(0, { timeout: 15_000 });
  await page.goto(`/deals/${okafor.id}`);
  await expect(page.getByRole("heading", { name: "Okafor Westlake purchase", level: 1 })).toBeVisible();
  await expect(page.locator("header").getByText("Closed Won")).toBeVisible();
  await expect(page.getByRole("region", { name: "Details" })).toContainText(day);
});
