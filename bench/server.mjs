// The bench's server, shared by `npm run bench` and `npm run bench:profile`: builds the app, bundles the
// Worker as `wrangler deploy` would, serves that bundle with Miniflare's API (workerd, in-memory D1/KV/DO),
// applies the migrations, seeds the large data set and signs the bench account in.
import { Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions, unstable_readConfig } from "wrangler";
import { cpSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { bin, root, run, step } from "../scripts/lib.mjs";
import { bundleWorker } from "../scripts/worker-bundle.mjs";
import { BENCH_USER, SEED_VOLUMES, seedBench } from "./seed.mjs";

export const dist = path.join(root, "dist");
// The client build is copied here and served from the copy: build/ may be rebuilt (emptied) while the bench runs.
export const clientDir = path.join(dist, "client");

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
  const d1Reports = [];
  // Every binding wrangler.toml declares (D1 databases, KV, R2, queues, Workflows, Durable Objects), as wrangler
  // itself reads them (ADR 0062), in memory; the settings are the bench's own.
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(root, "wrangler.toml"));
  const mf = new Miniflare({
    ...workerOptions,
    modules: [{ type: "ESModule", path: workerPath }],
    modulesRoot: dist,
    assets: { ...workerOptions.assets, directory: clientDir },
    bindings: {
      ...unstable_readConfig({ config: path.join(root, "wrangler.toml") }).vars,
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
    cf: false,
    // POST /cdn-cgi/handler/email hands an e-mail to the Worker's email() handler, as `wrangler dev` does (bench/intake.mjs).
    unsafeTriggerHandlers: true,
    ...(inspectorPort ? { inspectorPort } : {}),
  });
  const origin = (await mf.ready).origin;

  step(
    `Seeding: ${Object.entries(SEED_VOLUMES)
      .map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`)
      .join(", ")}`,
  );
  const db = await mf.getD1Database("DB");
  // Every account database runs the same migrations (ADR 0060); the large account lives at home.
  await applyMigrations(db);
  await applyMigrations(await mf.getD1Database("DB_SHARD_1"));
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
