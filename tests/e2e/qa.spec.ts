import AxeBuilder from "@axe-core/playwright";
import { readFileSync } from "node:fs";
import { ACCOUNTS, expect, expectNoSideways, signIn, test } from "./fixtures";

// The QA Dashboard runs real checks against the running server (QA_PAGE is on for the e2e server, as
// for `npm start`), shows progress and a summary, and hands over the report as a dated markdown file.

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

test("an admin runs every check, follows the progress, reads the summary and downloads it", async ({ page, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  // The cron's heartbeat, so "the cron ran" has something recent to find.
  await page.request.get("/__scheduled?cron=*/5+*+*+*+*");
  await signIn(page, ACCOUNTS.qaAdmin);
  await page.goto("/admin");
  await page.getByRole("link", { name: "QA Dashboard" }).click();
  await expect(page.getByRole("heading", { name: "QA Dashboard" })).toBeVisible();

  await page.getByRole("button", { name: "Run All Tests" }).click();
  const progress = page.getByRole("progressbar", { name: "Checks done" });
  await expect(page.getByRole("status").filter({ hasText: /^Running: \d+ of/ })).toBeVisible();
  await expect(progress).toHaveAttribute("aria-valuenow", "100", { timeout: 90_000 });
  // No critical check fails on a healthy server, but without Stripe or an e-mail provider two checks are skipped,
  // one of them critical (the signed webhook): the run cannot call the release safe.
  await expect(page.getByRole("status").filter({ hasText: /^Release/ })).toHaveText("Release not verified: 1 critical check skipped");
  await expect(page.getByText("Release not verified", { exact: true }).first()).toBeVisible();
  await expect(page.getByText("2 skipped (1 critical): they cannot run on this deployment (the reason is on each).")).toBeVisible();
  for (const suite of ["Storage", "Schema", "Accounts", "Billing", "Security", "Pages", "Operations"]) {
    await expect(page.getByRole("heading", { name: suite, exact: true })).toBeVisible();
  }
  await expect(page.getByRole("listitem").filter({ hasText: "Tenant isolation" })).toContainText("Passed");

  let results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectNoSideways(page);

  await page.getByRole("tab", { name: "Summary Report" }).click();
  const report = page.getByRole("textbox", { name: "Summary Report" });
  await expect(report).toHaveValue(/^# Porchlight QA report/);
  await expect(report).toHaveValue(/\*\*Release not verified:\*\* 1 critical check could not run here/);
  await expect(report).not.toHaveValue(/Safe to release/);
  await page.getByRole("button", { name: "Copy Report" }).click();
  await expect(page.getByText("Report copied", { exact: true }).first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(/^# Porchlight QA report/);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^porchlight-qa-report-\d{4}-\d{2}-\d{2}\.md$/);
  expect(readFileSync(await file.path(), "utf8")).toContain("| PASS (critical) | Tenant isolation");
  // The run is listed with its suite, its pass rate and its verdict.
  const newest = page.getByRole("region", { name: "Past runs" }).getByRole("listitem").first();
  await expect(newest).toContainText("System checks");
  await expect(newest).toContainText(/\d+% passed \(\d+ of \d+, 2 skipped\) · Release not verified: 1 critical check skipped/);

  results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(results.violations.map((v) => v.id)).toEqual([]);
});

test("an admin runs the AI QA suite, one card and then all, and resets it", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, ACCOUNTS.qaAdmin);
  await page.goto("/admin");
  await page.getByRole("link", { name: "AI QA Suite" }).click();
  await expect(page.getByRole("heading", { name: "AI QA Suite" })).toBeVisible();
  await expect(page.getByText(/through the offline drafter/)).toBeVisible();
  const summary = page.getByRole("status").filter({ hasText: /%|Not run yet|Running/ });
  await expect(summary).toHaveText("Not run yet");

  const grounding = page.getByRole("region", { name: "Grounding" });
  await page.getByRole("button", { name: "Run Grounding" }).click();
  await expect(grounding.getByText(/^\d+ of \d+ passed$/)).toBeVisible({ timeout: 30_000 });
  await expect(grounding.getByText(/within the targets/)).toBeVisible();
  await expect(page.getByRole("region", { name: "Advice" }).getByText("Not run yet")).toBeVisible();

  await page.getByRole("button", { name: "Run All Tests" }).click();
  await expect(summary).toHaveText(/^100% \((\d+) of \1\)$/, { timeout: 60_000 });
  await expect(page.getByText("Test Passed", { exact: true }).first()).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze();
  expect(results.violations.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  await expectNoSideways(page);

  await page.getByRole("button", { name: "Reset" }).click();
  await expect(summary).toHaveText("Not run yet");
});

test("an agent who is not an admin is sent away from the dashboard and denied the AI suite", async ({ page }) => {
  await signIn(page, ACCOUNTS.qaAgent);
  await page.goto("/qa");
  await expect(page).not.toHaveURL(/\/qa/);
  await expect(page.getByRole("heading", { name: "QA Dashboard" })).toHaveCount(0);
  await page.goto("/qa-test");
  await expect(page.getByRole("heading", { name: "Access Denied" })).toBeVisible();
  await expect(page.getByText("You don't have permission to access this area.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Run All Tests" })).toHaveCount(0);
});
