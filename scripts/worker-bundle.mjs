// The Worker as `wrangler deploy` bundles it, and the check that it holds each module once (ADR 0052).
// build/server/index.js (the Remix server build) holds the routes and the Worker's own code (/api, the cron's jobs,
// the Durable Objects); workers/app.ts, the entry wrangler bundles, must take them from there. A file under app/ or
// workers/ (or a package the server build inlines, such as chrono-node) that wrangler also bundles from its own file
// would be in the Worker twice, with its module-level state twice.
//
//   node scripts/worker-bundle.mjs      (after `npm run build`; `npm test` runs it after its build)
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bin, root, run } from "./lib.mjs";

const SERVER_BUILD = "build/server/index.js";
// Written by the server build itself (vite.server-modules.ts): the files inside build/server/index.js, sources and the
// packages it inlines.
const SERVER_MODULES = path.join(root, "build", ".vite", "server-modules.json");

/**
 * The Worker's upload budget, gzip (ADR 0061). Cloudflare refuses a Worker over 10 MB after compression on Workers Paid
 * (developers.cloudflare.com/workers/platform/limits/, "Worker size"); the Worker measured 1,000.5 KiB gzip when this
 * budget was set, so 1,500 KiB leaves half again for growth and stays at 15% of the platform's limit. Raise it
 * deliberately, in the ADR, not to make a build pass.
 */
export const WORKER_GZIP_BUDGET_KIB = 1_500;
/** Cloudflare's own limit on Workers Paid, for the printed comparison. */
const WORKER_GZIP_LIMIT_KIB = 10 * 1024;

/**
 * The Worker's size as wrangler reports its upload ("Total Upload: … / gzip: …"): every module it wrote to `outdir`,
 * source maps and its README aside, raw and gzipped at zlib's default level as wrangler measures it. In bytes.
 */
export function workerUploadSize(outdir) {
  let bytes = 0;
  let gzip = 0;
  for (const name of readdirSync(outdir)) {
    if (name.endsWith(".map") || name === "README.md" || name.endsWith(".json")) continue;
    const content = readFileSync(path.join(outdir, name));
    bytes += content.length;
    gzip += gzipSync(content).length;
  }
  return { bytes, gzip };
}

/** Bundles the Worker into `outdir` as `wrangler deploy` would, offline: { file, metafile }. */
export async function bundleWorker(outdir, { minify = false } = {}) {
  const meta = path.join(outdir, "meta.json");
  const output = await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", outdir, "--metafile", meta, ...(minify ? ["--minify"] : [])], {
    quiet: true,
  });
  return {
    output,
    file: path.join(
      outdir,
      readdirSync(outdir).find((f) => f.endsWith(".js")),
    ),
    metafile: JSON.parse(readFileSync(meta, "utf8")),
  };
}

/**
 * The modules in the Worker twice: bundled by wrangler from their file (an input of its metafile) and also inside the
 * server build (`serverModules`). Throws when the Worker does not go through the server build at all, where the
 * comparison would prove nothing.
 */
export function modulesTwice(metafile, serverModules) {
  const inputs = Object.keys(metafile.inputs);
  if (!inputs.includes(SERVER_BUILD))
    throw new Error(`the Worker does not include ${SERVER_BUILD}; its inputs: ${inputs.filter((i) => !i.startsWith("node_modules/")).join(", ")}`);
  const inBuild = new Set(serverModules);
  return inputs.filter((input) => inBuild.has(input)).sort();
}

/** The deployed environments in wrangler.toml (ADR 0061): each names every binding the top level has. */
export const DEPLOY_ENVS = ["staging", "production"];

/** The binding names wrangler lists for a dry run ("env.DB (porchlight)   D1 Database"), sorted. */
export function bindingNames(output) {
  return [...new Set([...output.matchAll(/^env\.([A-Z][A-Z0-9_]*)\b/gm)].map((m) => m[1]))].sort();
}

/**
 * Builds the Worker for each deployed environment (`wrangler deploy --dry-run --env <name>`, offline) and compares its
 * bindings with the top level's: { env, missing, extra }[], one per environment. An environment inherits no binding or
 * var, so one added at the top level and forgotten in an environment would be undefined there. An extra binding is
 * allowed (a deployment's Workers AI binding, which the offline top level leaves out).
 */
export async function envBindingDifferences(topLevel) {
  const differences = await Promise.all(
    DEPLOY_ENVS.map(async (env) => {
      const outdir = mkdtempSync(path.join(os.tmpdir(), `porchlight-worker-${env}-`));
      try {
        const names = bindingNames(await run(bin("wrangler"), ["deploy", "--dry-run", "--env", env, "--outdir", outdir], { quiet: true }));
        return { env, missing: topLevel.filter((n) => !names.includes(n)), extra: names.filter((n) => !topLevel.includes(n)) };
      } finally {
        rmSync(outdir, { recursive: true, force: true });
      }
    }),
  );
  return differences;
}

/** Bundles the Worker and checks it: { modules, twice, size, bindings } (size: workerUploadSize; bindings: the top level's names). */
export async function checkWorkerBundle() {
  // Each build starts by emptying build/, so the list present is the current build's.
  if (!existsSync(SERVER_MODULES)) throw new Error(`${path.relative(root, SERVER_MODULES)} is missing: run \`npm run build\` first`);
  const serverModules = JSON.parse(readFileSync(SERVER_MODULES, "utf8"));
  // An empty or partial list would let every module through.
  for (const expected of ["app/entry.server.tsx", "app/root.tsx"]) {
    if (!serverModules.includes(expected))
      throw new Error(`${path.relative(root, SERVER_MODULES)} does not list ${expected}, which the server build holds`);
  }
  const outdir = mkdtempSync(path.join(os.tmpdir(), "porchlight-worker-"));
  try {
    const { metafile, output } = await bundleWorker(outdir);
    return {
      modules: serverModules.length,
      twice: modulesTwice(metafile, serverModules),
      size: workerUploadSize(outdir),
      bindings: bindingNames(output),
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** "1,000.5 KiB". */
const kib = (bytes) => `${(bytes / 1024).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })} KiB`;

/** The size line `npm test` prints, and the refusal when the Worker is over its budget (null when within it). */
export function sizeVersusBudget({ bytes, gzip }, budgetKib = WORKER_GZIP_BUDGET_KIB) {
  const line =
    `Worker upload: ${kib(bytes)}, ${kib(gzip)} gzip; budget ${kib(budgetKib * 1024)} gzip ` +
    `(${Math.round((gzip / (budgetKib * 1024)) * 100)}% used), Cloudflare's limit ${kib(WORKER_GZIP_LIMIT_KIB * 1024)} gzip.`;
  const over = gzip > budgetKib * 1024 ? `The Worker is ${kib(gzip - budgetKib * 1024)} over its gzip budget (ADR 0061).` : null;
  return { line, over };
}

/**
 * Prints the check's result; throws when a module is in the Worker twice, the Worker is over its size budget, or a
 * deployed environment does not build or lacks a binding of the top level.
 */
export async function assertEachModuleOnce() {
  const { modules, twice, size, bindings } = await checkWorkerBundle();
  if (twice.length) {
    console.error(`In ${SERVER_BUILD} and bundled again from their files:\n  ${twice.join("\n  ")}`);
    throw new Error(`${twice.length} modules are in the Worker twice: take them from the server build (workers/app.ts, ADR 0052).`);
  }
  console.log(`Worker bundle: each of the ${modules} modules in ${SERVER_BUILD} once, none bundled again from its file.`);
  const { line, over } = sizeVersusBudget(size);
  console.log(line);
  if (over) throw new Error(over);
  if (bindings.length === 0) throw new Error("wrangler's dry run listed no bindings: the binding check would prove nothing");
  const differences = await envBindingDifferences(bindings);
  for (const { env, extra } of differences) if (extra.length) console.log(`[env.${env}] also binds ${extra.join(", ")}.`);
  const lacking = differences.filter((d) => d.missing.length);
  for (const { env, missing } of lacking) console.error(`[env.${env}] lacks ${missing.join(", ")}`);
  if (lacking.length) throw new Error("a deployed environment lacks a binding or var of the top level: name each one in every [env.*] (ADR 0061)");
  console.log(`Environments ${DEPLOY_ENVS.join(" and ")} build and bind the top level's ${bindings.length} names: ${bindings.join(", ")}.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await assertEachModuleOnce();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
