// Lead intake by e-mail (ADR 0065) in the bench: `BENCH_ONLY=intake npm run bench`.
// - Parsing alone, in Node: the intake's own reader (postal-mime, then the portal parsers) bundled with esbuild and
//   timed over the fixtures, p50 and p95 per message.
// - 1,000 lead e-mails for one agent through the Worker's email() handler (Miniflare's /cdn-cgi/handler/email, as
//   `wrangler dev` serves it), 8 at a time, then counted: every one must be recorded and be a new lead.
import { build } from "esbuild";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root } from "../scripts/lib.mjs";
import { BENCH_USER } from "./seed.mjs";

const FIXTURES = path.join(root, "tests/fixtures/intake");
const PARSES = 2_000;
const EMAILS = 1_000;
const AT_ONCE = 8;
const KEY = "benchintakeaddressbench2";
const DOMAIN = "leads.porchlight.app";

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const ms = (v) => (v < 1 ? v.toFixed(2) : v.toFixed(1));

export async function benchIntakeParsing() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-intake-"));
  try {
    const entry = path.join(dir, "entry.ts");
    const out = path.join(dir, "intake.mjs");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(
      entry,
      `export { readMail } from ${JSON.stringify(path.join(root, "app/modules/intake/mail.server.ts"))};\nexport { readLeadEmail } from ${JSON.stringify(path.join(root, "app/modules/intake/parse/index.ts"))};\n`,
    );
    await build({
      entryPoints: [entry],
      bundle: true,
      format: "esm",
      platform: "neutral",
      mainFields: ["module", "main"],
      outfile: out,
      alias: { "~": path.join(root, "app") },
      logLevel: "error",
    });
    const { readMail, readLeadEmail } = await import(pathToFileURL(out).href);
    const mails = readdirSync(FIXTURES)
      .filter((f) => f.endsWith(".eml"))
      .map((f) => readFileSync(path.join(FIXTURES, f), "utf8"));
    const times = [];
    for (let i = 0; i < PARSES; i++) {
      const raw = mails[i % mails.length];
      const started = performance.now();
      const mail = await readMail(raw);
      readLeadEmail(mail.input, DOMAIN);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return `Reading a lead e-mail (Node, postal-mime and the portal parsers, ${PARSES.toLocaleString("en-US")} reads over the ${mails.length} fixtures): p50 ${ms(percentile(times, 50))} ms, p95 ${ms(percentile(times, 95))} ms per message.`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A portal's lead e-mail, number `n` of run `run`, each a different person (no two match as duplicates). */
function leadEmail(n, run) {
  return [
    "From: Zillow <no-reply@zillow.com>",
    `To: ${KEY}@${DOMAIN}`,
    `Subject: New Contact: Bench Lead ${n} is requesting information about ${n} Oak St`,
    `Message-ID: <bench-${n}-${run}@zillow.com>`,
    `Date: ${new Date().toUTCString()}`,
    "MIME-Version: 1.0",
    'Content-Type: text/plain; charset="utf-8"',
    "",
    `Name: Bench Lead ${n}`,
    `Email: bench.lead.${n}@example.com`,
    `Phone: 512-7${String(n).padStart(2, "0").slice(-2)}-${String(1000 + (n % 9000)).padStart(4, "0")}`,
    "Message: Is it still available?",
    `Property: ${n} Oak St, Austin, TX 78704`,
    "List Price: $485,000",
    "",
  ].join("\r\n");
}

export async function benchIntake(mf, origin) {
  const db = await mf.getD1Database("DB");
  await db
    .prepare("insert into lead_intake_addresses (id, user_id, key, created_at) values ('bench-intake', ?, ?, ?) on conflict do nothing")
    .bind(BENCH_USER.id, KEY, Date.now())
    .run();
  // Each new lead gets the agent's instant first reply (ADR 0068): on for Zillow at every hour, the app's address known.
  await db
    .prepare(
      "insert into lead_reply_templates (id, user_id, source, enabled, subject, body) values ('bench-reply', ?, 'zillow', 1, 'About {property}', 'Hi {first name}, I will call you soon. {agent name}') on conflict do nothing",
    )
    .bind(BENCH_USER.id)
    .run();
  await db.prepare("update user_preferences set reply_from_minute = 0, reply_until_minute = 1440 where user_id = ?").bind(BENCH_USER.id).run();
  await (await mf.getKVNamespace("KV")).put("ops:app-origin", origin);
  const before = (await db.prepare("select count(*) as n from lead_intake_messages where user_id = ?").bind(BENCH_USER.id).first()).n;
  const repliesBefore = (
    await db.prepare("select count(*) as n from email_outbox where user_id = ? and kind = 'first_reply'").bind(BENCH_USER.id).first()
  ).n;
  const times = [];
  const refused = [];
  const dropped = [];
  const run = Date.now();
  let next = 0;
  const started = performance.now();
  // A connection the local server closes as a request goes out on it is sent again, as a mail server retries a
  // delivery; the Message-ID stays the same, so a retry of an e-mail that did arrive is taken once, not twice.
  const deliver = async (n, tries = 3) => {
    try {
      return await fetch(`${origin}/cdn-cgi/handler/email?from=no-reply@zillow.com&to=${KEY}@${DOMAIN}`, { method: "POST", body: leadEmail(n, run) });
    } catch (error) {
      if (tries <= 1) throw error;
      dropped.push(`${n}: ${error.cause?.code ?? error.message}`);
      return deliver(n, tries - 1);
    }
  };
  const worker = async () => {
    for (let n = next++; n < EMAILS; n = next++) {
      const sent = performance.now();
      const response = await deliver(n);
      const text = await response.text();
      times.push(performance.now() - sent);
      if (response.status !== 200) refused.push(`${response.status} ${text.slice(0, 120)}`);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  const seconds = (performance.now() - started) / 1000;
  const recorded = (await db.prepare("select count(*) as n from lead_intake_messages where user_id = ?").bind(BENCH_USER.id).first()).n - before;
  const created = (
    await db
      .prepare("select count(*) as n from lead_intake_messages where user_id = ? and status = 'created' and format = 'zillow'")
      .bind(BENCH_USER.id)
      .first()
  ).n;
  const replies =
    (await db.prepare("select count(*) as n from email_outbox where user_id = ? and kind = 'first_reply'").bind(BENCH_USER.id).first()).n -
    repliesBefore;
  if (refused.length > 0) throw new Error(`${refused.length} lead e-mails were refused, e.g. ${refused[0]}`);
  if (replies !== EMAILS) throw new Error(`${EMAILS} new leads, ${replies} instant replies queued: each should have had exactly one`);
  if (recorded !== EMAILS || created < EMAILS)
    throw new Error(`${EMAILS} lead e-mails sent, ${recorded} recorded, ${created} new leads: some were lost`);
  times.sort((a, b) => a - b);
  return (
    `${EMAILS.toLocaleString("en-US")} lead e-mails for one agent (the large account) through the email() handler, ${AT_ONCE} at a time: ` +
    `${seconds.toFixed(1)} s, p50 ${Math.round(percentile(times, 50))} ms, p95 ${Math.round(percentile(times, 95))} ms per e-mail; ` +
    `${recorded.toLocaleString("en-US")} recorded, ${created.toLocaleString("en-US")} new leads, none lost, each with its instant reply queued once (${replies.toLocaleString("en-US")})` +
    (dropped.length > 0 ? ` (${dropped.length} sent again after the local server closed the connection: ${dropped.slice(0, 3).join(", ")}).` : ".")
  );
}
