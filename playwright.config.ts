import { defineConfig, devices } from "@playwright/test";

const PORT = process.env.E2E_PORT ?? "8788";

// End-to-end tests drive Debian's Chromium against the production build served by wrangler (workerd) with
// a fresh local database (scripts/serve-e2e.mjs). Playwright cannot download browsers here.
export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  reporter: [["list"], ["json", { outputFile: "test-results/e2e-results.json" }]],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // The service worker runs in every spec, as it does for users (ADR 0019); pwa.spec.ts tests it directly.
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  // Every journey runs once, at its natural width: a phone's (mobile-first; a spec's "on a desktop" group sets 1280 px
  // where a journey differs there). The desktop project is one tour of every page at 1280 px: the sidebar, the page's
  // width, and axe in light and dark (tour.spec).
  projects: [
    { name: "mobile", use: { ...devices["Desktop Chrome"], viewport: { width: 375, height: 812 }, hasTouch: true }, testIgnore: /\/tour\.spec\.ts$/ },
    { name: "desktop", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } }, testMatch: /\/tour\.spec\.ts$/ },
  ],
  webServer: {
    command: "node scripts/serve-e2e.mjs",
    url: `http://127.0.0.1:${PORT}/api/ping`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
  },
});
