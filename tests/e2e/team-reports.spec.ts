import { readFile } from "node:fs/promises";
import { ACCOUNTS, expect, expectNoSideways, expectNoViolationsInBothThemes, signedInAt, test } from "./fixtures";

// Team reports (ADR 0077) for the seeded team "Lakeside Lead Realty": the admin opens them from the team page, sees
// Ivy's row and downloads the agents' CSV; the agent gets 404. At 375 and 1280 px, axe clean in light and dark.

for (const width of [375, 1280]) {
  test(`at ${width} px: an admin opens Team reports, sees Ivy's row and downloads the agents' CSV; an agent gets 404`, async ({ browser }) => {
    test.setTimeout(120_000);
    const admin = await signedInAt(browser, ACCOUNTS.leadAdmin, width);
    await admin.page.goto("/team");
    await admin.page.getByRole("link", { name: "Team reports" }).click();
    await expect(admin.page.getByRole("heading", { name: "Team reports", level: 1 })).toBeVisible();
    await admin.page.getByRole("link", { name: "Last 12 months" }).click();
    await admin.page.waitForURL(/period=last-12-months/);
    const agents = width < 768 ? admin.page.getByRole("list", { name: /^Per agent/ }) : admin.page.getByRole("table", { name: /^Per agent/ });
    await expect(agents.getByText("Ivy Agent", { exact: true })).toBeVisible();
    await expectNoSideways(admin.page);
    const [download] = await Promise.all([
      admin.page.waitForEvent("download"),
      admin.page.getByRole("link", { name: /^Download CSV: Per agent/ }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^porchlight-team-agents-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, "utf8");
    expect(csv.split("\n")[0]).toContain("Agent,Currency,Leads");
    expect(csv).toContain("Ivy Agent,");
    await expectNoViolationsInBothThemes(admin.page, "team reports");
    await admin.close();

    const agent = await signedInAt(browser, ACCOUNTS.leadAgent, width);
    const response = await agent.page.goto("/team/reports");
    expect(response?.status()).toBe(404);
    await agent.close();
  });
}
