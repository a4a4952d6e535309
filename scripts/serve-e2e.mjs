// The server Playwright tests run against: the production build on wrangler/workerd with a fresh,
// throw-away local state in .wrangler/e2e, migrated and seeded. Secrets are passed on the command line.
//
// It serves a snapshot of the sources, not the working tree. `wrangler dev` reloads the Worker whenever a
// file it was bundled from changes, and a rebuild (which empties build/client) stops it for good: an edit
// or a build made while the tests ran showed up as a navigation that never finished and "Network
// connection lost" from workerd (ADR 0020). The copy in .wrangler/e2e/src changes only when this script
// starts again.
import { spawn } from "node:child_process";
import { createWriteStream, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { stripVTControlCharacters } from "node:util";
import path from "node:path";
import { DEMO_ACCOUNT, seed, seedNow } from "./seed.mjs";
import { bin, buildExists, localEnv, root, run } from "./lib.mjs";

export const E2E_PORT = process.env.E2E_PORT ?? "8788";
const state = path.join(root, ".wrangler", "e2e");

// Accounts the end-to-end tests sign in with, one per spec, so limits and sign-outs never collide.
const accounts = JSON.parse(readFileSync(path.join(root, "tests", "e2e", "accounts.json"), "utf8"));
// They start with onboarding skipped, so the dashboard's welcome dialog covers no page another spec tests;
// an account marked "onboarding": "due" starts like a new sign-up (tests/e2e/onboarding.spec.ts).
const forSpecs = Object.values(accounts).map((account) => ({ onboarding: "skipped", ...account }));
const E2E_ACCOUNTS = [DEMO_ACCOUNT, ...forSpecs];

if (!buildExists()) await run(bin("remix"), ["vite:build"]);
rmSync(state, { recursive: true, force: true });
const snapshot = path.join(state, "src");
for (const entry of ["app", "workers", "build", "wrangler.toml", "tsconfig.json", "package.json"]) {
  cpSync(path.join(root, entry), path.join(snapshot, entry), { recursive: true });
}
// Every account database (ADR 0060) runs the same migrations.
for (const binding of ["DB", "DB_SHARD_1"]) {
  await run(bin("wrangler"), ["d1", "migrations", "apply", binding, "--local", "--persist-to", state], { quiet: true });
}
await seed({ persistTo: state, accounts: E2E_ACCOUNTS });
// The specs date the demo data from the seed's day (it may be yesterday by the time a spec runs past midnight).
mkdirSync(state, { recursive: true });
writeFileSync(path.join(state, "seeded.json"), JSON.stringify({ at: seedNow().toISOString() }));

const server = spawn(
  bin("wrangler"),
  [
    "dev",
    "--port",
    E2E_PORT,
    "--ip",
    "127.0.0.1",
    "--persist-to",
    state,
    "--show-interactive-dev-session=false",
    // GET /__scheduled?cron=... runs the cron as Cloudflare would (operations.spec.ts). Miniflare's own
    // /cdn-cgi/handler/scheduled fails here: with static assets it hands the ScheduledController to the
    // Worker over RPC, which cannot copy it (DataCloneError).
    "--test-scheduled",
    "--var",
    "SESSION_SECRET:e2e-session-secret-not-for-production-0123456789",
    "--var",
    "APP_ENV:development",
    "--var",
    `ADMIN_EMAILS:${DEMO_ACCOUNT.email}`,
    "--var",
    "FEATURE_FLAGS:QA_PAGE=on,TEAM_INVITES=on",
    // `TEST_NOW=<ISO instant> npm run test:e2e`: the Worker's clock starts there (app/lib/clock.ts).
    ...(process.env.TEST_NOW ? ["--var", `TEST_NOW:${process.env.TEST_NOW}`] : []),
  ],
  // Nothing watches wrangler.toml either: the run keeps the configuration it started with.
  { cwd: snapshot, stdio: ["ignore", "pipe", "pipe"], env: { ...localEnv, WRANGLER_CI_DISABLE_CONFIG_WATCHING: "true" } },
);
// The server's log, every line stamped with the time it arrived, in test-results/e2e-server.log: a request line
// is written when its response is done, so a navigation that never finished shows as a request that is missing
// here while the trace shows it sent (and a reload of the Worker as "Reloading"). Errors also go to stderr,
// which Playwright prints.
mkdirSync(path.join(root, "test-results"), { recursive: true });
const serverLog = createWriteStream(path.join(root, "test-results", "e2e-server.log"));
for (const [stream, forward] of [
  [server.stdout, null],
  [server.stderr, process.stderr],
]) {
  createInterface({ input: stream }).on("line", (line) => {
    serverLog.write(`${new Date().toISOString()} ${stripVTControlCharacters(line)}\n`);
    forward?.write(`${line}\n`);
  });
}
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));
