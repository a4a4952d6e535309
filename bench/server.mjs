// The bench's server, shared by `npm run bench` and `npm run bench:profile`: builds the app, bundles the
// Worker as `wrangler deploy` would, serves that bundle with Miniflare's API (workerd, in-memory D1/KV/DO),
// applies the migrations, seeds the large data set and signs the bench account in.
import { Miniflare } from "miniflare";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { bin, root, run, step } from "../scripts/lib.mjs";
import { bundleWorker } from "../scripts/worker-bundle.mjs";
import { BENCH_USER, SEED_VOLUMES, seedBench } from "./seed.mjs";

export const dist = path.join(root, "dist");
// The client build is copied here and served from the copy: build/ may be rebuilt (emptied) while the bench runs.
export const clientDir = path.join(dist, "client");

function wranglerConfig() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const date = toml.match(/^compatibility_date\s*=\s*"([^"]+)"/m)?.[1];
  const flags = [...(toml.match(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  return { date, flags };
}

/** Builds and bundles into dist/; returns the Worker file. `minify: false` keeps function names for profiles. */
export async function buildBundle({ minify = true } = {}) {
  step(`Building (remix vite:build) and bundling the Worker as wrangler deploy would${minify ? "" : " (not minified)"}`);
  await run(bin("remix"), ["vite:build"], { quiet: true });
  rmSync(dist, { recursive: true, force: true });
  const { file } = await bundleWorker(dist, { minify });
  cpSync(path.join(root, "build/client"), clientDir, { recursive: true });
  cpSync(path.join(root, "build/.vite/client-manifest.json"), path.join(dist, "client-manifest.json"));
  return file;
}

async function applyMigrations(db) {
  const dir = path.join(root, "migrations");
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()) {
    const statements = readFileSync(path.join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch(statements.map((s) => db.prepare(s)));
  }
}

/**
 * Starts the bundle in workerd, seeds it and signs in: { mf, origin, sessionCookie, d1Reports }. With `d1Limits:
 * "measure"` the Worker meters D1 per invocation (ADR 0055) and `d1Reports` collects the reports it logs.
 */
export async function startSeededServer(workerPath, { inspectorPort, opsRecording = true, d1Limits = null } = {}) {
  step("Starting the bundle in workerd (Miniflare, in-memory storage)");
  const { date, flags } = wranglerConfig();
  const d1Reports = [];
  const mf = new Miniflare({
    modules: [{ type: "ESModule", path: workerPath }],
    modulesRoot: dist,
    compatibilityDate: date,
    compatibilityFlags: flags,
    d1Databases: { DB: "bench-db", DB_RESTORE_DRILL: "bench-restore-drill" },
    r2Buckets: { BACKUPS: "bench-backups" },
    kvNamespaces: { KV: "bench-kv" },
    // The e-mail queue and its dead letters, as wrangler.toml declares them (ADR 0056): e-mail the cron or a page sends
    // is queued and the Worker's queue() handler consumes it (without RESEND_API_KEY it stays in the outbox).
    queueProducers: { EMAIL_QUEUE: { queueName: "porchlight-email" } },
    queueConsumers: {
      "porchlight-email": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 5, deadLetterQueue: "porchlight-email-dead" },
      "porchlight-email-dead": { maxBatchSize: 10, maxBatchTimeout: 1, maxRetries: 5 },
    },
    durableObjects: { INSIGHTS: { className: "InsightsCache", useSQLite: true }, OPS: { className: "OpsRecorder", useSQLite: true } },
    // The durable jobs (ADR 0058), as wrangler.toml binds them.
    workflows: {
      RESTORE_DRILL_WORKFLOW: { name: "porchlight-restore-drill", className: "RestoreDrillWorkflow" },
      BACKUP_WORKFLOW: { name: "porchlight-backup", className: "BackupWorkflow" },
      AGENT_RESTORE_WORKFLOW: { name: "porchlight-agent-restore", className: "AgentRestoreWorkflow" },
    },
    assets: { directory: clientDir, binding: "ASSETS", routerConfig: { has_user_worker: true } },
    bindings: {
      APP_ENV: "production",
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      ADMIN_EMAILS: "",
      MAIL_FROM: "bench@porchlight.test",
      // Without the Operations Center's request recording, to show what it costs (bench/run.mjs recordingCost).
      ...(opsRecording ? {} : { OPS_RECORDING: "off" }),
      ...(d1Limits ? { D1_LIMITS: d1Limits } : {}),
    },
    ...(d1Limits
      ? {
          handleStructuredLogs: ({ message }) => {
            if (message.startsWith('{"event":"d1_limits"')) d1Reports.push(JSON.parse(message));
            else console.log(message);
          },
        }
      : {}),
    port: 0,
    ...(inspectorPort ? { inspectorPort } : {}),
  });
  const origin = (await mf.ready).origin;

  step(
    `Seeding: ${Object.entries(SEED_VOLUMES)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}`,
  );
  const db = await mf.getD1Database("DB");
  await applyMigrations(db);
  const seedStart = performance.now();
  await seedBench(db);
  console.log(`  seeded in ${Math.round(performance.now() - seedStart)} ms`);

  const signIn = await fetch(`${origin}/auth`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": "10.200.0.1" },
    body: new URLSearchParams({ mode: "signin", email: BENCH_USER.email, password: BENCH_USER.password, website_url: "" }),
  });
  const sessionCookie = signIn.headers
    .getSetCookie()
    .find((c) => c.startsWith("porchlight_session="))
    ?.split(";")[0];
  if (!sessionCookie) throw new Error(`bench sign-in failed (${signIn.status})`);
  return { mf, origin, sessionCookie, d1Reports };
}
