import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

async function fillForm(page: Page, email: string) {
  await page.getByLabel("First name").fill("Dana");
  await page.getByLabel("Last name").fill("Reyes");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Company (brokerage)").fill("Reyes Realty");
  await page.getByLabel("I'm interested in").selectOption("pipeline");
  await page.getByLabel("Message").fill("Do you import from another CRM?");
}

test("the contact form asks for consent, then sends and confirms", async ({ page }) => {
  await page.goto("/contact");
  await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Home›Contact");
  await fillForm(page, `lead-${Date.now()}@example.com`);
  const send = page.getByRole("button", { name: "Send message" });
  await expect(send).toHaveAttribute("aria-disabled", "true");
  // Enter in a field submits the form anyway: the page says what is missing instead of sending.
  await page.getByLabel("Last name").press("Enter");
  await expect(page.getByText("Consent Required", { exact: true })).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Consent is required to submit this form." })).toBeVisible();

  await page.getByLabel("I agree to be contacted by Porchlight about the product.").check();
  await expect(page.getByText("Consent is required to submit this form.")).toBeHidden();
  await send.click();
  await expect(page.getByRole("heading", { name: "Message sent" })).toBeVisible();
  await expect(page.getByText("Thanks! We'll reach out within 1 business day", { exact: true })).toBeVisible();
  await expect(page.getByText(/setting up Porchlight takes about 10 minutes, and the free trial lasts 14 days/)).toBeVisible();
  await page.getByRole("link", { name: "← Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("when the server refuses, the form stays filled and says why", async ({ page }) => {
  await page.goto("/contact");
  // Use up this connection's allowance through the real endpoint, then send from the page.
  for (let i = 0; i < 5; i++) {
    const response = await page.request.post("/api/contact-submit", {
      data: {
        firstName: "A",
        lastName: "B",
        email: `flood-${Date.now()}-${i}@example.com`,
        company: "C",
        interest: "other",
        message: "hi",
        consent: true,
      },
    });
    expect(response.status()).toBe(200);
  }
  const email = `kept-${Date.now()}@example.com`;
  await fillForm(page, email);
  await page.getByLabel("I agree to be contacted by Porchlight about the product.").check();
  await page.getByRole("button", { name: "Send message" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many messages from this connection." })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Message")).toHaveValue("Do you import from another CRM?");
  await expect(page.getByRole("button", { name: "Send message" })).toBeEnabled();
});

test("while the message is on its way the button is disabled and says so", async ({ page }) => {
  await page.goto("/contact");
  await fillForm(page, `slow-${Date.now()}@example.com`);
  await page.getByLabel("I agree to be contacted by Porchlight about the product.").check();
  // Keep the browser on this page after the form's own submit handler has run, to look at the sending state.
  await page.evaluate(() => document.querySelector("form[data-contact-form]")!.addEventListener("submit", (event) => event.preventDefault()));
  await page.getByRole("button", { name: "Send message" }).click();
  const sending = page.getByRole("button", { name: "Sending…" });
  await expect(sending).toBeDisabled();
  await expect(sending).toHaveAttribute("aria-busy", "true");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server asks for consent, keeps the form filled, and then sends", async ({ page }) => {
    await page.goto("/contact");
    const email = `nojs-${Date.now()}@example.com`;
    await fillForm(page, email);
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Consent is required to submit this form." })).toBeVisible();
    await expect(page.getByText("Consent Required", { exact: true })).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByLabel("I'm interested in")).toHaveValue("pipeline");

    await page.getByLabel("I agree to be contacted by Porchlight about the product.").check();
    await page.getByRole("button", { name: "Send message" }).click();
    await expect(page.getByRole("heading", { name: "Message sent" })).toBeVisible();
  });
});
