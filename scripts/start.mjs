// `npm start`: build, migrate and seed the local database, then serve the production build with wrangler
// (workerd, local D1/KV/Durable Objects) at http://localhost:8787. No Cloudflare account, no internet.
import { spawn } from "node:child_process";
import { DEMO_ACCOUNT, seed } from "./seed.mjs";
import { bin, devVar, ensureDevVars, localEnv, root, run, step } from "./lib.mjs";
import { FAKE_GOOGLE_CLIENT, startFakeGoogle } from "../tests/fakes/google-server.mjs";

const port = process.env.PORT ?? "8787";

step("Local secrets (.dev.vars)");
ensureDevVars();
step("Building the app (remix vite:build)");
await run(bin("remix"), ["vite:build"]);
step("Applying database migrations to the local D1 databases (one per shard)");
for (const binding of ["DB", "DB_SHARD_1"]) await run(bin("wrangler"), ["d1", "migrations", "apply", binding, "--local"], { quiet: true });
step("Seeding the demo account");
await seed();

// "Connect Gmail" with no internet: unless .dev.vars names a real Google OAuth client, a local stand-in for Google
// (tests/fakes/google-server.mjs) answers on a free port, with its demo client, and the Worker is pointed at it.
const googleVars = [];
let googleNote = "Gmail: the real Google (GOOGLE_CLIENT_ID in .dev.vars).";
if (!devVar("GOOGLE_CLIENT_ID")) {
  const google = await startFakeGoogle();
  const base = `http://127.0.0.1:${google.port}`;
  const vars = {
    GOOGLE_CLIENT_ID: FAKE_GOOGLE_CLIENT.id,
    GOOGLE_CLIENT_SECRET: FAKE_GOOGLE_CLIENT.secret,
    GOOGLE_ACCOUNTS_BASE: base,
    GOOGLE_OAUTH_BASE: base,
    GMAIL_API_BASE: base,
  };
  for (const [name, value] of Object.entries(vars)) googleVars.push("--var", `${name}:${value}`);
  googleNote = `Gmail: Settings → E-mail connects a demo mailbox at a local stand-in for Google (${base}).`;
}

console.log(`
  Porchlight is starting at http://localhost:${port}
  Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}
  E-mails (verification, password reset) land in http://localhost:${port}/dev/mailbox
  ${googleNote}
  Press Ctrl+C to stop.
`);
const server = spawn(bin("wrangler"), ["dev", "--port", port, "--test-scheduled", "--show-interactive-dev-session=false", ...googleVars], {
  cwd: root,
  stdio: "inherit",
  env: localEnv,
});
// The fake Google (if started) lives in this process and ends with it.
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));
