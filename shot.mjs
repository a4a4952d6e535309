import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:8787";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const page = await ctx.newPage();
await page.goto(base + "/auth");
await page.getByLabel("Email").fill("demo@porchlight.app");
await page.getByLabel("Password", { exact: true }).fill("porchlight-demo");
await page.getByRole("button", { name: /sign in/i }).click();
await page.waitForURL("**/dashboard");
// Browse: full page loads, each left (pagehide sends its beacon).
for (const p of ["/contacts", "/pipeline", "/tasks", "/reports", "/dashboard"]) { await page.goto(base + p); await page.waitForLoadState("load"); }
await page.goto(base + "/settings");
await fetch(base + "/__scheduled?cron=*/5+*+*+*+*");
for (const [w, h, scheme, tab] of [[375, 812, "light", "monitoring"], [1280, 900, "dark", "monitoring"], [375, 812, "dark", "thresholds"], [1280, 900, "light", "thresholds"]]) {
  const p2 = await ctx.newPage();
  await p2.setViewportSize({ width: w, height: h });
  await p2.emulateMedia({ colorScheme: scheme });
  await p2.goto(base + "/operations?tab=" + tab);
  await p2.screenshot({ path: `/tmp/pw/ops-${tab}-${w}-${scheme}.png`, fullPage: true });
  console.log(tab, w, await p2.evaluate(() => document.documentElement.scrollWidth));
  await p2.close();
}
await browser.close();
