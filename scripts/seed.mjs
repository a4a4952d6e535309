// Seeds the local D1 with the clearly labelled demo account (and, for end-to-end tests, extra accounts).
// Idempotent: running it again resets those accounts' passwords and subscriptions, nothing else.
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { demoDataSql } from "./demo-data.mjs";
import { bin, run } from "./lib.mjs";

export const DEMO_ACCOUNT = {
  id: "00000000-0000-4000-8000-00000000d3e0",
  email: "demo@porchlight.app",
  password: "porchlight-demo",
  fullName: "Demo Agent",
  agent: { name: "Dana Demo", brokerage: "Porchlight Demo Realty", market: "Austin, TX" },
  status: "active",
  demoData: true,
};

// Same format as app/modules/auth/password.ts: pbkdf2_sha256$<iterations>$<salt>$<hash>. Each distinct password is
// hashed once per run (100,000 rounds take ~60 ms here): the end-to-end accounts all share one test password, and
// hashing it for each of them cost seconds at every start. A shared salt among throw-away test accounts hides nothing.
const hashes = new Map();
function hashPassword(password) {
  if (!hashes.has(password)) {
    const salt = randomBytes(16);
    const hash = pbkdf2Sync(password, salt, 100_000, 32, "sha256");
    hashes.set(password, `pbkdf2_sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`);
  }
  return hashes.get(password);
}

const q = (value) => (value === null || value === undefined ? "NULL" : `'${String(value).replace(/'/g, "''")}'`);

/** The seed's "now": TEST_NOW when the run is "as of" another instant (README: Testing as of a date). */
export function seedNow() {
  return process.env.TEST_NOW ? new Date(process.env.TEST_NOW) : new Date();
}

export function accountSql(account) {
  const at = seedNow();
  const now = at.getTime();
  const skipped = account.onboarding === "skipped";
  return `
INSERT INTO users (id, email, password_hash, email_verified_at, role, session_version, created_at, updated_at)
VALUES (${q(account.id)}, ${q(account.email)}, ${q(hashPassword(account.password))}, ${now}, ${q(account.role ?? "user")}, 1, ${now}, ${now})
ON CONFLICT(id) DO UPDATE SET password_hash = excluded.password_hash, email_verified_at = excluded.email_verified_at,
  role = excluded.role, failed_signin_count = 0, locked_until = NULL, updated_at = excluded.updated_at;
INSERT INTO profiles (user_id, full_name) VALUES (${q(account.id)}, ${q(account.fullName ?? null)})
ON CONFLICT(user_id) DO UPDATE SET full_name = excluded.full_name;
INSERT INTO agent_profiles (user_id, agent_name, brokerage, market)
VALUES (${q(account.id)}, ${q(account.agent?.name)}, ${q(account.agent?.brokerage)}, ${q(account.agent?.market)})
ON CONFLICT(user_id) DO UPDATE SET agent_name = excluded.agent_name, brokerage = excluded.brokerage, market = excluded.market;
INSERT INTO user_preferences (user_id, onboarding_skipped, onboarding_skipped_at) VALUES (${q(account.id)}, ${skipped ? 1 : 0}, ${skipped ? now : "NULL"})
ON CONFLICT(user_id) DO NOTHING;
INSERT INTO subscribers (user_id, email, subscription_status, plan, billing_period, current_period_end)
VALUES (${q(account.id)}, ${q(account.email)}, ${q(account.status)}, 'solo', 'monthly', ${account.status === "active" ? now + 30 * 86_400_000 : "NULL"})
ON CONFLICT(user_id) DO UPDATE SET subscription_status = excluded.subscription_status, current_period_end = excluded.current_period_end;
${account.demoData ? demoDataSql(account.id, at) : ""}
${account.team ? teamSql(account, now) : ""}
`;
}

/**
 * A member of a seeded team (an e2e account's "team": { id, name, role, seats }): the owner's row makes the team and puts
 * the owner's subscription on the Team plan; every member's row adds them. List the owner before the members.
 */
function teamSql(account, now) {
  const { id, name, role, seats } = account.team;
  const owner =
    role === "owner"
      ? `UPDATE subscribers SET plan = 'team', seats = ${Number(seats ?? 2)} WHERE user_id = ${q(account.id)};
INSERT INTO teams (id, owner_id, name, created_at, updated_at) VALUES (${q(id)}, ${q(account.id)}, ${q(name)}, ${now}, ${now})
ON CONFLICT(id) DO NOTHING;`
      : "";
  return `${owner}
INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES (${q(id)}, ${q(account.id)}, ${q(role)}, ${now})
ON CONFLICT DO NOTHING;`;
}

export async function seed({ persistTo, accounts = [DEMO_ACCOUNT] } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "porchlight-seed-"));
  const file = path.join(dir, "seed.sql");
  writeFileSync(file, accounts.map(accountSql).join("\n"));
  try {
    const args = ["d1", "execute", "DB", "--local", "--file", file, "--yes"];
    if (persistTo) args.push("--persist-to", persistTo);
    await run(bin("wrangler"), args, { quiet: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await seed();
  console.log(`Seeded the demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}`);
}
