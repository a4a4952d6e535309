import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { ACCOUNTS, expect, expectNoSideways, signIn, test } from "./fixtures";

// Settings → Data: an agent with the demo book of business exports everything as one dated JSON file.

test("an agent exports every category as one dated JSON file, and the export is listed as a request", async ({ page }) => {
  await signIn(page, ACCOUNTS.data);
  await page.goto("/settings?tab=data");
  await expect(page.getByRole("heading", { name: "Export all my data" })).toBeVisible();
  const contacts = page.getByRole("checkbox", { name: "Contacts", exact: true });
  await expect(contacts).toBeChecked();
  const shown = Number.parseInt(await page.locator("#export-contacts-about span").innerText(), 10);
  expect(shown).toBeGreaterThan(0);

  const exportButton = page.getByRole("button", { name: "Export my data" });
  await page.getByRole("button", { name: "Select none" }).click();
  await expect(contacts).not.toBeChecked();
  await expect(exportButton).toBeDisabled();
  await expect(page.getByText("Choose at least one category.")).toBeVisible();
  await page.getByRole("button", { name: "Select all" }).click();
  await expect(exportButton).toBeEnabled();

  const download = page.waitForEvent("download");
  await exportButton.click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^porchlight-export-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync(await file.path(), "utf8"));
  expect(data.export).toMatchObject({ format: "porchlight-export", account: { email: ACCOUNTS.data.email } });
  expect(data.categories.contacts.record_count).toBe(shown);
  expect(data.categories.contacts.records.contacts).toHaveLength(shown);
  expect(data.categories.deals.record_count).toBeGreaterThan(0);
  expect(data.categories.user_profile.records.users[0]).not.toHaveProperty("password_hash");
  await expect(page.getByText("Data Export Complete", { exact: true }).first()).toBeVisible();

  await page.reload();
  const requests = page.getByRole("table", { name: "Your data requests, newest first" });
  await expect(requests.getByRole("row").nth(1)).toContainText("Export");
  await expect(requests.getByRole("row").nth(1)).toContainText("Completed");
  await expectNoSideways(page);
});

test("Settings → Data has no WCAG 2.2 AA violations in light and dark", async ({ page }) => {
  await signIn(page, ACCOUNTS.data);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.goto("/settings?tab=data");
    await expect(page.getByRole("heading", { name: "Export all my data" })).toBeVisible();
    // Reloading the same address restores the scroll of the run before, which puts links under the fixed
    // bottom bar (axe's target-size counts them as covered); every pass scans from the top.
    await page.evaluate(() => window.scrollTo(0, 0));
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await expectNoSideways(page);
    // The deletion's confirmation, open.
    await page.getByRole("button", { name: "Delete my data" }).click();
    await expect(page.getByRole("dialog", { name: "Delete my data" })).toBeVisible();
    const dialog = await new AxeBuilder({ page })
      .include("dialog[open]")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(dialog.violations.map((v) => `${theme} dialog: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  }
});

test("an agent deletes all CRM data after confirming with the password, and keeps the account", async ({ page }) => {
  await signIn(page, ACCOUNTS.dataDelete);
  await page.goto("/settings?tab=data");
  const contactCount = page.locator("#export-contacts-about span");
  await expect(contactCount).not.toHaveText(/^0 records/);
  await page.getByRole("button", { name: "Delete my data" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete my data" });
  await expect(dialog.getByText("Are you sure you want to delete your data? This action cannot be undone.")).toBeVisible();
  await dialog.getByLabel("Password", { exact: true }).fill("not my password");
  await dialog.getByRole("button", { name: "Delete my data" }).click();
  await expect(dialog.getByText("That password is not correct. Nothing was deleted.")).toBeVisible();
  await expect(contactCount).not.toHaveText(/^0 records/);

  await dialog.getByLabel("Password", { exact: true }).fill(ACCOUNTS.dataDelete.password);
  await dialog.getByRole("button", { name: "Delete my data" }).click();
  await expect(page.getByText("Data Deletion Complete", { exact: true }).first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(contactCount).toHaveText(/^0 records\./);
  const latest = page.getByRole("table", { name: "Your data requests, newest first" }).getByRole("row").nth(1);
  await expect(latest).toContainText("Deletion");
  await expect(latest).toContainText("Completed");
  await expect(page.getByRole("button", { name: "Delete my data" })).toBeDisabled();

  // Still signed in, with an empty book.
  await page.goto("/contacts");
  await expect(page.getByRole("heading", { name: "Contacts", level: 1 })).toBeVisible();
  await expect(page.getByText("No contacts yet")).toBeVisible();
});

test("an admin exports an agent's data for a request by e-mail from Operations Center → Compliance", async ({ page }) => {
  // An admin of its own (role admin in accounts.json), so the demo admin's sign-ins stay with operations.spec.
  await signIn(page, ACCOUNTS.dataAdmin);
  await page.goto("/operations?tab=compliance");
  await expect(page.getByRole("heading", { name: "Export an agent's data" })).toBeVisible();
  await page.getByLabel("Account e-mail").fill("nobody@porchlight.test");
  await page.getByRole("button", { name: "Export everything" }).click();
  await expect(page.getByText("There is no account with that e-mail address.").first()).toBeVisible();

  await page.getByLabel("Account e-mail").fill(ACCOUNTS.data.email);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export everything" }).click();
  const data = JSON.parse(readFileSync(await (await download).path(), "utf8"));
  expect(data.export.account.email).toBe(ACCOUNTS.data.email);
  expect(data.categories.contacts.record_count).toBeGreaterThan(0);
  await expect(page.getByText("Data Export Complete", { exact: true }).first()).toBeVisible();
  await page.reload();
  const latest = page.getByRole("table", { name: "The 50 newest data requests of every account" }).getByRole("row").nth(1);
  await expect(latest).toContainText(ACCOUNTS.data.email);
  await expect(latest).toContainText("Access");
  await expectNoSideways(page);
});

test("an agent deletes the account: signed out, sign-in refused, and the e-mailed link keeps it", async ({ page }) => {
  const account = ACCOUNTS.accountDelete;
  await signIn(page, account);
  await page.goto("/settings?tab=data");
  await page.getByRole("link", { name: "Delete my account…" }).click();
  await expect(page.getByRole("heading", { name: "Delete my account", level: 1 })).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectNoSideways(page);

  await page.getByLabel("Password", { exact: true }).fill("not my password");
  await page.getByRole("button", { name: "Delete my account" }).click();
  await expect(page.getByText("That password is not correct. Your account was not deleted.")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByText("Account deleted", { exact: true }).first()).toBeVisible();

  // Signed out, and the password no longer opens the account.
  await page.goto("/dashboard");
  await page.waitForURL("**/auth**");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("This account was deleted and is waiting to be erased.").first()).toBeVisible();

  // The newest e-mail's link (signing in sent a fresh one) keeps it.
  await page.goto("/dev/mailbox");
  const message = page.getByRole("article", { name: "Your Porchlight account will be deleted" }).filter({ hasText: account.email }).first();
  await message.getByRole("link", { name: /\/account\/keep\?token=/ }).click();
  await expect(page.getByRole("heading", { name: "Keep my account", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "Keep my account" }).click();
  await page.waitForURL("**/auth");
  await expect(page.getByText("Account kept", { exact: true }).first()).toBeVisible();
  // The subscription stayed cancelled: signed in, the billing guard offers to start it again.
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === "/pricing" && url.searchParams.get("billing") === "expired");
  await expect(page.getByText("Your subscription has ended").first()).toBeVisible();
});

test("an admin creates a backup, sees it listed with its size, and downloads it as one file", async ({ page }) => {
  // Three durable jobs run one after the other here (a backup, its drill and an agent's restore), each a workflow of a
  // hundred-odd steps that takes seconds locally, where every step runs in the same workerd as the pages: the test's
  // time is theirs plus the page's, beyond the default 30 s (each wait below allows one job 30 s).
  test.setTimeout(120_000);
  await signIn(page, ACCOUNTS.dataAdmin);
  await page.goto("/operations?tab=backup");
  await expect(page.getByRole("heading", { name: "Backups", exact: true })).toBeVisible();
  // The backup runs in the background (a workflow): the button answers at once, the card shows its progress, and the
  // list shows the backup completed when it ends.
  await page.getByRole("button", { name: "Create backup" }).click();
  // (The message shows once the page has reloaded its data, which waits while the job's first steps hold workerd.)
  await expect(page.getByText("Backup started", { exact: true }).first()).toBeVisible({ timeout: 30_000 });
  const list = page.getByRole("table", { name: "Backups, newest first" });
  const newest = list.getByRole("row").nth(1);
  await expect(newest).toContainText("Manual");
  await expect(newest).toContainText("Completed", { timeout: 30_000 });
  await expect(page.getByRole("region", { name: "Backups" }).getByRole("progressbar")).toHaveCount(0);
  await expect(newest).toContainText(/\d+(\.\d)? (KB|MB)/);
  await expect(page.getByText(/\d+ objects in R2/)).toBeVisible();

  const download = page.waitForEvent("download");
  await newest.getByRole("link", { name: /^Download/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^porchlight-backup-\d{4}-\d{2}-\d{2}-[\da-f]{8}\.ndjson\.gz$/);
  const lines = gunzipSync(readFileSync(await file.path()))
    .toString("utf8")
    .trim()
    .split("\n");
  const { manifest } = JSON.parse(lines[0]!);
  expect(manifest.format).toBe("porchlight-backup");
  const total = manifest.tables.reduce((sum: number, t: { rows: number }) => sum + t.rows, 0);
  expect(lines).toHaveLength(1 + total);
  expect(lines.some((line) => line.includes(ACCOUNTS.data.email))).toBe(true);
  await expect(page.getByText("Download Started", { exact: true }).first()).toBeVisible();

  // The restore drill loads that backup into the scratch database and checks every table. It runs in the background
  // (a workflow): the button answers at once, and the card shows the drill's progress, then its result.
  await page.getByRole("button", { name: "Drill the newest backup" }).click();
  await expect(page.getByText("Drill started", { exact: true }).first()).toBeVisible();
  const drillCard = page.getByRole("region", { name: "Restore drill" });
  await expect(drillCard.getByRole("status").filter({ hasText: /^Last drill: passed, .+, in \d+\.\d s$/ })).toBeVisible({ timeout: 30_000 });
  await expect(drillCard.getByRole("progressbar")).toHaveCount(0);
  await expect(drillCard.getByRole("button", { name: "Drill the newest backup" })).toBeEnabled();

  // Restore one agent's account from that backup: confirmed with the spec's text, a safety copy taken first.
  await list
    .getByRole("row")
    .nth(1)
    .getByRole("button", { name: /^Restore/ })
    .click();
  const dialog = page.getByRole("dialog", { name: "Restore an agent's account" });
  await expect(dialog.getByText("Are you sure you want to restore this backup? This will overwrite current data.")).toBeVisible();
  const axeDialog = await new AxeBuilder({ page })
    .include("dialog[open]")
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  expect(axeDialog.violations.map((v) => v.id)).toEqual([]);
  await dialog.getByLabel("Agent's e-mail").fill("nobody-at-all@example.com");
  await dialog.getByRole("button", { name: "Restore", exact: true }).click();
  await expect(dialog.getByText("No account has that e-mail address.")).toBeVisible();
  await dialog.getByLabel("Agent's e-mail").fill(ACCOUNTS.data.email);
  await dialog.getByRole("button", { name: "Restore", exact: true }).click();
  // It runs in the background too (a workflow): the button answers at once, and the list shows the restore's result.
  await expect(page.getByText("Restore started", { exact: true }).first()).toBeVisible();
  await expect(dialog).toBeHidden();
  const restores = page.getByRole("region", { name: "Agent restores" });
  await expect(restores.getByRole("listitem").first()).toContainText(/rows? restored from/, { timeout: 30_000 });
  await expect(restores.getByRole("listitem").first()).toContainText(ACCOUNTS.data.email);
  await expect(restores.getByRole("progressbar")).toHaveCount(0);
  await expect(list.getByRole("row").nth(1)).toContainText("Safety copy");
  await expect(list.getByRole("row").nth(1)).toContainText(ACCOUNTS.data.email);

  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectNoSideways(page);
});

// The 30-day trash: a contact deleted from its profile waits in Settings → Trash and comes back.
test("an agent deletes a contact and restores it from Settings → Trash; the trash page passes axe in light and dark", async ({ page }) => {
  await signIn(page, ACCOUNTS.trash);
  await page.goto("/contacts?sort=name");
  const first = page
    .locator("main a[href^='/contacts/']")
    .filter({ hasNotText: /import|duplicates|export/i })
    .first();
  const href = await first.getAttribute("href");
  expect(href).toMatch(/^\/contacts\/[^/?]+$/);
  await page.goto(href!);
  const name = (await page.getByRole("heading", { level: 1 }).innerText()).trim();
  expect(name.length).toBeGreaterThan(0);

  await page.getByRole("button", { name: "Delete contact…" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.waitForURL("**/contacts");
  await expect(page.getByText("Contact deleted", { exact: true }).first()).toBeVisible();
  expect((await page.request.get(href!)).status()).toBe(404);

  await page.goto("/settings?tab=trash");
  await expect(page.getByRole("link", { name: "Trash" })).toHaveAttribute("aria-current", "page");
  const list = page.getByRole("list", { name: "Deleted items" });
  await expect(list.getByText(name, { exact: true })).toBeVisible();
  await expect(list.getByText(/Contact · deleted .* · Deleted for good in 30 days/).first()).toBeVisible();
  await expectNoSideways(page);

  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    await expect(list.getByText(name, { exact: true })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 0));
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await page.getByRole("button", { name: "Empty trash" }).click();
    const dialog = page.getByRole("dialog", { name: "Empty trash" });
    await expect(dialog.getByText(/Delete the \d+ items? in the trash for good\? This cannot be undone\./)).toBeVisible();
    const inDialog = await new AxeBuilder({ page })
      .include("dialog[open]")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(inDialog.violations.map((v) => `${theme} dialog: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  }

  // Deleting for good asks first; cancelled, the item stays.
  await list.getByRole("checkbox", { name }).check();
  await page.getByRole("button", { name: "Delete selected for good" }).click();
  const forGood = page.getByRole("dialog", { name: "Delete for good" });
  await expect(forGood.getByText("Delete the 1 selected item for good? This cannot be undone.")).toBeVisible();
  await forGood.getByRole("button", { name: "Cancel" }).click();
  await expect(list.getByText(name, { exact: true })).toBeVisible();

  await list.getByRole("button", { name: `Restore ${name}` }).click();
  await expect(page.getByText("1 contact restored", { exact: true }).first()).toBeVisible();
  await expect(list.getByText(name, { exact: true })).toBeHidden();
  await page.goto(`/contacts?search=${encodeURIComponent(name)}`);
  await expect(page.getByRole("main").getByRole("link", { name, exact: true }).first()).toHaveAttribute("href", href!);
  expect((await page.request.get(href!)).status()).toBe(200);
});

test("a deal deleted from its page can be undone from the message that follows", async ({ page }) => {
  await signIn(page, ACCOUNTS.trash);
  await page.goto("/pipeline?view=list");
  const first = page.locator("main a[href^='/deals/']").first();
  const href = await first.getAttribute("href");
  expect(href).toMatch(/^\/deals\/[^/?]+$/);
  await page.goto(href!);
  await page.getByRole("button", { name: "Delete deal…" }).click();
  await expect(page.getByText(/It goes to the trash with its activities and stage history for 30 days/)).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.waitForURL("**/pipeline");
  await expect(page.getByText("Deal deleted", { exact: true }).first()).toBeVisible();
  expect((await page.request.get(href!)).status()).toBe(404);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("1 deal restored", { exact: true }).first()).toBeVisible();
  expect((await page.request.get(href!)).status()).toBe(200);
});
