import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { shiftClock } from "../../app/lib/clock";
import accounts from "./accounts.json" with { type: "json" };

export type Account = { email: string; password: string; id?: string };
/** The spec accounts (one or more per spec, so sign-outs and limits never collide), seeded by scripts/serve-e2e.mjs. */
export const ACCOUNTS = accounts as Record<keyof typeof accounts, Account>;
/** The demo account the README documents. */
export const DEMO: Account = { email: "demo@porchlight.app", password: "porchlight-demo" };

// Each test browses from its own client address, so the server's per-IP sign-in limits of one test never
// reach another (Cloudflare sets CF-Connecting-IP in production; locally the header passes through).
export const test = base.extend({
  context: async ({ context }, use) => {
    // Random, not a counter: Playwright restarts its worker after a failure, which would reset a counter.
    const [a, b, c] = randomBytes(3);
    await context.setExtraHTTPHeaders({ "CF-Connecting-IP": `10.${a}.${b}.${c}` });
    // `TEST_NOW=… npm run test:e2e`: the server runs as of TEST_NOW (scripts/serve-e2e.mjs), and so do the
    // page and this test process, on one clock that started with the run.
    if (TEST_NOW_RUNNING) await context.addInitScript(shiftClock, new Date().toISOString());
    resendOnStaleSocket(context.request);
    await use(context);
  },
});

/**
 * An API request of the context (page.request, context.request) that fails with "socket hang up" on a reused
 * connection is sent once more, as Chromium does for a reused socket that closes before any answer. Playwright's
 * request context keeps sockets alive and reuses them; the dev server closes a socket idle for 5,000 ms (measured:
 * closed after 4,999 ms). A request written to a socket at that moment fails without reaching the server: data.spec
 * failed so in a full run, its request.get never logged by the server. Asking for `Connection: close` does not help:
 * the dev server ignores it (curl re-used the connection after a request that asked for close, and the answer had
 * no Connection header), so the client keeps the socket for the next request. (get, post and the rest all go
 * through fetch.)
 */
function resendOnStaleSocket(request: APIRequestContext) {
  const fetch = request.fetch.bind(request);
  request.fetch = async (urlOrRequest, options = {}) => {
    try {
      return await fetch(urlOrRequest, options);
    } catch (error) {
      if (!/socket hang up|ECONNRESET/.test(String(error))) throw error;
      return fetch(urlOrRequest, options);
    }
  };
}
export { expect };

// The test process keeps the clock the server keeps: TEST_NOW from the moment the run started.
const TEST_NOW_RUNNING = Boolean(process.env.TEST_NOW);
if (process.env.TEST_NOW) shiftClock(process.env.TEST_NOW);

/** Accounts keep their calendar in America/New_York: "today" and dates in specs are that zone's days. */
const TZ = "America/New_York";

/** The New York calendar day `offsetDays` from today ("YYYY-MM-DD"). */
export function nyDay(offsetDays = 0): string {
  const [y, m, d] = new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" })
    .format(new Date())
    .split("-")
    .map(Number);
  return new Date(Date.UTC(y!, m! - 1, d! + offsetDays)).toISOString().slice(0, 10);
}

/** The New York day the e2e server seeded its accounts (the demo data is dated from it). */
export function seededDay(): string {
  const { at } = JSON.parse(readFileSync(path.join(process.cwd(), ".wrangler", "e2e", "seeded.json"), "utf8")) as { at: string };
  return new Intl.DateTimeFormat("en-CA", { timeZone: TZ, year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(at));
}

/**
 * Waits (on the clock, polling) until the current minute has at least 30 seconds left, for bursts that a
 * fixed one-minute rate-limit window must hold whole. Returns at once in the first half of a minute.
 * The wait can take up to 30 seconds, so it adds that to the test's time limit: without it, auth.spec timed
 * out once in five runs when its burst started late in a minute (the wait used up the 30-second budget).
 */
export async function waitForFreshMinute(): Promise<void> {
  const info = test.info();
  info.setTimeout(info.timeout + 35_000);
  await expect.poll(() => new Date().getUTCSeconds() < 30, { timeout: 35_000, intervals: [250] }).toBe(true);
}

/** Whole days from `from` to `to` ("YYYY-MM-DD" each). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Phone layout (under Tailwind's md breakpoint, 768 px): some actions sit in menus there. */
export function isPhone(page: Page): boolean {
  return (page.viewportSize()?.width ?? 1280) < 768;
}

/** Opens the header's "More" menu where there is one (phones); on wider screens every action is in the row. */
export async function openMoreOnPhone(page: Page): Promise<void> {
  if (isPhone(page)) await page.getByRole("button", { name: "More", exact: true }).click();
}

/**
 * Signs in through the server's sign-in action (one POST, the session cookie lands in the page's context), then opens
 * where that sends the agent and waits for `landing`. The journeys start signed in; the form itself is tested by
 * auth.spec and a11y.spec (signInWithForm), so the 100-odd journeys do not each load, hydrate and type into it.
 */
export async function signIn(page: Page, account: Account, landing = "/dashboard") {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const response = await page.request.post("/auth", {
    form: { mode: "signin", email: account.email, password: account.password, redirectTo: "" },
    headers: { Origin: origin },
    maxRedirects: 0,
  });
  expect(response.status(), `signing in as ${account.email}`).toBe(302);
  await page.goto(response.headers()["location"]!);
  await page.waitForURL(`**${landing}`);
}

/** Signs in as a person does: the form on /auth, typed and submitted. */
export async function signInWithForm(page: Page, account: Account, landing = "/dashboard") {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**${landing}`);
}

/** The page does not scroll sideways at its viewport (every journey checks its pages at 375 and 1280 px). */
export async function expectNoSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(0);
}

/** WCAG 2.2 AA, the level the product promises. */
const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** axe-core finds no WCAG 2.2 AA violation on the page (or inside `include`, a CSS selector). */
export async function expectNoViolations(page: Page, label: string, include?: string) {
  let builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `${label} has accessibility violations`).toEqual([]);
}

/**
 * A member on a device of their own at `width` px (its own context and client address), signed in through the form:
 * the team specs sign several people in side by side.
 */
export async function signedInAt(browser: Browser, account: Account, width: number) {
  const [a, b] = randomBytes(2);
  const context = await browser.newContext({ extraHTTPHeaders: { "CF-Connecting-IP": `10.141.${a}.${b}` }, viewport: { width, height: 900 } });
  const page = await context.newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/auth"));
  return { page, close: () => context.close() };
}

/** The page's main content is axe clean in light and dark, with a screenshot of each to look at. */
export async function expectNoViolationsInBothThemes(page: Page, label: string) {
  for (const theme of ["light", "dark"]) {
    await page.evaluate((t) => localStorage.setItem("porchlight-theme", t), theme);
    await page.reload();
    await expectNoViolations(page, `${label} (${theme})`, "main");
    const name = `${label.replace(/\W+/g, "-")}-${page.viewportSize()?.width}-${theme}`;
    await page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true });
  }
  await page.evaluate(() => localStorage.setItem("porchlight-theme", "light"));
}
