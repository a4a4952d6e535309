/* global window, document, requestAnimationFrame */
// When the contact list answers a tap: `BENCH_ONLY=tap npm run bench`. Headless Chromium (Debian's, or CHROME_PATH)
// driven by Playwright opens /contacts on the large account at a phone's width with the CPU slowed 4× (Lighthouse's
// mobile preset), and reports, from navigation start (median of RUNS loads):
//
// - rows visible: the first animation frame in which a contact row's link is in the DOM (a rAF loop installed
//   before the document, so the figure is the frame that paints the row).
// - rows clickable: the first real tap (CDP Input events, queued behind whatever holds the main thread, exactly as
//   a finger's) that React handles: Remix's <Link> calls preventDefault and starts a client-side navigation. Taps
//   are sent one after another from the moment the row is in the DOM; a window listener (bubble phase, after
//   React's root listener) reads `defaultPrevented` and then cancels the default itself, so a tap that lands
//   before hydration neither counts nor reloads the page. The time is when the tap's click handler ran, so a tap
//   sent while a long task runs counts only when that task lets go. The contact's data request (/contacts/<id>.data)
//   is held open, so the list stays on screen for the next tap.
import { chromium } from "@playwright/test";

const RUNS = 5;
const CPU_SLOWDOWN = 4;
const WINDOW_MS = 20_000;
const ROW_LINK = '[data-contact-row] a[href^="/contacts/"]:not([href*="#"])';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function oneLoad(browser, origin, sessionCookie) {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: false });
  try {
    const [name, value] = sessionCookie.split("=");
    await context.addCookies([{ name, value, url: origin }]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
    // Held, never answered: the list stays on screen, and a later tap still starts its own navigation.
    await page.route(/\/contacts\/[^/?]+\.data/, () => {});
    // A full page load of the contact (a tap the browser handled itself) answers 204, so the list stays.
    await page.route(/\/contacts\/[^/?.]+$/, (route) => (route.request().isNavigationRequest() ? route.fulfill({ status: 204 }) : route.continue()));
    await page.addInitScript((selector) => {
      const frame = () => {
        if (document.querySelector(selector)) window.__rowsVisible = performance.now();
        else requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      // Before hydration nothing else cancels a tap: the browser's own navigation is cancelled here (bubble phase,
      // after React's root listener), and answered 204 above should one get through.
      window.addEventListener("click", (event) => event.preventDefault());
      // Remix asks for the contact's data from the <Link>'s click handler: the first such fetch is when React
      // handled a tap.
      const fetch = window.fetch;
      window.fetch = (input, init) => {
        if (window.__tapAnswered === undefined && /\/contacts\/[^/?]+\.data/.test(String(input instanceof Request ? input.url : input)))
          window.__tapAnswered = performance.now();
        return fetch(input, init);
      };
    }, ROW_LINK);
    let answered = false;
    page.on("request", (request) => {
      if (/\/contacts\/[^/?]+\.data/.test(request.url())) answered = true;
    });
    await page.goto(`${origin}/contacts`, { waitUntil: "commit" });
    const link = page.locator(ROW_LINK).first();
    await link.waitFor({ state: "visible" });
    await page.waitForFunction(() => window.__rowsVisible !== undefined);
    const visible = await page.evaluate(() => window.__rowsVisible);
    const start = Date.now();
    let taps = 0;
    while (!answered && Date.now() - start < WINDOW_MS) {
      // The row moves while the page settles (styles, the app's chrome): it is found again before each tap. Input
      // goes through CDP directly, as Playwright's click would wait on the 204 navigation of an unanswered tap.
      const { x, y } = await page.evaluate((selector) => {
        const rect = document.querySelector(selector).getBoundingClientRect();
        return { x: rect.x + 10, y: rect.y + rect.height / 2 };
      }, ROW_LINK);
      await cdp.send("Input.dispatchMouseEvent", { type: "mousePressed", x, y, button: "left", clickCount: 1 });
      await cdp.send("Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button: "left", clickCount: 1 });
      taps++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const clickable = answered ? await page.evaluate(() => window.__tapAnswered ?? null) : null;
    return { visible, clickable, taps };
  } finally {
    await context.close();
  }
}

/** Rows visible and rows clickable on /contacts (ms from navigation start, median of RUNS loads), one line. */
export async function benchTap(origin, sessionCookie) {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || "/usr/bin/chromium", args: ["--no-sandbox"] });
  const runs = [];
  try {
    for (let i = 0, repeated = 0; i < RUNS; i++) {
      let run;
      try {
        run = await oneLoad(browser, origin, sessionCookie);
      } catch (error) {
        // Seldom, a tap that lands before hydration still leaves the page: that load is repeated, not reported.
        if (!/Execution context was destroyed/.test(error.message) || ++repeated > RUNS) throw error;
        console.log(`  load ${i + 1} left the page before React answered a tap: repeated`);
        i--;
        continue;
      }
      console.log(`  load ${i + 1}: rows visible ${Math.round(run.visible)} ms, rows clickable ${Math.round(run.clickable)} ms, ${run.taps} taps`);
      runs.push(run);
    }
  } finally {
    await browser.close();
  }
  const figure = (key) => Math.round(median(runs.map((r) => r[key] ?? Number.POSITIVE_INFINITY)));
  return (
    `/contacts on the large account, 375 px, CPU slowed ${CPU_SLOWDOWN}× (median of ${RUNS} loads, from navigation start): ` +
    `rows visible ${figure("visible")} ms, rows clickable ${figure("clickable")} ms.`
  );
}
