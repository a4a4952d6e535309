import type { Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, signIn, test } from "./fixtures";

// What a new agent tripped over, checked at 375 and 1280 px.

const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

async function post(page: Page, path: string, form: Record<string, string>) {
  const response = await page.request.post(path, { form, headers: { Origin: new URL(page.url()).origin } });
  expect(response.status(), `${path} ${JSON.stringify(form)}`).toBe(200);
}

/** The element is inside the window and is what a tap at its middle reaches (nothing clips or covers it). */
async function expectReachable(locator: Locator) {
  await expect(locator).toBeVisible();
  const reached = await locator.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= window.innerHeight && r.right <= window.innerWidth;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return inside && !!hit && el.contains(hit);
  });
  expect(reached, (await locator.textContent()) ?? "").toBe(true);
}

test("the card's Move menu shows every stage on screen, and a lost deal earns nothing on the board, the list and its page", async ({ page }) => {
  await signIn(page, ACCOUNTS.tripsPipeline);
  await post(page, "/pipeline?index", { intent: "create", title: "Kilo", stage: "lead", dealValueCents: "400000" });
  await post(page, "/pipeline?index", { intent: "create", title: "Lima", stage: "lead", dealValueCents: "300000" });
  const stages = ["Lead", "Qualified", "Showing", "Offer", "Under Contract", "Closed Won", "Closed Lost"];
  const column = (stage: string) => page.getByRole("list", { name: `${stage} deals` });

  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.goto("/pipeline");
    await page.getByRole("button", { name: "Actions for Kilo" }).click();
    const menu = page.getByRole("dialog", { name: "Move Kilo" });
    for (const stage of stages) await expectReachable(menu.getByRole("button", { name: new RegExp(`^${stage}`) }));
    await expect(menu.getByRole("button", { name: "Lead Current stage" })).toBeDisabled();
    await expectReachable(menu.getByRole("link", { name: "Open deal" }));
    await page.screenshot({ path: `test-results/screenshots/move-menu-${size.width}.png` });
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
  }

  // On a phone, to the far end of the board: Under Contract.
  await page.setViewportSize(PHONE);
  await page.getByRole("button", { name: "Actions for Kilo" }).click();
  const moved = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/pipeline") && r.status() === 200);
  await page.getByRole("dialog", { name: "Move Kilo" }).getByRole("button", { name: "Under Contract" }).click();
  await moved;
  await expect(column("Under Contract").getByRole("article", { name: "Kilo" })).toBeVisible();
  // Focus follows the card to its new column.
  await expect(column("Under Contract").getByRole("button", { name: "Actions for Kilo" })).toBeFocused();

  // Lima is lost: the reason first, then no agent net anywhere.
  await page.getByRole("button", { name: "Actions for Lima" }).click();
  await page.getByRole("dialog", { name: "Move Lima" }).getByRole("button", { name: "Closed Lost" }).click();
  const ask = page.getByRole("dialog", { name: "Move Lima to Closed Lost" });
  await ask.getByLabel("Why was it lost?").fill("Bought elsewhere");
  const lost = page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/pipeline") && r.status() === 200);
  await ask.getByRole("button", { name: "Mark as lost" }).click();
  await lost;
  await page.reload();
  const lostCard = column("Closed Lost").getByRole("article", { name: "Lima" });
  await expect(lostCard).toContainText("Lost: no commission");
  await expect(lostCard).not.toContainText("Agent net");
  // The default plan: 3 % of $400,000.
  await expect(column("Under Contract").getByRole("article", { name: "Kilo" })).toContainText("Agent net $12,000.00");

  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    await page.goto("/pipeline?view=list");
    const net = (title: string) =>
      page
        .getByRole("row")
        .filter({ has: page.getByRole("link", { name: title }) })
        .getByRole("cell")
        .last();
    await expect(net("Lima")).toHaveText("—None, the deal was lost");
    await expect(net("Lima")).not.toContainText("$");
    await expect(net("Kilo")).toHaveText("$12,000.00");
  }
  await page.getByRole("link", { name: "Lima" }).click();
  await expect(page.getByRole("heading", { name: "What it would have paid you" })).toBeVisible();
  await expect(page.getByText("The deal was lost, so it paid you nothing.")).toBeVisible();
});

test("on a phone the contact list is cards with call and text, 44 px targets and a header that fits; the desktop keeps the table; an explicit choice holds", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.tripsContacts);
  await post(page, "/contacts?index", {
    intent: "create",
    name: "Mira Phone",
    phone: "(555) 010-4400",
    email: "mira@example.com",
    status: "hot",
    location: "Lake Town",
  });
  await post(page, "/contacts?index", { intent: "create", name: "Noor Mail", email: "noor@example.com" });
  await page.setViewportSize(PHONE);
  await page.goto("/contacts");
  const main = page.getByRole("main");
  await expect(page.getByRole("table")).toHaveCount(0);
  const mira = main.getByRole("listitem").filter({ has: page.getByRole("link", { name: "Mira Phone", exact: true }) });
  await expect(mira.getByRole("link", { name: "Call Mira Phone" })).toHaveAttribute("href", "tel:(555) 010-4400");
  await expect(mira.getByRole("link", { name: "Text Mira Phone" })).toHaveAttribute("href", "sms:(555) 010-4400");
  await expect(mira.getByRole("link", { name: "E-mail Mira Phone" })).toHaveAttribute("href", "mailto:mira@example.com");
  await expect(main.getByRole("link", { name: "Call Noor Mail" })).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Text Noor Mail" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cards" })).toHaveAttribute("aria-pressed", "true");
  await expectNoSideways(page);

  // Every control on a card, and the select-all, is at least 44 x 44 px: checkboxes through their label.
  const cards = main.getByRole("list").filter({ has: page.getByRole("link", { name: "Mira Phone", exact: true }) });
  const targets = await cards.evaluate((list) => {
    const boxes = [...list.parentElement!.querySelectorAll("a[href], button, label:has(input[type=checkbox])")];
    return boxes.map((el) => ({ name: el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "", ...el.getBoundingClientRect().toJSON() }));
  });
  expect(targets.length).toBeGreaterThanOrEqual(9);
  for (const target of targets) {
    expect(target.height, `${target.name} height`).toBeGreaterThanOrEqual(44);
    expect(target.width, `${target.name} width`).toBeGreaterThanOrEqual(44);
  }
  await page.getByRole("checkbox", { name: "Select Mira Phone" }).check();
  await expect(page.getByRole("region", { name: "Selected contacts" })).toContainText("1 selected");
  await page.getByRole("checkbox", { name: "Select Mira Phone" }).uncheck();

  // The header: Add contact and More on one row; the rest inside More.
  const add = page.getByRole("button", { name: "Add contact", exact: true });
  const more = page.getByRole("button", { name: "More", exact: true });
  expect(Math.round((await add.boundingBox())!.y)).toBe(Math.round((await more.boundingBox())!.y));
  await expect(page.getByRole("link", { name: "Import" })).toHaveCount(0);
  await more.click();
  await expect(more).toHaveAttribute("aria-expanded", "true");
  for (const item of ["Import", "Find duplicates", "Export CSV"]) await expectReachable(page.getByRole("link", { name: item }));
  await expectReachable(page.getByRole("button", { name: "Guide" }));
  await page.screenshot({ path: "test-results/screenshots/contacts-more-375.png" });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("link", { name: "Import" })).toHaveCount(0);
  await expect(more).toBeFocused();
  await more.click();
  await page.getByRole("button", { name: "Guide" }).click();
  await expect(page.getByRole("dialog", { name: /contacts/i })).toBeVisible();
  await page.keyboard.press("Escape");
  await page.screenshot({ path: "test-results/screenshots/contacts-375.png", fullPage: true });

  // The desktop keeps the table, and every action in the header.
  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole("table")).toBeVisible();
  await expect(page.getByRole("link", { name: "Import" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
  await expect(more).toBeHidden();
  await expect(page.getByRole("button", { name: "Table" })).toHaveAttribute("aria-pressed", "true");
  await page.screenshot({ path: "test-results/screenshots/contacts-1280.png", fullPage: true });

  // An explicit choice holds on every screen: cards on the desktop...
  const saved = () => page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("/contacts") && r.status() === 200);
  let save = saved();
  await page.getByRole("button", { name: "Cards" }).click();
  await save;
  await expect(page.getByRole("button", { name: "Cards" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(page.getByRole("table")).toHaveCount(0);
  await expect(main.getByRole("link", { name: "Call Mira Phone" })).toBeVisible();
  // ...and the table on a phone, when the agent asks for it there.
  await page.setViewportSize(PHONE);
  save = saved();
  await page.getByRole("button", { name: "Table" }).click();
  await save;
  await expect(page.getByRole("button", { name: "Table" })).toHaveAttribute("aria-pressed", "true");
  await page.reload();
  await expect(page.getByRole("table")).toBeVisible();
  await page.setViewportSize(DESKTOP);
  await expect(page.getByRole("table")).toBeVisible();
});

test("a contact's profile reads as a page, edits behind Edit, warns before unsaved changes are lost, and its delete can be undone", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.tripsProfile);
  const name = "Orla Profile";
  await post(page, "/contacts?index", {
    intent: "create",
    name,
    phone: "(555) 010-5500",
    email: "orla@example.com",
    company: "Harbor Homes",
    notes: "Wants a garden.\nNo HOA.",
  });
  await page.setViewportSize(PHONE);
  await page.goto("/contacts");
  await page.getByRole("main").getByRole("link", { name, exact: true }).click();
  await page.waitForURL(/\/contacts\/[^/?]+$/);
  const profile = page.url();

  // Read first: text, no form.
  const details = page.getByRole("region", { name: "Details" });
  await expect(details).toContainText("Harbor Homes");
  await expect(details).toContainText("Wants a garden.");
  await expect(details.getByRole("link", { name: "(555) 010-5500" })).toHaveAttribute("href", "tel:(555) 010-5500");
  await expect(page.getByRole("form", { name: "Contact details" })).toHaveCount(0);
  await page.screenshot({ path: "test-results/screenshots/profile-375.png", fullPage: true });

  // Edit, change, try to leave: the page asks; Keep editing stays with the change.
  await details.getByRole("link", { name: "Edit details" }).click();
  const form = page.getByRole("form", { name: "Contact details" });
  await expect(form.getByLabel("Name")).toBeFocused();
  await form.getByLabel("Company").fill("Bayside Realty");
  expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(true);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contacts" }).click();
  const leave = page.getByRole("dialog", { name: "Discard your changes?" });
  await expect(leave).toBeVisible();
  await leave.getByRole("button", { name: "Keep editing" }).click();
  await expect(leave).toBeHidden();
  expect(page.url()).toContain("?edit");
  await expect(form.getByLabel("Company")).toHaveValue("Bayside Realty");
  // Cancel asks too; discarding goes back to the unchanged page.
  await form.getByRole("link", { name: "Cancel" }).click();
  await leave.getByRole("button", { name: "Discard changes" }).click();
  await expect(page).toHaveURL(profile);
  await expect(details).toContainText("Harbor Homes");

  // Saving: back to the page with the change, and leaving asks nothing.
  await details.getByRole("link", { name: "Edit details" }).click();
  await form.getByLabel("Company").fill("Bayside Realty");
  await form.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Changes saved", { exact: true }).first()).toBeVisible();
  await expect(page).toHaveURL(profile);
  await expect(details).toContainText("Bayside Realty");
  expect(await page.evaluate(() => !window.dispatchEvent(new Event("beforeunload", { cancelable: true })))).toBe(false);
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: "test-results/screenshots/profile-1280.png", fullPage: true });
  await page.setViewportSize(PHONE);

  // Delete, then Undo from the list, as the list's own delete does.
  await page.getByRole("button", { name: "Delete contact…" }).click();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.waitForURL(/\/contacts$/);
  await expect(page.getByText("Contact deleted", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name, exact: true })).toHaveCount(0);
  expect((await page.request.get(profile)).status()).toBe(404);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("1 contact restored", { exact: true }).first()).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name, exact: true })).toBeVisible();
  expect((await page.request.get(profile)).status()).toBe(200);
});
