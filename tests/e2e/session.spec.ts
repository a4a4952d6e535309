import AxeBuilder from "@axe-core/playwright";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

test("a session cookie copied before sign-out is worthless after it", async ({ page, browser }) => {
  await signIn(page, ACCOUNTS.session);
  const cookies = await page.context().cookies();
  const session = cookies.find((c) => c.name === "porchlight_session")!;
  expect(session.httpOnly).toBe(true);
  expect(session.secure).toBe(true);
  expect(session.sameSite).toBe("Lax");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/auth");

  const thief = await browser.newContext();
  await thief.addCookies([session]);
  const stolen = await thief.newPage();
  await stolen.goto("/dashboard");
  await expect(stolen).toHaveURL(/\/auth\?redirectTo=/);
  await thief.close();
});

test("changing the password signs out the other devices", async ({ page, browser }) => {
  const account = ACCOUNTS.settings;
  const phoneContext = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": "10.78.0.1" } });
  const phone = await phoneContext.newPage();
  await signIn(phone, account);
  await signIn(page, account);

  await page.goto("/settings");
  await page.getByLabel("Current password").fill(account.password);
  await page.getByLabel("New password", { exact: true }).fill("a fresh long passphrase");
  await page.getByLabel("Repeat new password").fill("a fresh long passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Every other device has been signed out.", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();

  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/auth\?redirectTo=/);
  await phoneContext.close();
});

test("Sign out everywhere asks first, saying what happens; Cancel keeps every device signed in", async ({ page, browser }) => {
  const account = ACCOUNTS.signOutEverywhere;
  const phoneContext = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": "10.78.0.2" } });
  const phone = await phoneContext.newPage();
  await signIn(phone, account);
  await signIn(page, account);
  await page.goto("/settings/security");
  const open = page.getByRole("button", { name: "Sign out everywhere" });
  await open.click();
  const dialog = page.getByRole("dialog", { name: "Sign out everywhere?" });
  await expect(dialog).toContainText("Every device signed in to Porchlight with your account is signed out at once, this one included");
  await expect(dialog).toContainText("Each needs your password to sign in again.");
  const confirm = dialog.getByRole("button", { name: "Sign out everywhere" });
  await expect(confirm).toHaveAccessibleDescription(/this one included/);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => document.documentElement.classList.toggle("dark", t === "dark"), theme);
    const results = await new AxeBuilder({ page })
      .include("dialog[open]")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id}`)).toEqual([]);
  }
  // Cancel (or Esc): nothing happens, and focus goes back to the button.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(page.getByRole("heading", { name: "Settings", level: 1 })).toBeVisible();
  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/dashboard$/);
  // Confirmed: this device and the other are signed out.
  await open.click();
  await confirm.click();
  await page.waitForURL("**/auth");
  await phone.goto("/dashboard");
  await expect(phone).toHaveURL(/\/auth\?redirectTo=/);
  await phoneContext.close();
});
