// Helpers shared by the project scripts (start, seed, test, e2e server, bench). Node built-ins only.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const bin = (name) => path.join(root, "node_modules", ".bin", name);

// Wrangler runs fully locally: no account, no telemetry, no network look-ups.
export const localEnv = {
  ...process.env,
  WRANGLER_SEND_METRICS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  CLOUDFLARE_ACCOUNT_ID: "",
  NO_UPDATE_NOTIFIER: "1",
};
delete localEnv.CLOUDFLARE_ACCOUNT_ID;

export function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: options.quiet ? "pipe" : "inherit", env: localEnv, ...options });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${output}`))));
  });
}

export function step(message) {
  console.log(`\n▸ ${message}`);
}

/** .dev.vars holds local settings and secrets (git-ignored). Made once, with a fresh random session secret. */
export function ensureDevVars() {
  const file = path.join(root, ".dev.vars");
  let text = existsSync(file) ? readFileSync(file, "utf8") : "# Local settings for `npm start` (never committed). See README > Configuration.\n";
  if (!/^SESSION_SECRET=\S{32,}/m.test(text)) text += `SESSION_SECRET=${randomBytes(32).toString("base64url")}\n`;
  // Encrypts stored OAuth tokens (a connected Gmail, ADR 0069): 32 random bytes, base64.
  if (!/^TOKEN_ENCRYPTION_KEY=\S{44}/m.test(text)) text += `TOKEN_ENCRYPTION_KEY=${randomBytes(32).toString("base64")}\n`;
  // wrangler.toml says production; locally the development mailbox must exist.
  if (!/^APP_ENV=/m.test(text)) text += "APP_ENV=development\n";
  // The demo account can open the Operations Center locally.
  if (!/^ADMIN_EMAILS=/m.test(text)) text += "ADMIN_EMAILS=demo@porchlight.app\n";
  // Locally the admin QA screens exist, and team invitations work (the test checkout sells the
  // Team plan); a deployment keeps the spec's defaults, off. A file written before invitations existed gets them.
  text = text.replace(/^FEATURE_FLAGS=QA_PAGE=on$/m, "FEATURE_FLAGS=QA_PAGE=on,TEAM_INVITES=on");
  if (!/^FEATURE_FLAGS=/m.test(text)) text += "FEATURE_FLAGS=QA_PAGE=on,TEAM_INVITES=on\n";
  writeFileSync(file, text);
}

/** The value .dev.vars (or the environment) gives `name`, if any. */
export function devVar(name) {
  const file = path.join(root, ".dev.vars");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  return new RegExp(`^${name}=(.*)$`, "m").exec(text)?.[1]?.trim() || process.env[name] || "";
}

export async function waitForUrl(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export function buildExists() {
  return existsSync(path.join(root, "build", "server", "index.js")) && existsSync(path.join(root, "build", "client"));
}
