// Seeds the benchmark database: a large account population and the signed-in bench account.
// Rows are generated inside SQLite with recursive CTEs, so seeding 50k rows takes a moment, not minutes.
import { pbkdf2Sync, randomBytes } from "node:crypto";

export const BENCH_USER = { id: "00000000-0000-4000-8000-00000000be01", email: "bench@porchlight.test", password: "bench-password-123" };
export const SEED_VOLUMES = { otherUsers: 20_000, outboxEmails: 5_000, cronRuns: 2_000 };

function hash(password) {
  const salt = randomBytes(16);
  return `pbkdf2_sha256$100000$${salt.toString("base64url")}$${pbkdf2Sync(password, salt, 100_000, 32, "sha256").toString("base64url")}`;
}

const range = (n) => `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n})`;

export async function seedBench(db) {
  const now = Date.now();
  const u = BENCH_USER;
  await db.batch([
    db
      .prepare("insert into users (id, email, password_hash, email_verified_at, role) values (?, ?, ?, ?, 'admin')")
      .bind(u.id, u.email, hash(u.password), now),
    db.prepare("insert into profiles (user_id, full_name) values (?, 'Bench Agent')").bind(u.id),
    db.prepare("insert into user_preferences (user_id) values (?)").bind(u.id),
    db.prepare("insert into subscribers (user_id, email, subscription_status) values (?, ?, 'active')").bind(u.id, u.email),
  ]);
  const v = SEED_VOLUMES;
  await db.batch([
    db.prepare(`${range(v.otherUsers)} insert into users (id, email, password_hash, email_verified_at)
      select printf('u-%08d', i), printf('agent%d@bench.test', i), 'pbkdf2_sha256$100000$x$y', ${now} from n`),
    db.prepare(`${range(v.otherUsers)} insert into subscribers (user_id, email, subscription_status)
      select printf('u-%08d', i), printf('agent%d@bench.test', i), case i % 5 when 0 then 'canceled' else 'active' end from n`),
    db.prepare(`${range(v.otherUsers)} insert into user_preferences (user_id) select printf('u-%08d', i) from n`),
    db.prepare(`${range(v.outboxEmails)} insert into email_outbox (id, user_id, kind, to_address, subject, text_body, html_body)
      select printf('m-%08d', i), printf('u-%08d', 1 + i % ${v.otherUsers}), 'verify_email', printf('agent%d@bench.test', 1 + i % ${v.otherUsers}),
      'Confirm your e-mail', 'Body', '<p>Body</p>' from n`),
    db.prepare(`${range(v.cronRuns)} insert into cron_runs (job, cron, scheduled_at, started_at, finished_at, status)
      select 'heartbeat', '*/5 * * * *', ${now} - i * 300000, ${now} - i * 300000, ${now} - i * 300000 + 20, 'ok' from n`),
  ]);
}
