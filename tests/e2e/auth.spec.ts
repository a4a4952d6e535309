import { ACCOUNTS, DEMO, expect, signInWithForm, test, waitForFreshMinute } from "./fixtures";

test("a new agent goes from /trial through sign-up, e-mail confirmation and test checkout to the welcome screen", async ({ page }) => {
  test.setTimeout(60_000);
  const email = `new-agent-${Date.now()}@porchlight.test`;
  await page.goto("/trial");
  await page.getByRole("link", { name: "Create your account" }).first().click();
  await page.waitForURL("**/auth?mode=signup");
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("a long enough passphrase");
  await page.getByRole("button", { name: "Create account" }).click();

  await page.waitForURL("**/auth/verify-email");
  await expect(page.getByText("Account Created", { exact: true })).toBeVisible();
  await expect(page.getByText("Please check your email to verify your account.", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Confirm your e-mail" })).toBeVisible();

  await page.getByRole("link", { name: "development mailbox" }).click();
  const message = page.getByRole("article", { name: "Confirm your e-mail for Porchlight" }).filter({ hasText: email });
  await message.getByRole("link", { name: /\/auth\/verify\?token=/ }).click();

  // Confirmed, signed in, no subscription yet: the billing guard asks for the trial.
  await page.waitForURL("**/trial/start");
  await expect(page.getByRole("heading", { name: "Start your 14-day free trial" })).toBeVisible();
  await page.getByRole("button", { name: "Start Free Trial" }).click();
  await page.waitForURL("**/billing/test-checkout/**");
  await page.getByRole("button", { name: "Start trial (test mode)" }).click();
  await page.waitForURL("**/app/welcome?success=1&trial=1");
  // The toast (once the subscription is confirmed) greets; the trial's start is said once, by the page.
  await expect(page.getByRole("region", { name: /^Notifications/ }).getByText("Welcome to Porchlight!", { exact: true })).toBeVisible();
  await expect(page.getByText("Your 14-day free trial has started, with every premium feature included.", { exact: true })).toBeVisible();
  // Counted while the toast is up (a retrying count would wait for it to go).
  expect(await page.getByText(/trial has started/).count()).toBe(1);
  // One greeting: the toast. The page itself says what to do next.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Here is where to begin");
  await expect(page.getByRole("heading", { name: /welcome/i })).toHaveCount(0);
  await page.getByRole("link", { name: "Support Center" }).click();
  await expect(page.getByRole("heading", { name: "Support Center", level: 1 })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard", exact: true })).toBeVisible();
  // The dashboard offers the tour without greeting a second time.
  await expect(page.getByRole("dialog", { name: "Take a quick tour?" })).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Take a quick tour?" })).not.toContainText(/welcome/i);
});

test("the README's demo account signs in and out", async ({ page }) => {
  await signInWithForm(page, DEMO);
  await expect(page.getByText("Welcome back!", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/auth");
  await expect(page.getByText("See you soon.", { exact: true })).toBeVisible();
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth\?redirectTo=%2Fdashboard/);
});

test("the form checks e-mail, honeypot and attempts in the browser, and the server holds the limit too", async ({ page }) => {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.goto("/auth");
  const email = page.getByLabel("Email");
  const password = page.getByLabel("Password", { exact: true });
  const submit = page.getByRole("button", { name: "Sign in" });

  await email.fill("not-an-email");
  await password.fill("whatever it is");
  await submit.click();
  await expect(page.getByText("Invalid Email", { exact: true })).toBeVisible();
  await expect(page.getByText("Please enter a valid email address.").first()).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  expect(posts).toHaveLength(0);

  await page.locator("#website_url").evaluate((input: HTMLInputElement) => (input.value = "http://spam.example"));
  await email.fill(ACCOUNTS.errors.email);
  await submit.click();
  await expect(page.getByText("Please try again later.").first()).toBeVisible();
  expect(posts).toHaveLength(0);
  await page.locator("#website_url").evaluate((input: HTMLInputElement) => (input.value = ""));

  // The server counts sign-ins in fixed one-minute windows: start the burst early in a minute so a window
  // boundary cannot split it (the six attempts take a few seconds).
  await waitForFreshMinute();
  for (let i = 1; i <= 5; i++) {
    await password.fill(`wrong password ${i}`);
    await submit.click();
    await expect.poll(() => posts.length).toBe(i);
    await expect(page.getByText("Invalid email or password. Please check your credentials and try again.").first()).toBeVisible();
  }
  await password.fill(ACCOUNTS.errors.password);
  await submit.click();
  await expect(page.getByText("Too Many Attempts", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("Please wait a minute before trying again.").first()).toBeVisible();
  expect(posts).toHaveLength(5);

  // Bypass the browser's limit: the server still refuses, even with the right password.
  await page.evaluate(() => sessionStorage.removeItem("auth_attempts"));
  const [response] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), submit.click()]);
  expect(response.status()).toBe(429);
  await expect(page.getByText("Please wait a minute before trying again.").first()).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("reached from a page of the app (a client-side visit), the form does the same checks in the browser", async ({ page }) => {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  await page.goto("/auth/forgot");
  await page.getByRole("link", { name: "Back to sign in" }).click();
  await expect(page.getByRole("heading", { name: "Sign in to Porchlight" })).toBeVisible();
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByLabel("Password", { exact: true }).fill("whatever it is");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid Email", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  const toggle = page.getByRole("button", { name: "Show password" });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  expect(posts).toHaveLength(0);
});

test.describe("sign-up from a browser in Tokyo", () => {
  test.use({ timezoneId: "Asia/Tokyo" });

  test("sends the browser's timezone, checks the password length while typing, and can show the password", async ({ page }) => {
    await page.goto("/auth?mode=signup");
    await expect(page.locator('input[name="timezone"]')).toHaveValue("Asia/Tokyo");
    const email = page.getByLabel("Email");
    const password = page.getByLabel("Password", { exact: true });
    await email.fill(`tokyo-${Date.now()}@porchlight.test`);
    await password.fill("too short");
    await expect(page.getByText("Password must be at least 12 characters.")).toHaveCount(0);
    await password.blur();
    // The spec's words, before any submit, tied to the field.
    await expect(page.getByText("Password must be at least 12 characters.")).toBeVisible();
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await password.fill("too short but now long enough");
    await expect(page.getByText("Password must be at least 12 characters.")).toHaveCount(0);
    await expect(password).not.toHaveAttribute("aria-invalid", "true");

    const toggle = page.getByRole("button", { name: "Show password" });
    await expect(toggle).toHaveAttribute("aria-pressed", "false");
    await expect(password).toHaveAttribute("type", "password");
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-pressed", "true");
    await expect(password).toHaveAttribute("type", "text");
    await toggle.click();
    await expect(password).toHaveAttribute("type", "password");

    const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().includes("/auth"));
    await page.getByRole("button", { name: "Create account" }).click();
    expect((await posted).postData()).toContain("timezone=Asia%2FTokyo");
    await page.waitForURL("**/auth/verify-email");
  });
});
