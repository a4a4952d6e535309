// `npm run bench`: a benchmark, not a test. Builds the app, bundles the Worker exactly as `wrangler deploy`
// would (minified), serves that bundle with Miniflare's API (workerd, in-memory D1/KV/DO: the fastest
// faithful local server), seeds a large data set, loads each route in bench/pages.mjs with autocannon, and
// prints requests/s, p50 and p99 latency, each route's ratio to the floor route, and bundle sizes.
//
//   BENCH_DURATION=10 BENCH_CONNECTIONS=10 npm run bench      (defaults shown)
//   npm run bench -- --write-readme                          (also records the figures in README.md)
import autocannon from "autocannon";
import { Miniflare } from "miniflare";
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { bin, root, run, step } from "../scripts/lib.mjs";
import { PAGES } from "./pages.mjs";
import { BENCH_USER, SEED_VOLUMES, seedBench } from "./seed.mjs";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const dist = path.join(root, "dist");
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length;

function wranglerConfig() {
  const toml = readFileSync(path.join(root, "wrangler.toml"), "utf8");
  const date = toml.match(/^compatibility_date\s*=\s*"([^"]+)"/m)?.[1];
  const flags = [...(toml.match(/^compatibility_flags\s*=\s*\[([^\]]*)\]/m)?.[1] ?? "").matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  return { date, flags };
}

/** Each route's client JavaScript: entry + root + layouts + the route module, with their imports (gzip). */
function clientJsPerRoute() {
  const manifest = JSON.parse(readFileSync(path.join(root, "build/.vite/client-manifest.json"), "utf8"));
  // Remix keys route modules as "app/routes/x.tsx?__remix-build-client-route".
  const keyOf = Object.fromEntries(Object.keys(manifest).map((key) => [key.split("?")[0], key]));
  const closure = (key, seen = new Set()) => {
    const entry = manifest[key];
    if (!entry || seen.has(key)) return seen;
    seen.add(key);
    for (const dep of entry.imports ?? []) closure(dep, seen);
    return seen;
  };
  const routes = Object.keys(keyOf).filter((k) => k.startsWith("app/routes/"));
  return routes
    .map((route) => {
      const name = path.basename(route).replace(/\.tsx?$/, "");
      const layouts = name.startsWith("_app.") ? ["app/routes/_app.tsx"] : [];
      const files = new Set();
      for (const part of ["app/entry.client.tsx", "app/root.tsx", ...layouts, route]) {
        if (!keyOf[part]) throw new Error(`${part} is missing from the client manifest`);
        for (const key of closure(keyOf[part])) files.add(manifest[key].file);
      }
      const bytes = [...files].reduce((sum, file) => sum + gz(path.join(root, "build/client", file)), 0);
      return { route: name, gzip: bytes };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

async function applyMigrations(db) {
  const dir = path.join(root, "migrations");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".sql")).sort()) {
    const statements = readFileSync(path.join(dir, file), "utf8")
      .split("--> statement-breakpoint")
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch(statements.map((s) => db.prepare(s)));
  }
}

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

step("Building (remix vite:build) and bundling the Worker as wrangler deploy would");
await run(bin("remix"), ["vite:build"], { quiet: true });
rmSync(dist, { recursive: true, force: true });
await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", dist, "--minify"], { quiet: true });
const workerFile = readdirSync(dist).find((f) => f.endsWith(".js"));
const workerPath = path.join(dist, workerFile);

step("Starting the bundle in workerd (Miniflare, in-memory storage)");
const { date, flags } = wranglerConfig();
const mf = new Miniflare({
  modules: [{ type: "ESModule", path: workerPath }],
  modulesRoot: dist,
  compatibilityDate: date,
  compatibilityFlags: flags,
  d1Databases: { DB: "bench-db" },
  kvNamespaces: { KV: "bench-kv" },
  durableObjects: { INSIGHTS: { className: "InsightsCache", useSQLite: true } },
  assets: { directory: path.join(root, "build/client"), binding: "ASSETS", routerConfig: { has_user_worker: true } },
  bindings: { APP_ENV: "production", SESSION_SECRET: "bench-session-secret-0123456789abcdef", ADMIN_EMAILS: "", MAIL_FROM: "bench@porchlight.test" },
  port: 0,
});
const origin = (await mf.ready).origin;

step(`Seeding: ${Object.entries(SEED_VOLUMES).map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`).join(", ")}`);
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
const sessionCookie = signIn.headers.getSetCookie().find((c) => c.startsWith("porchlight_session="))?.split(";")[0];
if (!sessionCookie) throw new Error(`bench sign-in failed (${signIn.status})`);

step(`Loading each route for ${DURATION} s with ${CONNECTIONS} connections`);
const rows = [];
for (const page of PAGES) {
  const check = await fetch(`${origin}${page.path}`, { redirect: "manual", headers: page.auth ? { Cookie: sessionCookie } : {} });
  if (check.status !== 200) throw new Error(`${page.path} answered ${check.status}, not 200: the bench would measure an error page`);
  const result = await load(`${origin}${page.path}`, page.auth ? { Cookie: sessionCookie } : {});
  const errors = result.errors + result.non2xx;
  rows.push({ ...page, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors });
  console.log(`  ${page.name}: ${Math.round(result.requests.average)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms${errors ? `, ${errors} errors` : ""}`);
}
await mf.dispose();

const floor = rows.find((r) => r.floor);
const workerGzip = gz(workerPath);
const perRoute = clientJsPerRoute();
const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";

const table = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} × ${cpu}, Node ${process.version}; ` +
    `${CONNECTIONS} connections, ${DURATION} s per route; seeded ${Object.entries(SEED_VOLUMES).map(([k, v]) => `${v.toLocaleString("en-US")} ${k}`).join(", ")}.`,
  "",
  "| route | requests/s | p50 ms | p99 ms | vs floor |",
  "| --- | ---: | ---: | ---: | ---: |",
  ...rows.map((r) => `| ${r.name} | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.floor ? "1.00" : (r.rps / floor.rps).toFixed(2)} |`),
  "",
  `Worker bundle (minified, as deployed): ${kib(statSync(workerPath).size)}, ${kib(workerGzip)} gzip.`,
  "",
  "| client JS per route (gzip) | size |",
  "| --- | ---: |",
  ...perRoute.map((r) => `| ${r.route} | ${kib(r.gzip)} |`),
].join("\n");

console.log(`\n${table}\n`);
mkdirSync(path.join(root, "bench/results"), { recursive: true });
writeFileSync(path.join(root, "bench/results/latest.json"), JSON.stringify({ rows, workerGzip, perRoute, duration: DURATION, connections: CONNECTIONS }, null, 2));

if (process.argv.includes("--write-readme")) {
  const readme = path.join(root, "README.md");
  const text = readFileSync(readme, "utf8").replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, `<!-- bench:start -->\n${table}\n<!-- bench:end -->`);
  writeFileSync(readme, text);
  console.log("README.md performance section updated.");
}
