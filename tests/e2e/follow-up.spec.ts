import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { ACCOUNTS, expect, expectNoSideways, expectNoViolations, signIn, test, type Account } from "./fixtures";

// The follow-up loop as an agent tries it (ADRs 0069–0072): write a template with its live preview, connect the demo
// Gmail (the local fake Google's consent page), put a new lead on an action plan, send them an AI draft from their page
// through Gmail, see it on the timeline; the lead replies in the Gmail thread, the cron reads it, and the reply is on
// the timeline and the plan has stopped. At 375 px and 1280 px, axe clean.

const SAMPLE = readFileSync("docs/samples/zillow-lead.eml", "utf8");

async function leadFromZillow(page: Page): Promise<void> {
  await page.goto("/settings?tab=leads");
  const address = await page.getByRole("textbox", { name: "Lead intake address" }).inputValue();
  const response = await page.request.post(
    `/cdn-cgi/handler/email?from=${encodeURIComponent("no-reply@zillow.com")}&to=${encodeURIComponent(address)}`,
    {
      data: SAMPLE.replace(/^To: .*$/m, `To: ${address}`).replace(/^Message-ID: .*$/m, `Message-ID: <${crypto.randomUUID()}@e2e.test>`),
      headers: { "Content-Type": "text/plain" },
    },
  );
  expect(response.status(), await response.text()).toBe(200);
}

async function tryFollowUp(page: Page, account: Account, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await signIn(page, account);

  // A template, previewed on a real contact.
  await leadFromZillow(page);
  await page.goto("/templates");
  await expect(page.getByRole("heading", { name: "No templates yet" })).toBeVisible();
  await page.getByRole("link", { name: "New template" }).click();
  const editor = page.getByRole("form", { name: "Template" });
  await editor.getByLabel("Name").fill("Showing follow-up");
  await editor.getByLabel("Subject").fill("About {property address}");
  await editor.getByRole("textbox", { name: "E-mail", exact: true }).fill("Hi {first name},\n\nHow did {property address} feel?\n\n{signature}");
  const preview = page.getByRole("region", { name: "Preview" });
  await expect(preview.getByText("About 12 Oak St, Austin, TX 78704")).toBeVisible();
  await expect(preview.getByText(/Hi Jane,/)).toBeVisible();
  await editor.getByLabel("Subject").fill("About {budget}");
  await expect(page.getByText(/\{budget\} is not a merge field/).first()).toBeVisible();
  await editor.getByLabel("Subject").fill("About {property address}");
  await expectNoViolations(page, `Template editor at ${width} px`, "main");
  await page.getByRole("button", { name: "Create template" }).click();
  await expect(page.getByText("Template created", { exact: true }).first()).toBeVisible();
  await expectNoSideways(page);

  // The demo Gmail, through the local stand-in for Google's consent page.
  await page.goto("/settings?tab=email");
  await page.getByRole("button", { name: "Connect Gmail" }).click();
  await page.getByLabel("Demo mailbox").fill(`follow-up-${width}@gmail.test`);
  await page.getByRole("button", { name: /Allow/ }).click();
  await expect(page.getByText("Gmail connected", { exact: true }).first()).toBeVisible();
  const mailbox = (await page.getByText(/Connected as/).textContent())!.match(/[\w.+-]+@[\w.-]+/)![0];
  await expectNoViolations(page, `E-mail settings at ${width} px`, "main");

  // The starter plans, and the lead put on the new buyer plan from their page.
  await page.goto("/plans");
  await page.getByRole("button", { name: "Add starter plans" }).first().click();
  await expect(page.getByText(/starter plans added/).first()).toBeVisible();
  await expectNoViolations(page, `Action plans at ${width} px`, "main");
  await page.goto("/contacts");
  await page.getByRole("link", { name: "Jane Whitmore" }).first().click();
  const plans = page.getByRole("region", { name: "Action plans" });
  await plans.getByLabel("Start a plan").selectOption({ label: "New buyer lead (14 days)" });
  await plans.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("Jane Whitmore is on “New buyer lead (14 days)”", { exact: true }).first()).toBeVisible();
  await expect(plans.getByText(/^Running/)).toBeVisible();

  // A text template (a starter the plans brought), written into the phone's messages app: never sent by Porchlight.
  await page.getByRole("button", { name: "Text from a template" }).click();
  const texting = page.getByRole("dialog", { name: "Text Jane Whitmore" });
  await texting.getByLabel("Text template").selectOption({ label: "New lead: first text" });
  await expect(texting.getByRole("link", { name: "Open in Messages" })).toHaveAttribute("href", /^sms:\(512\) 555-0148\?&body=Hi%20Jane%2C/);
  await expectNoViolations(page, `Text from a template at ${width} px`, "dialog[open]");
  await texting.getByRole("button", { name: "Close" }).click();

  // An AI draft to the lead from their page, through Gmail.
  await page.getByRole("button", { name: "E-mail", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "E-mail Jane Whitmore" });
  await expect(dialog.getByText(mailbox, { exact: true })).toBeVisible();
  await dialog.getByRole("button", { name: "Draft with AI" }).click();
  await expect(dialog.getByLabel("Subject")).not.toHaveValue("", { timeout: 20_000 });
  const subject = await dialog.getByLabel("Subject").inputValue();
  await expectNoViolations(page, `Compose at ${width} px`, "dialog[open]");
  await dialog.getByRole("button", { name: "Send" }).click();
  await expect(page.getByText("E-mail to Jane Whitmore sent", { exact: true }).first()).toBeVisible();
  const activity = page.getByRole("region", { name: "Activity" });
  const sentEntry = activity.getByRole("listitem").filter({ hasText: `E-mail sent · ${subject}` });
  await expect(sentEntry).toContainText("Sent from your Gmail");

  // Jane replies in the Gmail thread; the cron reads it.
  const google = new URL(await googleOrigin(page));
  const sent = (await (await page.request.get(`${google.origin}/__fake/mailboxes/${encodeURIComponent(mailbox)}/sent`)).json()) as {
    threadId: string;
    text: string;
  }[];
  const thread = sent.at(-1)!.threadId;
  const reply = await page.request.post(`${google.origin}/__fake/mailboxes/${encodeURIComponent(mailbox)}/threads/${thread}/reply`, {
    data: { from: "Jane Whitmore <jane.whitmore@example.com>", text: "Thanks! Saturday at 10 works for me." },
  });
  expect(reply.status(), await reply.text()).toBe(200);
  expect((await page.request.get("/__scheduled?cron=*/5+*+*+*+*")).status()).toBe(200);
  await page.reload();
  await expect(activity.getByRole("listitem").filter({ hasText: "E-mail reply received" })).toContainText("Saturday at 10 works for me.");
  // The reply stopped the plan before its first e-mail went.
  await expect(page.getByRole("region", { name: "Action plans" }).getByText("Stopped: The contact replied.")).toBeVisible();
  expect((await (await page.request.get(`${google.origin}/__fake/mailboxes/${encodeURIComponent(mailbox)}/sent`)).json()).length).toBe(sent.length);
  await expectNoViolations(page, `Contact with the reply at ${width} px`, "main");
  await expectNoSideways(page);
}

/** Where the fake Google answers: the consent page's origin, read from the Connect button's redirect. */
async function googleOrigin(page: Page): Promise<string> {
  const start = await page.request.post("/settings/gmail", { form: { intent: "connect" }, maxRedirects: 0 });
  return new URL(start.headers().location!).origin;
}

test("templates, Gmail, an AI draft sent, a reply back, on a phone", async ({ page }) => {
  test.setTimeout(120_000);
  await tryFollowUp(page, ACCOUNTS.followUp, 375);
});

test("templates, Gmail, an AI draft sent, a reply back, on a desktop", async ({ page }) => {
  test.setTimeout(120_000);
  await tryFollowUp(page, ACCOUNTS.followUpDesktop, 1280);
});
