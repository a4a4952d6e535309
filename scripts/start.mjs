// `npm start`: build, migrate and seed the local database, then serve the production build with wrangler
// (workerd, local D1/KV/Durable Objects) at http://localhost:8787. No Cloudflare account, no internet.
import { spawn } from "node:child_process";
import { DEMO_ACCOUNT, seed } from "./seed.mjs";
import { bin, ensureDevVars, localEnv, root, run, step } from "./lib.mjs";

const port = process.env.PORT ?? "8787";

step("Local secrets (.dev.vars)");
ensureDevVars();
step("Building the app (remix vite:build)");
await run(bin("remix"), ["vite:build"]);
step("Applying database migrations to the local D1 databases (one per shard)");
for (const binding of ["DB", "DB_SHARD_1"]) await run(bin("wrangler"), ["d1", "migrations", "apply", binding, "--local"], { quiet: true });
step("Seeding the demo account");
await seed();

console.log(`
  Porchlight is starting at http://localhost:${port}
  Demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}
  E-mails (verification, password reset) land in http://localhost:${port}/dev/mailbox
  Press Ctrl+C to stop.
`);
const server = spawn(bin("wrangler"), ["dev", "--port", port, "--test-scheduled", "--show-interactive-dev-session=false"], {
  cwd: root,
  stdio: "inherit",
  env: localEnv,
});
const stop = () => server.kill("SIGTERM");
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.on("exit", (code) => process.exit(code ?? 0));
