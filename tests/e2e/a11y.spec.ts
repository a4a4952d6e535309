import { ACCOUNTS, expectNoViolations, signIn, test, expect } from "./fixtures";
import { PUBLIC_PAGES } from "./pages";

test("public pages have no WCAG 2.2 AA violations in light or dark", async ({ page }) => {
  test.setTimeout(120_000);
  for (const theme of ["light", "dark"]) {
    await page.goto("/");
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of PUBLIC_PAGES) {
      await page.goto(path);
      await expectNoViolations(page, `${path} (${theme})`);
    }
    await page.goto("/auth");
    await page.getByRole("link", { name: "Need an account? Sign up" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
    await expectNoViolations(page, `/auth sign-up (${theme})`);
  }
});

test("signed-in pages have no WCAG 2.2 AA violations in light or dark", async ({ page }) => {
  // Eight axe runs: on a busy 2-core machine they took just over the default 30 s.
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.a11y);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    for (const path of ["/dashboard", "/contacts", "/settings", "/app/welcome?trial=1"]) {
      await page.goto(path);
      await expectNoViolations(page, `${path} (${theme})`);
    }
  }
});

test("the contact list, the Add New Contact dialog and a profile have no WCAG 2.2 AA violations", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, ACCOUNTS.a11yContacts);
  const origin = new URL(page.url()).origin;
  for (const [name, status] of [
    ["Avery Lindqvist", "hot"],
    ["Blake Moreno", "warm"],
  ] as const) {
    await page.request.post("/contacts?index", {
      form: { intent: "create", name, status, email: `${status}-${Date.now()}@example.com`, tags: "buyer" },
      headers: { Origin: origin },
    });
  }
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.goto("/contacts");
    await expectNoViolations(page, `/contacts (${theme})`);
    await page.getByRole("button", { name: "Add New Contact" }).click();
    await expectNoViolations(page, `Add New Contact dialog (${theme})`);
    await page.keyboard.press("Escape");
    await page.getByRole("main").getByRole("link", { name: "Avery Lindqvist", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Avery Lindqvist", level: 1 })).toBeVisible();
    await expectNoViolations(page, `contact profile (${theme})`);
    await page.goto("/contacts/import");
    await page
      .getByLabel("Choose a CSV file")
      .setInputFiles({ name: "a.csv", mimeType: "text/csv", buffer: Buffer.from("name,email,current status\nA,a@example.com,Lead\nB,,Someday\n") });
    await expect(page.getByRole("heading", { name: "Preview" })).toBeVisible();
    await expectNoViolations(page, `import screen (${theme})`);
  }
});

test("billing pages have no WCAG 2.2 AA violations in light or dark", async ({ page }) => {
  await signIn(page, ACCOUNTS.a11yTrial, "/trial/start");
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.goto("/trial/start");
    await expectNoViolations(page, `/trial/start (${theme})`);
  }
  await page.getByRole("button", { name: "Start Free Trial" }).click();
  await page.waitForURL("**/billing/test-checkout/**");
  await expectNoViolations(page, "test checkout");
  await page.getByRole("button", { name: "Start trial (test mode)" }).click();
  await page.waitForURL("**/app/welcome**");
  await page.goto("/settings?tab=billing");
  await expectNoViolations(page, "/settings?tab=billing");
});

test("the sign-in form works from the keyboard alone", async ({ page }) => {
  await page.goto("/auth");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.getByLabel("Email").focus();
  await page.keyboard.type(ACCOUNTS.a11y.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password", { exact: true })).toBeFocused();
  await page.keyboard.type(ACCOUNTS.a11y.password);
  await page.keyboard.press("Enter");
  await page.waitForURL("**/dashboard");
});
