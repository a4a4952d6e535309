// `npm run bench`: a benchmark, not a test. Builds the app, bundles the Worker exactly as `wrangler deploy`
// would (minified), serves that bundle with Miniflare's API (workerd, in-memory D1/KV/DO: the fastest
// faithful local server), seeds a large data set, loads each route in bench/pages.mjs with autocannon, and
// prints requests/s, p50 and p99 latency, each route's ratio to the floor route, and bundle sizes. Then
// Lighthouse (mobile preset, simulated throttling) audits each public page in PUBLIC_PAGES on the same server.
//
//   BENCH_DURATION=10 BENCH_CONNECTIONS=10 npm run bench      (defaults shown; each route also runs up to 5 s
//                                                             with one connection)
//   BENCH_LIGHTHOUSE=0 npm run bench                         (skips Lighthouse)
//   BENCH_ONLY=/dashboard npm run bench                      (only the routes whose path contains this, and the floor)
//   BENCH_ONLY=drafter npm run bench                         (only the offline drafter's latency, bench/drafter.mjs; no server)
//   BENCH_ONLY=bundle npm run bench                          (only the Worker bundle's size; no server)
//   BENCH_ONLY=import npm run bench                          (only the two imports: 10,000 rows, and the largest accepted)
//   BENCH_ONLY=sync npm run bench                            (only the large account's field copy: whole, unchanged, one change)
//   BENCH_ONLY=handover npm run bench                        (only a team member's book handed to a teammate on removal)
//   BENCH_ONLY=intake npm run bench                          (only lead intake: reading an e-mail, and 1,000 e-mails for one agent)
//   BENCH_ONLY=backup npm run bench                          (only the backup, the restore drill and one account's restore)
//   BENCH_ONLY=limits npm run bench                          (only D1 per job under the limits harness, bench/limits.mjs: queries
//                                                             per invocation, longest statement, parameters, SQL size, rows read
//                                                             and written; then the monthly cost of 1,000 agents, bench/cost.mjs)
//   BENCH_ONLY=cost npm run bench                            (the same as limits)
//   BENCH_ONLY=load npm run bench                            (only the load run: 200 signed-in sessions doing a mix of pages and
//                                                             writes for 5 minutes, bench/load.mjs; LOAD_SECONDS to shorten)
//   BENCH_ONLY=tap npm run bench                             (only when /contacts shows its rows and when a tap on one is
//                                                             answered, in headless Chromium: bench/tap.mjs)
//   BENCH_ONLY=recording npm run bench                       (only what the Operations Center's recording costs: the floor
//                                                             and /dashboard with it, then on a second server without it)
//   BENCH_LIGHTHOUSE_RUNS=3 npm run bench                    (audits each page 3 times, keeps the median; default 1)
//   CHROME_PATH=/path/to/chrome npm run bench                 (default /usr/bin/chromium)
//   npm run bench -- --write-readme                          (also records the figures in README.md)
import autocannon from "autocannon";
import { readFileSync, statSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { budgetKib, clientJsPerRoute } from "../scripts/client-js.mjs";
import { root, step } from "../scripts/lib.mjs";
import { PAGES, PUBLIC_PAGES, SIGNED_IN_LIGHTHOUSE_PAGES } from "./pages.mjs";
import { BENCH_USER, SEED_VOLUMES } from "./seed.mjs";
import { benchDrafter } from "./drafter.mjs";
import { benchSync } from "./sync.mjs";
import { benchHandover } from "./handover.mjs";
import { benchIntake, benchIntakeParsing } from "./intake.mjs";
import { benchTap } from "./tap.mjs";
import { largestImportRequest } from "./import-worst-case.mjs";
import { benchAgentRestore, benchBackup } from "./backup.mjs";
import { benchLimits } from "./limits.mjs";
import { costOf1000Agents, measureStorage } from "./cost.mjs";
import { benchLoad, LOAD_SECONDS, LOAD_SESSIONS } from "./load.mjs";
import { buildBundle, clientDir, dist, startSeededServer } from "./server.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SOLO_DURATION = Math.min(DURATION, 5);
// The pause before each one-connection run, so it starts on an idle server (see drained()).
const SETTLE_MS = 2_000;
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== "0";
const ONLY = process.env.BENCH_ONLY;
const LIGHTHOUSE_RUNS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1));
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

// Lighthouse targets for public pages; best-practices is reported without a target.
const LH_CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const LH_TARGETS = { performance: 95, accessibility: 100, seo: 100 };
const LH_SIGNED_IN_TARGETS = { accessibility: 100, "best-practices": 100 };
const LH_JS_TARGET = 80 * 1024;
const mark = (ok) => (ok ? "✓" : "✗");
const pathOf = (url) => url.replace(/^https?:\/\/[^/]+/, "");

/** Up to `max` of an audit's items (element, console message or URL), one short line each. */
function auditItems(audit, max = 3) {
  const items = audit.details?.items ?? [];
  const describe = (item) => {
    const node = item.node;
    if (node?.type === "node") {
      const why = node.explanation
        ?.split("\n")
        .map((l) => l.trim())
        .find((l) => l && !/^Fix (any|all)/.test(l));
      return `${node.selector ?? ""}${node.nodeLabel ? ` "${node.nodeLabel}"` : ""}${why ? `: ${why}` : ""}`;
    }
    if (item.description) return `${item.description}${item.sourceLocation?.url ? ` (${pathOf(item.sourceLocation.url)})` : ""}`;
    if (typeof item.url === "string")
      return `${pathOf(item.url)}${item.wastedBytes ? ` (${kib(item.wastedBytes)} to save)` : ""}${item.wastedMs ? ` (${Math.round(item.wastedMs)} ms to save)` : ""}`;
    return null;
  };
  const lines = items
    .map(describe)
    .filter(Boolean)
    .map((l) => (l.length > 180 ? `${l.slice(0, 177)}…` : l));
  return lines.length > max ? [...lines.slice(0, max), `… and ${lines.length - max} more`] : lines;
}

/** Scores (0–100), script bytes transferred and the failing audits of each below-target category. */
function summarizeLighthouse(page, lhr, signedIn = false) {
  const scores = Object.fromEntries(
    LH_CATEGORIES.map((id) => [id, lhr.categories[id]?.score == null ? null : Math.round(lhr.categories[id].score * 100)]),
  );
  const scripts = (lhr.audits["network-requests"]?.details?.items ?? []).filter((item) => item.resourceType === "Script");
  const jsBytes = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  // A failed stylesheet or script makes every score meaningless (e.g. build/ changed under the server).
  const failedRequests = (lhr.audits["network-requests"]?.details?.items ?? [])
    .filter((item) => item.statusCode >= 400)
    .map((item) => `${item.statusCode} ${pathOf(item.url)}`);
  const below = signedIn
    ? Object.keys(LH_SIGNED_IN_TARGETS).filter((id) => scores[id] === null || scores[id] < LH_SIGNED_IN_TARGETS[id])
    : LH_CATEGORIES.filter((id) => scores[id] === null || scores[id] < (LH_TARGETS[id] ?? 100));
  const failing = {};
  for (const id of below) {
    // Hidden refs (weight-0 duplicates such as the perf "insights") are skipped, as the HTML report does.
    failing[id] = (lhr.categories[id]?.auditRefs ?? [])
      .filter((ref) => ref.group !== "hidden")
      .map((ref) => lhr.audits[ref.id])
      .filter(
        (a) =>
          a &&
          (a.scoreDisplayMode === "error" ||
            (a.score !== null && a.score < 1 && !["informative", "notApplicable", "manual"].includes(a.scoreDisplayMode))),
      )
      .map((a) => ({ id: a.id, title: a.title, score: a.score, displayValue: a.displayValue, error: a.errorMessage, items: auditItems(a) }));
  }
  // Signed-in pages (the app, on the bench's large account) are held to accessibility and best practices;
  // their speed is the load table's business, and SEO does not apply to pages behind sign-in.
  const targets = signedIn ? LH_SIGNED_IN_TARGETS : LH_TARGETS;
  const meets =
    !failedRequests.length &&
    Object.entries(targets).every(([id, target]) => scores[id] !== null && scores[id] >= target) &&
    (signedIn || jsBytes <= LH_JS_TARGET);
  return {
    page,
    signedIn,
    scores,
    jsBytes,
    scripts: scripts.map((s) => ({ url: s.url, transferSize: s.transferSize })),
    failedRequests,
    meets,
    failing,
  };
}

/**
 * Lighthouse on each public page, then each signed-in page with the bench account's session cookie, one at a
 * time, in one headless Chrome. 404 pages are reported, not audited.
 */
async function lighthousePages(origin, sessionCookie) {
  const { default: lighthouse } = await import("lighthouse");
  const { launch } = await import("chrome-launcher");
  const reports = path.join(root, "bench/results/lighthouse");
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const chrome = await launch({
    chromePath: process.env.CHROME_PATH || "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox"],
    logLevel: "silent",
  });
  const results = [];
  let environment = null;
  try {
    // The user agent reports a reduced version (156.0.0.0); the DevTools endpoint has the real one.
    const browser = (await (await fetch(`http://127.0.0.1:${chrome.port}/json/version`)).json()).Browser;
    const pages = [
      ...PUBLIC_PAGES.map((page) => ({ page, signedIn: false })),
      ...SIGNED_IN_LIGHTHOUSE_PAGES.map((page) => ({ page, signedIn: true })),
    ];
    for (const { page, signedIn } of pages) {
      const url = `${origin}${page}`;
      const headers = signedIn ? { Cookie: sessionCookie } : {};
      const check = await fetch(url, { redirect: "manual", headers });
      await check.arrayBuffer();
      if (check.status !== 200) {
        const status = check.status === 404 ? "missing (404)" : `answered ${check.status}, not audited`;
        results.push({ page, signedIn, status });
        console.log(`  ${page}: ${status}`);
        continue;
      }
      try {
        // No config: Lighthouse's default is the mobile preset with simulated throttling. With several runs
        // (performance varies on a busy machine), the run with the median performance score is kept.
        const runs = [];
        for (let i = 0; i < LIGHTHOUSE_RUNS; i++) {
          // A busy machine sometimes loses the trace (NO_NAVSTART): that run is repeated once, not reported.
          for (let attempt = 1; ; attempt++) {
            const result = await lighthouse(url, {
              port: chrome.port,
              logLevel: "error",
              output: "html",
              onlyCategories: LH_CATEGORIES,
              extraHeaders: headers,
            });
            if (!result.lhr.runtimeError) {
              runs.push(result);
              break;
            }
            if (attempt === 2 || result.lhr.runtimeError.code !== "NO_NAVSTART")
              throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
          }
        }
        runs.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
        const result = runs[Math.floor(runs.length / 2)];
        const { lhr } = result;
        environment ??= {
          lighthouse: lhr.lighthouseVersion,
          chrome: browser.split("/")[1],
          benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
        };
        const name = page === "/" ? "index" : page.slice(1).replace(/[^\w-]+/g, "_");
        writeFileSync(path.join(reports, `${signedIn ? "signed-in_" : ""}${name}.html`), result.report);
        const row = summarizeLighthouse(page, lhr, signedIn);
        results.push(row);
        console.log(
          `  ${page}: ${LH_CATEGORIES.map((id) => `${id} ${row.scores[id] ?? "–"}`).join(", ")}, JS ${kib(row.jsBytes)}` +
            `${row.failedRequests.length ? `, ${row.failedRequests.length} failed requests` : ""}${lhr.runWarnings.length ? ` (warnings: ${lhr.runWarnings.join("; ")})` : ""}`,
        );
      } catch (error) {
        results.push({ page, signedIn, status: `Lighthouse failed: ${error.message.split("\n")[0]}` });
        console.log(`  ${page}: Lighthouse failed: ${error.message}`);
      }
    }
  } finally {
    await chrome.kill();
  }
  return { environment, results };
}

function lighthouseTable({ environment, results }) {
  const cell = (row, id) => {
    const targets = row.signedIn ? LH_SIGNED_IN_TARGETS : LH_TARGETS;
    return row.scores[id] === null ? "–" : id in targets ? `${row.scores[id]} ${mark(row.scores[id] >= targets[id])}` : `${row.scores[id]}`;
  };
  const signedIn = results.filter((r) => r.signedIn);
  const signedInTable = [
    "",
    `Signed in (the bench's large account, its session cookie sent with every request). Targets: accessibility ${LH_SIGNED_IN_TARGETS.accessibility}, best-practices ${LH_SIGNED_IN_TARGETS["best-practices"]}; performance and JS are reported, and the load table above holds their targets.`,
    "",
    "| page | performance | accessibility | best-practices | JS transferred | targets |",
    "| --- | ---: | ---: | ---: | ---: | :---: |",
    ...signedIn.map((r) =>
      r.status
        ? `| ${r.page} | ${r.status} | | | | |`
        : `| ${r.page} | ${cell(r, "performance")} | ${cell(r, "accessibility")} | ${cell(r, "best-practices")} | ${kib(r.jsBytes)} | ${r.failedRequests.length ? `invalid: ${r.failedRequests.length} requests failed` : r.meets ? "met" : "missed"} |`,
    ),
  ];
  return [
    `Lighthouse ${environment?.lighthouse ?? "?"} (mobile preset, simulated throttling${LIGHTHOUSE_RUNS > 1 ? `, median of ${LIGHTHOUSE_RUNS} runs` : ""}; Chromium ${environment?.chrome ?? "?"}, benchmark index ${environment?.benchmarkIndex ?? "?"}) on each public page. ` +
      `Targets: performance ≥ ${LH_TARGETS.performance}, accessibility ${LH_TARGETS.accessibility}, SEO ${LH_TARGETS.seo}, ` +
      `JS ≤ ${kib(LH_JS_TARGET)} (sum of the scripts' transferSize: gzip as served, response headers included).`,
    "",
    "| page | performance | accessibility | best-practices | SEO | JS transferred | targets |",
    "| --- | ---: | ---: | ---: | ---: | ---: | :---: |",
    ...results
      .filter((r) => !r.signedIn)
      .map((r) =>
        r.status
          ? `| ${r.page} | ${r.status} | | | | | |`
          : `| ${r.page} | ${cell(r, "performance")} | ${cell(r, "accessibility")} | ${cell(r, "best-practices")} | ${cell(r, "seo")} | ${kib(r.jsBytes)} ${mark(r.jsBytes <= LH_JS_TARGET)} | ${r.failedRequests.length ? `invalid: ${r.failedRequests.length} requests failed` : r.meets ? "met" : "missed"} |`,
      ),
    ...(signedIn.length ? signedInTable : []),
  ].join("\n");
}

/** For each page below target: the failing audits of each category short of its target, and the scripts if JS is over. */
function lighthouseFailures({ results }) {
  const lines = [];
  for (const r of results.filter((r) => !r.status)) {
    const parts = [];
    if (r.failedRequests.length) {
      parts.push(`    ${r.failedRequests.length} requests failed, so these scores do not describe the page:`);
      for (const line of r.failedRequests.slice(0, 5)) parts.push(`      - ${line}`);
      if (r.failedRequests.length > 5) parts.push(`      - … and ${r.failedRequests.length - 5} more`);
    }
    for (const [category, audits] of Object.entries(r.failing)) {
      const targets = r.signedIn ? LH_SIGNED_IN_TARGETS : LH_TARGETS;
      const note = category in targets ? `target ${targets[category]}` : "no target";
      parts.push(`    ${category} ${r.scores[category] ?? "–"} (${note}):`);
      for (const a of audits) {
        const detail = a.error ?? a.displayValue;
        parts.push(`      - ${a.id}: ${a.title}${a.score === null ? "" : ` [score ${a.score}]`}${detail ? ` (${detail})` : ""}`);
        for (const item of a.items) parts.push(`          ${item}`);
      }
      if (!audits.length) parts.push("      (no individual failing audit: the category score is weighted metrics only)");
    }
    if (!r.signedIn && r.jsBytes > LH_JS_TARGET) {
      parts.push(`    JS ${kib(r.jsBytes)} (target ≤ ${kib(LH_JS_TARGET)}):`);
      for (const s of [...r.scripts].sort((a, b) => b.transferSize - a.transferSize)) parts.push(`      - ${kib(s.transferSize)} ${pathOf(s.url)}`);
    }
    if (parts.length) lines.push(`  ${r.signedIn ? "signed-in " : ""}${r.page}:`, ...parts);
  }
  return lines.length
    ? `Lighthouse audits to fix (reports in bench/results/lighthouse/):\n${lines.join("\n")}`
    : "Lighthouse: every audited page meets its targets.";
}

/** The loader's own time (Server-Timing) over 50 sequential requests: p50 and p99 in ms. */
async function serverTime(url, headers) {
  const times = [];
  for (let i = 0; i < 50; i++) {
    const response = await fetch(url, { headers });
    await response.arrayBuffer();
    const dur = Number(/dur=([\d.]+)/.exec(response.headers.get("Server-Timing") ?? "")?.[1]);
    if (Number.isFinite(dur)) times.push(dur);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99) };
}

/** Pauses SETTLE_MS, then until three pings in a row answer within 20 ms (at most 10 s): the server is idle. */
async function drained(origin) {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const deadline = Date.now() + 10_000;
  for (let fast = 0; fast < 3 && Date.now() < deadline; ) {
    const started = performance.now();
    await (await fetch(`${origin}/api/ping`)).arrayBuffer();
    fast = performance.now() - started < 20 ? fast + 1 : 0;
  }
}

function load(url, headers, connections = CONNECTIONS, duration = DURATION) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

// The offline drafter is pure TypeScript, timed in Node before (and without) the server.
const drafter = !ONLY || ONLY === "drafter" ? await benchDrafter() : null;
if (ONLY === "drafter") process.exit(0);

const workerPath = await buildBundle();
const workerGzip = gz(workerPath);
const workerSize = `Worker bundle (minified, as deployed): ${kib(statSync(workerPath).size)}, ${kib(workerGzip)} gzip.`;
if (ONLY === "bundle") {
  console.log(`\n${workerSize}`);
  process.exit(0);
}
if (ONLY === "limits" || ONLY === "cost") {
  // Measured, every step of the drill logs its report through workerd's output socket. Miniflare's proxy calls block
  // this thread, and with Linux's default socket buffer (208 KB) the drill's reports fill it during one: workerd waits
  // for the buffer, this thread for workerd, and the bench hangs. 4 MB holds them (sysctl, as root).
  const buffer = Number(readFileSync("/proc/sys/net/core/wmem_default", "utf8"));
  if (buffer < 4_194_304)
    console.log(
      `\nNote: net.core.wmem_default is ${buffer.toLocaleString("en-US")} bytes; the drill's row may hang the bench. ` +
        "As root: sysctl -w net.core.wmem_default=4194304 net.core.rmem_default=4194304",
    );
  const server = await startSeededServer(workerPath, { d1Limits: "measure" });
  step("The large account's jobs under the D1 limits harness (measure mode)");
  const jobs = await benchLimits(server.mf, server.origin, server.sessionCookie, server.d1Reports);
  step("What 1,000 agents cost a month, from those figures (bench/cost.mjs)");
  console.log(`\n${costOf1000Agents(jobs, await measureStorage(server.mf)).table}\n`);
  await server.mf.dispose();
  process.exit(0);
}
if (ONLY === "load") {
  const server = await startSeededServer(workerPath);
  step(`${LOAD_SESSIONS} signed-in sessions for ${LOAD_SECONDS} s (bench/load.mjs)`);
  console.log(`\n${await benchLoad(server.mf, server.origin, server.sessionCookie)}\n`);
  await server.mf.dispose();
  process.exit(0);
}
const { mf, origin, sessionCookie } = await startSeededServer(workerPath);

// The contact list in a browser, before any load run: rows visible, then rows answering a tap.
let tapLine = null;
if (!ONLY || ONLY === "tap") {
  step("When /contacts shows its rows and answers a tap (headless Chromium, CPU slowed 4×)");
  tapLine = await benchTap(origin, sessionCookie);
  console.log(`  ${tapLine}`);
  if (ONLY === "tap") {
    await mf.dispose();
    process.exit(0);
  }
}

step(`Loading each route for ${DURATION} s with ${CONNECTIONS} connections`);
const rows = [];
/** The routes the recording's cost is shown on: the floor (no binding touched) and the large dashboard. */
const RECORDING_ROUTES = PAGES.filter((p) => p.floor || p.name === "signed-in /dashboard (large account)");
const pagesToLoad = ONLY === "import" ? [] : ONLY === "recording" ? RECORDING_ROUTES : PAGES.filter((p) => !ONLY || p.floor || p.path.includes(ONLY));
for (const page of pagesToLoad) {
  const check = await fetch(`${origin}${page.path}`, { redirect: "manual", headers: page.auth ? { Cookie: sessionCookie } : {} });
  if (check.status !== 200) throw new Error(`${page.path} answered ${check.status}, not 200: the bench would measure an error page`);
  const result = await load(`${origin}${page.path}`, page.auth ? { Cookie: sessionCookie } : {});
  // One connection: what a single request costs when nothing queues ahead of it on the one workerd thread. It
  // waits first until the 10-connection run's leftover queue has drained (ADR 0013), or its p99 would time that queue.
  await drained(origin);
  const alone = await load(`${origin}${page.path}`, page.auth ? { Cookie: sessionCookie } : {}, 1, SOLO_DURATION);
  const errors = result.errors + result.non2xx + alone.errors + alone.non2xx;
  const server = page.serverTiming ? await serverTime(`${origin}${page.path}`, page.auth ? { Cookie: sessionCookie } : {}) : null;
  rows.push({
    ...page,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    soloP50: alone.latency.p50,
    soloP99: alone.latency.p99,
    errors,
    server,
  });
  console.log(
    `  ${page.name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; ` +
      `1 connection p50 ${alone.latency.p50} ms, p99 ${alone.latency.p99} ms${errors ? `, ${errors} errors` : ""}` +
      (server ? `; loader time alone p50 ${server.p50} ms, p99 ${server.p99} ms` : ""),
  );
}

/** What the Operations Center's request recording costs (ADR 0024): the same routes on a second server with it off. */
async function recordingCost() {
  await mf.dispose();
  step("The same routes with request recording off (OPS_RECORDING=off), on a fresh server");
  const off = await startSeededServer(workerPath, { opsRecording: false });
  const lines = [];
  for (const page of RECORDING_ROUTES) {
    const on = rows.find((r) => r.name === page.name);
    const headers = page.auth ? { Cookie: off.sessionCookie } : {};
    const result = await load(`${off.origin}${page.path}`, headers);
    await drained(off.origin);
    const alone = await load(`${off.origin}${page.path}`, headers, 1, SOLO_DURATION);
    const pct = (a, b) => `${a >= b ? "+" : "−"}${Math.abs(((a - b) / b) * 100).toFixed(1)}%`;
    lines.push(
      `| ${page.name} | ${Math.round(result.requests.average)} / ${Math.round(on.rps)} (${pct(on.rps, result.requests.average)}) | ${result.latency.p50} / ${on.p50} | ${alone.latency.p50} / ${on.soloP50} |`,
    );
  }
  await off.mf.dispose();
  return [
    "Recording's cost (Operations Center, ADR 0024): each route without recording / with it.",
    "",
    "| route | requests/s | p50 ms | 1 connection p50 ms |",
    "| --- | ---: | ---: | ---: |",
    ...lines,
  ].join("\n");
}
if (ONLY === "recording") {
  console.log(`\n${await recordingCost()}\n`);
  process.exit(0);
}

// The daily backup and the weekly restore drill, through the cron, on the seeded database.
let backupLines = null;
if (!ONLY || ONLY === "backup") {
  step("Backup and restore drill of the seeded database (the cron's scheduled handler)");
  backupLines = await benchBackup(mf);
  step("Restoring the large account from that backup (Operations Center → Backup → Restore)");
  backupLines += `\n${await benchAgentRestore(mf, origin, sessionCookie, BENCH_USER.email)}`;
  console.log(`  ${backupLines.split("\n").join("\n  ")}`);
  if (ONLY === "backup") {
    await mf.dispose();
    process.exit(0);
  }
}

// The phone's field copy of the large account.
let syncLines = null;
if (!ONLY || ONLY === "sync") {
  step("The field copy of the large account (GET /api/sync): whole, then unchanged, then after one change");
  syncLines = await benchSync(origin, sessionCookie);
  console.log(`  ${syncLines.split("\n").join("\n  ")}`);
  if (ONLY === "sync") {
    await mf.dispose();
    process.exit(0);
  }
}

// A team member's book handed to a teammate on removal: after the team's pages were measured.
let handoverLine = null;
if (!ONLY || ONLY === "handover") {
  step("Removing a bench team member and handing their book to a teammate (POST /team)");
  handoverLine = await benchHandover(mf, origin, sessionCookie);
  console.log(`  ${handoverLine}`);
  if (ONLY === "handover") {
    await mf.dispose();
    process.exit(0);
  }
}

// Lead intake by e-mail: reading one (Node), then 1,000 for the large account through the email() handler.
let intakeLines = null;
if (!ONLY || ONLY === "intake") {
  step("Lead intake: reading lead e-mails, then 1,000 of them for one agent (the email() handler)");
  intakeLines = `${await benchIntakeParsing()}\n${await benchIntake(mf, origin)}`;
  console.log(`  ${intakeLines.split("\n").join("\n  ")}`);
  if (ONLY === "intake") {
    await mf.dispose();
    process.exit(0);
  }
}

// Importing 10,000 contacts (one JSON request, as the import screen sends it), timed end to end.
step("Importing 10,000 contacts through /api/contacts/import");
const importRows = Array.from({ length: 10_000 }, (_, i) => [
  `Imported Person ${i}`,
  `import${i}@example.com`,
  `(555) 200-${String(i % 10000).padStart(4, "0")}`,
  "buyer; import",
  "Maple Grove",
  "$400k - $650k",
  "Lead",
]);
const importStart = performance.now();
const imported = await fetch(`${origin}/api/contacts/import`, {
  method: "POST",
  headers: { Cookie: sessionCookie, Origin: origin, "Content-Type": "application/json" },
  body: JSON.stringify({ rows: importRows, mapping: ["name", "email", "phone", "tags", "location", "budget_range", "status"], mode: "skip" }),
});
const importMs = Math.round(performance.now() - importStart);
if (imported.status !== 200) throw new Error(`the import answered ${imported.status}`);
console.log(`  10,000 rows imported in ${importMs} ms`);

// The worst case the import accepts: its row limit and its byte limit at once, every row valid (ADR 0021).
const worst = largestImportRequest({ tag: `worst-${Date.now()}` });
step(`Importing the largest accepted request: ${worst.rows.toLocaleString("en-US")} rows, ${(worst.bytes / 1e6).toFixed(1)} MB`);
const worstStart = performance.now();
const worstAnswer = await fetch(`${origin}/api/contacts/import`, {
  method: "POST",
  headers: { Cookie: sessionCookie, Origin: origin, "Content-Type": "application/json" },
  body: worst.body,
});
const worstMs = Math.round(performance.now() - worstStart);
const worstSummary = await worstAnswer.json();
if (worstAnswer.status !== 200 || worstSummary.summary?.created !== worst.rows)
  throw new Error(`the largest import answered ${worstAnswer.status}: ${JSON.stringify(worstSummary).slice(0, 200)}`);
const worstLine = `Importing the largest request the import accepts (${worst.rows.toLocaleString("en-US")} rows, ${(worst.bytes / 1e6).toFixed(1)} MB, one request, all or nothing): ${worstMs} ms.`;
console.log(`  ${worstLine}`);
if (ONLY === "import") {
  await mf.dispose();
  process.exit(0);
}

// Lighthouse against the same server (http://127.0.0.1:<port>, which Chrome treats as a secure context), so its
// canonical, robots.txt and crawlability checks read what the Worker itself serves.
let lh = null;
if (LIGHTHOUSE) {
  step(
    `Lighthouse (mobile, simulated throttling) on ${PUBLIC_PAGES.length} public and ${SIGNED_IN_LIGHTHOUSE_PAGES.length} signed-in pages, one at a time`,
  );
  try {
    lh = await lighthousePages(origin, sessionCookie);
  } catch (error) {
    console.log(`  Lighthouse could not run: ${error.message}`);
  }
}
const recording = ONLY ? null : await recordingCost();
if (ONLY) await mf.dispose();

const floor = rows.find((r) => r.floor);
const perRoute = clientJsPerRoute({ manifest: path.join(dist, "client-manifest.json"), clientDir });
const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpu}, Node ${process.version}; ` +
    `${CONNECTIONS} connections, ${DURATION} s per route; seeded ${Object.entries(SEED_VOLUMES)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}.`,
  "",
  `| route | requests/s | p50 ms | p99 ms | 1 connection p50 / p99 ms | vs floor | loader p50 / p99 ms |`,
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows.map(
    (r) =>
      `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.soloP50} / ${r.soloP99} | ${r.floor ? "1.00" : (r.rps / floor.rps).toFixed(2)} | ${r.server ? `${r.server.p50} / ${r.server.p99}` : ""} |`,
  ),
  "",
  `Importing 10,000 contacts (one request, all or nothing): ${importMs} ms.`,
  worstLine,
  ...(backupLines ? ["", backupLines] : []),
  ...(syncLines ? ["", syncLines] : []),
  ...(tapLine ? ["", tapLine] : []),
  ...(handoverLine ? ["", handoverLine] : []),
  ...(intakeLines ? ["", intakeLines] : []),
  ...(recording ? ["", recording] : []),
  ...(drafter
    ? [
        "",
        `Offline drafter (Node, ${drafter.drafts.toLocaleString("en-US")} drafts over ${drafter.scenarios} scenarios, all tasks): p50 ${drafter.p50} ms, p90 ${drafter.p90} ms.`,
      ]
    : []),
  "",
  workerSize,
  "",
  "| client JS per route (gzip) | size | budget |",
  "| --- | ---: | ---: |",
  ...perRoute.map((r) => `| ${r.route} | ${r.static ? "none (static page)" : kib(r.gzip)} | ${budgetKib(r.route) ?? "none"} KiB |`),
].join("\n");

console.log(`\n${table}\n`);
const lhTable = lh ? lighthouseTable(lh) : null;
if (lh) console.log(`${lhTable}\n\n${lighthouseFailures(lh)}\n`);
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(
  path.join(root, "bench/results/latest.json"),
  JSON.stringify(
    { rows, workerGzip, perRoute, duration: DURATION, connections: CONNECTIONS, ...(drafter ? { drafter } : {}), ...(lh ? { lighthouse: lh } : {}) },
    null,
    2,
  ),
);

if (process.argv.includes("--write-readme")) {
  const readme = path.join(root, "README.md");
  const text = readFileSync(readme, "utf8").replace(
    /<!-- bench:start -->[\s\S]*<!-- bench:end -->/,
    `<!-- bench:start -->\n${lhTable ? `${table}\n\n${lhTable}` : table}\n<!-- bench:end -->`,
  );
  writeFileSync(readme, text);
  console.log("README.md performance section updated.");
}
