import AxeBuilder from "@axe-core/playwright";
import type { Locator, Page } from "@playwright/test";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

async function seed(page: Page) {
  const origin = new URL(page.url()).origin;
  const contact = await page.request.post("/contacts?index", {
    form: { intent: "create", name: "Octavia Palmquist", email: "octavia@example.com" },
    headers: { Origin: origin },
  });
  expect(contact.status()).toBe(200);
  const deal = await page.request.post("/pipeline?index", {
    form: { intent: "create", title: "Juniper Terrace listing", stage: "offer", dealValueCents: "450000" },
    headers: { Origin: origin },
  });
  expect(deal.status()).toBe(200);
}

const palette = (page: Page) => page.getByRole("dialog", { name: "Command palette" });
const box = (page: Page) => palette(page).getByRole("combobox", { name: "Search commands, contacts and deals" });

/** Ctrl+K right after a page load, once the app has hydrated (a press before that reaches no listener). */
async function shortcut(page: Page) {
  await expect(async () => {
    await page.keyboard.press("Control+k");
    await expect(palette(page)).toBeVisible({ timeout: 2_000 });
  }).toPass();
}

/** Types into the palette and waits until the server's answer for it is shown (the live region counts the results). */
async function find(page: Page, text: string) {
  await box(page).fill(text);
  await expect(palette(page).getByRole("status")).toHaveText(/\d+ results?|No results/);
}

/** The dialog is open and has the keyboard focus (the palette closed and handed over). */
async function expectFocusIn(dialog: Locator) {
  await expect(dialog).toBeVisible();
  await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
}

test.describe("with a keyboard", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("Ctrl+K opens it from anywhere, finds a contact and a deal by name, and goes to pages", async ({ page }) => {
    await signIn(page, ACCOUNTS.palette);
    await seed(page);
    await expect(page.getByRole("button", { name: "Search and commands" }).locator("kbd")).toHaveText("Ctrl K");

    // Ctrl+K and ⌘K toggle it, and the browser's own shortcut does not run.
    await page.evaluate(() =>
      window.addEventListener("keydown", (event) => ((window as unknown as { prevented: boolean }).prevented = event.defaultPrevented)),
    );
    await shortcut(page);
    await expect(box(page)).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { prevented: boolean }).prevented)).toBe(true);
    await page.keyboard.press("Control+k");
    await expect(palette(page)).toBeHidden();
    await page.keyboard.press("Meta+k");
    await expect(palette(page)).toBeVisible();

    // A contact by name: typing selects the first match, Enter opens the profile.
    await find(page, "octavia");
    await expect(palette(page).getByRole("option", { name: /Octavia Palmquist/ })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/contacts\/[^/?]+$/);
    await expect(page.getByRole("heading", { level: 1, name: "Octavia Palmquist" })).toBeVisible();
    await expect(palette(page)).toBeHidden();

    // A deal by its title, with its stage.
    await page.keyboard.press("Control+k");
    await find(page, "juniper");
    await expect(palette(page).getByRole("option", { name: /Juniper Terrace listing/ })).toContainText("Offer");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/deals\/[^/?]+$/);

    // Arrow keys move through the commands; Enter goes.
    await page.keyboard.press("Control+k");
    await expect(box(page)).toHaveValue("");
    await expect(palette(page).getByRole("option", { name: "Dashboard" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    await expect(palette(page).getByRole("option", { name: "Pipeline" })).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/pipeline$/);
    await expect(page.getByRole("heading", { level: 1, name: "Pipeline" })).toBeVisible();

    // Nothing found: it says so.
    await page.keyboard.press("Control+k");
    await find(page, "zzqxv");
    await expect(palette(page)).toContainText("Nothing matches “zzqxv”.");
    await expect(palette(page).getByRole("status")).toHaveText("No results");

    // An AI quick action opens the assistant with it.
    await box(page).fill("plan my week");
    await palette(page).getByRole("option", { name: "Plan my week" }).click();
    await expect(page).toHaveURL(/\/ai-assistant\?quick=week_plan$/);
  });

  test("works while typing in a field, Escape closes it and gives focus back", async ({ page }) => {
    await signIn(page, ACCOUNTS.palette);
    await page.goto("/tasks");
    const quickAdd = page.getByLabel("Quick add a task");
    await quickAdd.fill("Call");
    await quickAdd.focus();
    await shortcut(page);
    await expect(box(page)).toBeFocused();
    await expect(quickAdd).toHaveValue("Call");
    await page.keyboard.press("Escape");
    await expect(palette(page)).toBeHidden();
    await expect(quickAdd).toBeFocused();

    // The header button too: focus returns to it.
    const button = page.getByRole("button", { name: "Search and commands" });
    await button.click();
    await expect(box(page)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(button).toBeFocused();
  });

  test("creates a task, a contact and a deal through their own dialogs", async ({ page }) => {
    await signIn(page, ACCOUNTS.palette);
    await shortcut(page);
    await box(page).fill("new task");
    await expect(palette(page).getByRole("option").first()).toHaveText("New task");
    await page.keyboard.press("Enter");
    await expectFocusIn(page.getByRole("dialog", { name: "Add task" }));
    // The parameter that opened it is gone, so a reload does not open it again.
    await expect(page).toHaveURL(/\/tasks$/);
    await page.keyboard.press("Escape");

    await page.keyboard.press("Control+k");
    await box(page).fill("new contact");
    await page.keyboard.press("Enter");
    await expectFocusIn(page.getByRole("dialog", { name: "Add New Contact" }));
    await page.keyboard.press("Escape");

    await page.keyboard.press("Control+k");
    await box(page).fill("new deal");
    await page.keyboard.press("Enter");
    await expectFocusIn(page.getByRole("dialog", { name: "Create deal" }));
    await expect(page).toHaveURL(/\/pipeline$/);
  });
});

test("the header's search button opens the palette: full width with large targets on a phone, a centred sheet with the shortcut shown on a desktop", async ({
  page,
}) => {
  await signIn(page, ACCOUNTS.palettePhone);
  await seed(page);
  // Tailwind's breakpoints the palette uses: sm 640 px (sheet), md 768 px (row height), lg 1024 px (shortcut).
  const width = page.viewportSize()!.width;
  const button = page.getByRole("button", { name: "Search and commands" });
  await expect(button).toBeVisible();
  if (width >= 1024) await expect(button.locator("kbd")).toBeVisible();
  else await expect(button.locator("kbd")).toBeHidden();
  await button.click();
  await expect(palette(page)).toBeVisible();
  const sheet = (await palette(page).boundingBox())!;
  const clientWidth = await page.evaluate(() => document.documentElement.clientWidth);
  if (width < 640) expect(sheet.width).toBe(clientWidth);
  else {
    expect(sheet.width).toBeLessThanOrEqual(640);
    expect(Math.abs(sheet.x + sheet.width / 2 - clientWidth / 2)).toBeLessThanOrEqual(1);
  }
  // 16 px keeps iOS from zooming into the field; rows stay easy targets at every size.
  expect(await box(page).evaluate((input) => getComputedStyle(input).fontSize)).toBe("16px");
  const minRow = width >= 768 ? 44 : 48;
  for (const option of await palette(page).getByRole("option").all()) expect((await option.boundingBox())!.height).toBeGreaterThanOrEqual(minRow);

  await find(page, "palmquist");
  await palette(page)
    .getByRole("option", { name: /Octavia Palmquist/ })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Octavia Palmquist" })).toBeVisible();

  // No Escape key on a phone: the close button (there on every size).
  await button.click();
  await palette(page).getByRole("button", { name: "Close command palette" }).click();
  await expect(palette(page)).toBeHidden();
  await expect(button).toBeFocused();
});

test("the open palette has no WCAG 2.2 AA violations in light or dark, on a phone and a desktop", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.a11yPalette);
  await seed(page);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const width of [375, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/dashboard");
      await page.getByRole("button", { name: "Search and commands" }).click();
      await expect(box(page)).toBeFocused();
      for (const text of ["", "octavia"]) {
        if (text) await find(page, text);
        const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
        const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
        expect(summary, `palette at ${width}px, ${theme}, "${text}"`).toEqual([]);
      }
    }
  }
});
