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
