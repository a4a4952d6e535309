import AxeBuilder from "@axe-core/playwright";
import { ACCOUNTS, expect, signIn, test } from "./fixtures";

// Speed to lead: a new lead shows on the dashboard with a live timer until a first activity is logged.

test("a new lead waits on the dashboard with a running timer until the first call is logged", async ({ page }) => {
  await signIn(page, ACCOUNTS.leadTimer);
  // The lead arrives from another device (here the offline queue's endpoint, as a phone sends it).
  const added = await page.request.post("/api/sync/changes", {
    data: {
      changes: [{ key: `lead-timer-${Date.now()}`, type: "add_contact", contact: { name: "Morgan Timer", phone: "(512) 555-0177", status: "hot" } }],
    },
  });
  const [result] = (await added.json()).results as { status: string; id: string }[];
  expect(result?.status).toBe("applied");

  await page.goto("/dashboard");
  const waiting = page.getByRole("region", { name: "New leads waiting for you" });
  await expect(waiting.getByRole("link", { name: "Morgan Timer", exact: true })).toBeVisible();
  await expect(waiting.getByRole("link", { name: "Call Morgan Timer" })).toHaveAttribute("href", "tel:(512) 555-0177");
  // The timer runs on the device's clock.
  const timer = waiting.locator("time");
  const first = await timer.textContent();
  expect(first).toMatch(/^\d+:\d{2}$/);
  await expect.poll(() => timer.textContent(), { timeout: 5_000 }).not.toBe(first);
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    await expect(waiting).toBeVisible();
    const results = await new AxeBuilder({ page }).include("main").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
      theme,
    ).toEqual([]);
  }

  // The first call clears it.
  const call = await page.request.post("/api/sync/changes", {
    data: {
      changes: [
        {
          key: `lead-timer-call-${Date.now()}`,
          type: "log_activity",
          activity: {
            type: "call",
            contactId: result!.id,
            date: new Date().toISOString().slice(0, 10),
            time: null,
            outcome: "Connected",
            notes: null,
          },
        },
      ],
    },
  });
  expect(((await call.json()).results as { status: string }[])[0]?.status).toBe("applied");
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard", level: 1 })).toBeVisible();
  await expect(page.getByRole("region", { name: "New leads waiting for you" })).toHaveCount(0);
});
