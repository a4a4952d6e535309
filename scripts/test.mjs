// `npm test`: every test. Builds the production bundle (the Worker tests and the end-to-end tests both run
// against it), type-checks, lints, checks the formatting, the dependency rule and for dead code, runs the vitest suites
// inside workerd, then Playwright in Debian's Chromium.
import { existsSync, readFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { calendarTestFiles, testFiles } from "../tests/calendar-files.mjs";
import { clientJsPerRoute, overBudget, signedInShell } from "./client-js.mjs";
import { bin, localEnv, root, run, step } from "./lib.mjs";
import { assertEachModuleOnce } from "./worker-bundle.mjs";

// 01:30 in New York on the Sunday US clocks spring forward (an hour that does not exist follows),
// 29 February of a leap year in UTC while New York is still on the 28th (a month end between zones), and
// 1 January in UTC while New York is still on 31 December (a year end between zones: "tomorrow" is next year).
const HARD_INSTANTS = ["2027-03-14T06:30:00Z", "2028-02-29T04:30:00Z", "2027-01-01T03:00:00Z"];

const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });

async function ensureChromium() {
  if (existsSync(chromium)) return;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Chromium is needed for the end-to-end tests and was not found at ${chromium}.
Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
    process.exit(1);
  }
  step("Installing Debian's Chromium for the end-to-end tests (apt-get)");
  await run("apt-get", ["update", "-qq"]);
  await run("apt-get", ["install", "-y", "-qq", "chromium"], { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
}

const outcomes = [];
async function stage(name, fn) {
  step(name);
  const started = performance.now();
  try {
    await fn();
    outcomes.push({ name, ok: true, seconds: (performance.now() - started) / 1000 });
  } catch (error) {
    console.error(error instanceof Error ? error.message.split("\n")[0] : error);
    outcomes.push({ name, ok: false, seconds: (performance.now() - started) / 1000 });
  }
}

/**
 * Runs one stage with its output kept: printed whole when it fails, or its last `tail` lines when it passes, so stages
 * that run side by side never interleave their output.
 */
async function quietStage([name, command, args, env], { tail = 0 } = {}) {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  try {
    const output = await run(command, args, { quiet: true, ...(env ? { env: { ...localEnv, ...env } } : {}) });
    outcomes.push({ name, ok: true, seconds: seconds() });
    const last = tail
      ? stripVTControlCharacters(output)
          .trimEnd()
          .split("\n")
          .slice(-tail)
          .map((line) => `    ${line}`)
      : [];
    console.log([`✓ ${name} (${duration(seconds())})`, ...last].join("\n"));
  } catch (error) {
    outcomes.push({ name, ok: false, seconds: seconds() });
    console.error(`✗ ${name}\n${error instanceof Error ? error.message : error}`);
  }
}

/**
 * Stages that each run in one Node or workerd process, mostly on one core: two at a time on this 2-core machine
 * (each stage is [name, command, args, env?]).
 */
async function twoAtATime(list, options) {
  const queue = [...list];
  const lane = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await quietStage(next, options);
  };
  await Promise.all([lane(), lane()]);
}
const runStarted = performance.now();
/** "1 min 05 s" or "42 s". */
const duration = (seconds) =>
  seconds >= 60 ? `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, "0")} s` : `${Math.round(seconds)} s`;

function readJson(file) {
  try {
    return JSON.parse(readFileSync(path.join(results, file), "utf8"));
  } catch {
    return null;
  }
}

await ensureChromium();
step("Build and static checks, two at a time");
await twoAtATime([
  ["Build (remix vite:build)", bin("remix"), ["vite:build"]],
  ["Type-check (tsc)", bin("tsc"), ["--noEmit"]],
  // The layers point one way and nothing goes round in a circle (.dependency-cruiser.cjs says the rule).
  ["Dependency rule (dependency-cruiser)", "npm", ["run", "--silent", "deps"]],
  // No unused files, exports or dependencies (knip.jsonc says what runs that knip cannot see).
  ["Dead code (knip)", "npm", ["run", "--silent", "knip"]],
  // The same commands as `npm run lint` and `npm run format:check` (package.json holds their options).
  ["Lint (eslint)", "npm", ["run", "--silent", "lint"]],
  ["Format check (biome)", "npm", ["run", "--silent", "format:check"]],
  // Comments and docs say what the code does, not which tracker entry it came from.
  ["No tracker numbers in comments and docs", "node", ["scripts/no-issue-refs.mjs"]],
]);
// The Worker as wrangler deploys it takes the routes, /api, the cron's jobs and the Durable Objects from the one server
// build: a module bundled a second time from source would exist twice, caches and all (ADR 0052). Its gzip size, as
// wrangler reports the upload, stays within the budget ADR 0061 sets, well under Cloudflare's limit.
await stage("Worker bundle: each module once, size budget, environments", assertEachModuleOnce);
// Every signed-in page loads the shell: it must not carry zod (25 KiB gzip). Constants and types the shell needs live
// in zod-free files (trash/trash.ts, deals/deal.messages.ts); the forms' schemas load with their pages.
await stage("Client JS: the signed-in shell holds no zod", async () => {
  const shell = signedInShell();
  console.log(`signed-in shell: ${(shell.gzip / 1024).toFixed(1)} KiB gzip in ${shell.files.length} files`);
  if (shell.withZod.length > 0) throw new Error(`zod is in the signed-in shell: ${shell.withZod.join(", ")}`);
});
// Each route's client JavaScript against its budget (JS_BUDGET_KIB in scripts/client-js.mjs): /auth 80 KiB, the
// contacts list 150 KiB, every other signed-in page a little above its figure when the budget was set.
await stage("Client JS: every route within its budget", async () => {
  const over = overBudget(clientJsPerRoute());
  if (over.length > 0) throw new Error(`client JavaScript over budget: ${over.join("; ")}`);
});
// The Worker tests on the real clock; beside them, the ones that read the calendar again "as of" instants chosen to be
// hard (ADR 0020): a test that reads the real clock but assumes a day, a month or a timezone offset fails there even
// when today happens to be kind to it. Which files read the calendar is decided from their sources at each run
// (tests/calendar-files.mjs). A vitest run keeps one workerd busy, about one core: the two lanes share the machine.
const calendarFiles = calendarTestFiles(root);
step(
  `Worker tests (vitest in workerd): all ${testFiles(root).length} files now, and beside them the ${calendarFiles.length} that read the calendar at ${HARD_INSTANTS.length} hard instants`,
);
await Promise.all([
  quietStage(
    [
      "Unit and Worker tests (vitest in workerd)",
      bin("vitest"),
      ["run", "--reporter=default", "--reporter=json", "--outputFile=test-results/vitest-results.json"],
    ],
    { tail: 6 },
  ),
  (async () => {
    for (const [index, instant] of HARD_INSTANTS.entries()) {
      await quietStage(
        [
          `Worker tests as of ${instant}`,
          bin("vitest"),
          ["run", "--reporter=dot", "--reporter=json", `--outputFile=test-results/vitest-results-at-${index}.json`, ...calendarFiles],
          { TEST_NOW: instant, VITEST_LANE: "calendar" },
        ],
        { tail: 6 },
      );
    }
  })(),
]);
await stage("End-to-end tests (Playwright, Chromium)", () => run(bin("playwright"), ["test"]));

// A failed end-to-end test: what the server answered while it ran (scripts/serve-e2e.mjs keeps the log). A request
// the trace shows sent but missing here never finished on the server, the first thing to know about a hang.
function serverLogDuringFailures() {
  const report = readJson("e2e-results.json");
  let log;
  try {
    log = readFileSync(path.join(results, "e2e-server.log"), "utf8").split("\n");
  } catch {
    return;
  }
  const failures = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        for (const r of t.results ?? [])
          if (r.status !== "passed" && r.status !== "skipped")
            failures.push({
              title: [...titles, spec.title].join(" › "),
              project: t.projectName,
              start: Date.parse(r.startTime),
              end: Date.parse(r.startTime) + r.duration,
            });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, [suite.title]);
  for (const f of failures) {
    console.log(`\nServer log while [${f.project}] ${f.title} ran (test-results/e2e-server.log):`);
    const lines = log.filter((line) => {
      const at = Date.parse(line.slice(0, 24));
      return at >= f.start - 1000 && at <= f.end + 1000;
    });
    for (const line of lines.slice(-120)) console.log(`  ${line}`);
  }
}
if (outcomes.at(-1)?.ok === false) serverLogDuringFailures();

/** "file › test title" for each failed test of a vitest JSON report. */
function failedVitestTests(result, suffix) {
  const names = [];
  for (const file of result?.testResults ?? [])
    for (const t of file.assertionResults ?? [])
      if (t.status === "failed") names.push(`vitest ${path.relative(root, file.name)} › ${t.fullName ?? t.title}${suffix}`);
  return names;
}

/** "[project] file › test title" for each end-to-end test that failed, or passed only on a retry. */
function failedE2eTests(report) {
  const names = [];
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? [])
        if (t.status === "unexpected" || t.status === "flaky")
          names.push(`playwright [${t.projectName}] ${[...titles, spec.title].join(" › ")} (line ${spec.line})`);
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report?.suites ?? []) walk(suite, [suite.title]);
  return names;
}

const vitestRuns = [readJson("vitest-results.json"), ...HARD_INSTANTS.map((_, index) => readJson(`vitest-results-at-${index}.json`))];
const vitest = { numPassedTests: 0, numFailedTests: 0 };
for (const result of vitestRuns) {
  vitest.numPassedTests += result?.numPassedTests ?? 0;
  vitest.numFailedTests += result?.numFailedTests ?? 0;
}
const e2e = readJson("e2e-results.json");
const passed = vitest.numPassedTests + (e2e?.stats?.expected ?? 0);
const failed = vitest.numFailedTests + (e2e?.stats?.unexpected ?? 0) + (e2e?.stats?.flaky ?? 0);
const stagesFailed = outcomes.filter((o) => !o.ok).map((o) => o.name);

console.log("\nSummary");
for (const o of outcomes) console.log(`  ${o.ok ? "ok  " : "FAIL"} ${o.name.padEnd(48)} ${duration(o.seconds).padStart(12)}`);
console.log(`       ${"Total".padEnd(48)} ${duration((performance.now() - runStarted) / 1000).padStart(12)}`);
console.log(
  `  vitest (now, and ${calendarFiles.length} calendar files at ${HARD_INSTANTS.join(", ")}): ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed`,
);
console.log(`  playwright: ${e2e?.stats?.expected ?? 0} passed, ${e2e?.stats?.unexpected ?? 0} failed`);
// The names of the failed tests come last, beside the counts, so a reader of only the run's tail knows which they were.
const failedNames = [
  ...vitestRuns.flatMap((result, index) => failedVitestTests(result, index === 0 ? "" : ` (as of ${HARD_INSTANTS[index - 1]})`)),
  ...failedE2eTests(e2e),
];
if (failedNames.length > 0) {
  console.log("  failed:");
  for (const name of failedNames.slice(0, 20)) console.log(`    ${name}`);
  if (failedNames.length > 20) console.log(`    … and ${failedNames.length - 20} more`);
}
console.log(`\ntests: ${passed} passed, ${failed + (stagesFailed.length && !failed ? 1 : 0)} failed`);
process.exit(stagesFailed.length || failed ? 1 : 0);
