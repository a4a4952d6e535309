import type { Page } from "@playwright/test";
import { decodeBase32IgnorePadding } from "@oslojs/encoding";
import { totpCode, totpStep } from "../../app/modules/auth/totp";
import { ACCOUNTS, expect, expectNoSideways, expectNoViolations, signInWithForm, test, type Account } from "./fixtures";

// Two-factor sign-in (ADR 0074) as an agent meets it: a passkey added in Settings → Security with Chromium's virtual
// authenticator, then signing in with the password and the passkey; and an authenticator app set up from the key the
// page shows, its codes computed here. Pages checked at 375 and 1280 px, light and dark.

// WebAuthn needs a domain for the relying party, not an IP address: this spec browses the server as localhost.
test.use({ baseURL: `http://localhost:${process.env.E2E_PORT ?? "8788"}` });

const SIZES = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

/** Axe in light and dark at both widths, a screenshot of each (test-results/screenshots/2fa-<name>-<width>-<theme>.png). */
async function checkPage(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await expectNoSideways(page);
    for (const theme of ["light", "dark"] as const) {
      // The theme's colour transitions are finished at once, so axe measures the colours they end at.
      await page.evaluate((t) => {
        document.documentElement.classList.toggle("dark", t === "dark");
        for (const animation of document.getAnimations()) animation.finish();
      }, theme);
      await expectNoViolations(page, `${name} at ${size.width} px, ${theme}`);
      await page.screenshot({ path: `test-results/screenshots/2fa-${name}-${size.width}-${theme}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.classList.remove("dark"));
  await page.setViewportSize(SIZES[0]!);
}

async function passwordStep(page: Page, account: Account) {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL("**/auth/two-factor");
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.waitForURL("**/auth");
}

test("adds a passkey in Settings → Security, then signs in with the password and the passkey", async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });

  await signInWithForm(page, ACCOUNTS.twoFactorPasskey);
  await page.goto("/settings");
  await page.getByRole("link", { name: "Security" }).click();
  await page.waitForURL("**/settings/security");
  await expect(page.getByText("Off: your password alone signs you in.")).toBeVisible();
  await checkPage(page, "security-off");

  await page.getByLabel("Name for the new passkey").fill("Test phone");
  await page.getByRole("button", { name: "Add a passkey" }).click();
  const codes = page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(page.getByText("Test phone", { exact: true })).toBeVisible();
  await expect(page.getByText(/On: after your password/)).toBeVisible();
  await checkPage(page, "security-passkey");

  await signOut(page);
  await passwordStep(page, ACCOUNTS.twoFactorPasskey);
  await expect(page.getByRole("heading", { name: "Confirm it's you" })).toBeVisible();
  await checkPage(page, "second-step-passkey");
  await page.getByRole("button", { name: "Use your passkey" }).click();
  await page.waitForURL("**/dashboard");

  // The passkey's last use is listed now.
  await page.goto("/settings/security");
  await expect(page.getByText(/last used/)).toBeVisible();
  await expect(page.getByText("This device")).toBeVisible();
});

test("sets up an authenticator app from the key shown, and signs in with a code from it", async ({ page }) => {
  await signInWithForm(page, ACCOUNTS.twoFactorTotp);
  await page.goto("/settings/security");
  await page.getByRole("button", { name: "Set up an authenticator app" }).click();
  await expect(page.getByRole("img", { name: "QR code of your authenticator key" })).toBeVisible();
  await checkPage(page, "totp-setup");
  const secret = (await page.locator("[data-totp-secret]").textContent())!.replace(/\s/g, "");
  const key = decodeBase32IgnorePadding(secret);

  await page.getByLabel("2. Enter the 6-digit code the app shows").fill(totpCode(key, totpStep(Date.now())));
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("list", { name: "Your recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await expect(page.getByText(/On: sign-in accepts a 6-digit code/)).toBeVisible();

  await signOut(page);
  await passwordStep(page, ACCOUNTS.twoFactorTotp);
  await checkPage(page, "second-step-code");
  // The code that turned the app on is spent: the next step's code (inside the ±1 window) signs in.
  await page.getByLabel("Code from your authenticator app, or a recovery code").fill(totpCode(key, totpStep(Date.now()) + 1));
  await page.getByRole("button", { name: "Confirm with code" }).click();
  await page.waitForURL("**/dashboard");
});
