// The server Playwright tests run against: the production build, bundled as `wrangler deploy` bundles it, in workerd
// through Miniflare's API with the bindings wrangler.toml declares (read by wrangler's own
// unstable_getMiniflareWorkerOptions), and a fresh, throw-away local state in .wrangler/e2e, migrated and seeded.
//
// Not `wrangler dev` (ADR 0062): its dev proxy (a second workerd in front of the Worker) now and then lost a request
// while the Worker was busy (a workflow step running beside the page): the request hung until the browser gave up,
// and the test with it (27 s and 54 s stalls in full runs). Miniflare serves the Worker on the port itself.
//
// It serves a copy: the bundle and the client build are written to .wrangler/e2e when this script starts, so a
// rebuild made while the tests run (which empties build/client) changes nothing under them (ADR 0020).
import { createWriteStream, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { stripVTControlCharacters } from "node:util";
import path from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { DEMO_ACCOUNT, seed, seedNow } from "./seed.mjs";
import { bin, buildExists, localEnv, root, run } from "./lib.mjs";
import { bundleWorker } from "./worker-bundle.mjs";
import { FAKE_GOOGLE_CLIENT, startFakeGoogle } from "../tests/fakes/google-server.mjs";

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
// Every account database (ADR 0060) runs the same migrations.
for (const binding of ["DB", "DB_SHARD_1"]) {
  await run(bin("wrangler"), ["d1", "migrations", "apply", binding, "--local", "--persist-to", state], { quiet: true });
}
await seed({ persistTo: state, accounts: E2E_ACCOUNTS });
// The specs date the demo data from the seed's day (it may be yesterday by the time a spec runs past midnight).
mkdirSync(state, { recursive: true });
writeFileSync(path.join(state, "seeded.json"), JSON.stringify({ at: seedNow().toISOString() }));

const dist = path.join(state, "dist");
const { file } = await bundleWorker(dist);
const client = path.join(state, "client");
cpSync(path.join(root, "build", "client"), client, { recursive: true });

// The server's log, every line stamped with the time it arrived, in test-results/e2e-server.log: a request line
// is written when its response is done, so a request the trace shows sent but missing here never finished on the
// server. Errors also go to stderr, which Playwright prints.
mkdirSync(path.join(root, "test-results"), { recursive: true });
const serverLog = createWriteStream(path.join(root, "test-results", "e2e-server.log"));
class StampedLog extends Log {
  logWithLevel(level, message) {
    if (level > this.level) return;
    for (const line of stripVTControlCharacters(String(message)).split("\n")) serverLog.write(`${new Date().toISOString()} ${line}\n`);
    if (level <= LogLevel.WARN) process.stderr.write(`${message}\n`);
  }
}

// "Connect Gmail" against a local stand-in for Google (tests/fakes/google-server.mjs), on a free port.
const google = await startFakeGoogle();
const googleBase = `http://127.0.0.1:${google.port}`;

const config = path.join(root, "wrangler.toml");
const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
const mf = new Miniflare({
  ...workerOptions,
  modules: [{ type: "ESModule", path: file }],
  modulesRoot: dist,
  assets: { ...workerOptions.assets, directory: client },
  // wrangler.toml's [vars] and these, never a developer's .dev.vars (which workerOptions.bindings would carry): the
  // Worker's settings are the same on every machine, CI's included.
  bindings: {
    ...unstable_readConfig({ config }).vars,
    SESSION_SECRET: "e2e-session-secret-not-for-production-0123456789",
    APP_ENV: "development",
    ADMIN_EMAILS: DEMO_ACCOUNT.email,
    FEATURE_FLAGS: "QA_PAGE=on,TEAM_INVITES=on",
    // GET /__scheduled?cron=... runs the cron as Cloudflare would (operations.spec.ts, qa.spec.ts).
    SCHEDULED_ROUTE: "on",
    // Gmail (ADR 0069): a fixed key for the stored tokens, and Google's endpoints at the local fake.
    TOKEN_ENCRYPTION_KEY: "ZTJlLW9ubHktdG9rZW4tZW5jcnlwdGlvbi1rZXktMzI=",
    GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT.id,
    GOOGLE_CLIENT_SECRET: FAKE_GOOGLE_CLIENT.secret,
    GOOGLE_ACCOUNTS_BASE: googleBase,
    GOOGLE_OAUTH_BASE: googleBase,
    GMAIL_API_BASE: googleBase,
    // `TEST_NOW=<ISO instant> npm run test:e2e`: the Worker's clock starts there (app/lib/clock.ts).
    ...(localEnv.TEST_NOW ? { TEST_NOW: localEnv.TEST_NOW } : {}),
  },
  // The same files `wrangler d1 migrations apply --persist-to` and the seed wrote (wrangler keeps them under v3/).
  defaultPersistRoot: path.join(state, "v3"),
  // POST /cdn-cgi/handler/email?from=…&to=… hands a raw e-mail to the Worker's email() handler, as `wrangler dev` does
  // (lead intake, tests/e2e/lead-intake.spec.ts).
  unsafeTriggerHandlers: true,
  // No look-up of the `request.cf` object on the network: its default placeholder.
  cf: false,
  host: "127.0.0.1",
  port: Number(E2E_PORT),
  log: new StampedLog(LogLevel.INFO),
  // What the Worker logs (console.log, uncaught errors) goes to the same file; errors to stderr too.
  handleStructuredLogs: ({ level, message }) => {
    for (const line of message.split("\n")) serverLog.write(`${new Date().toISOString()} ${line}\n`);
    if (level === "error") process.stderr.write(`${message}\n`);
  },
});
await mf.ready;
// The fake Google lives in this process and ends with it.
const stop = () => mf.dispose().finally(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
