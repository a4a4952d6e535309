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
import { bin, root, run } from "./lib.mjs";

const SERVER_BUILD = "build/server/index.js";
// Written by the server build itself (vite.server-modules.ts): the files inside build/server/index.js, sources and the
// packages it inlines.
const SERVER_MODULES = path.join(root, "build", ".vite", "server-modules.json");

/** Bundles the Worker into `outdir` as `wrangler deploy` would, offline: { file, metafile }. */
export async function bundleWorker(outdir, { minify = false } = {}) {
  const meta = path.join(outdir, "meta.json");
  await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", outdir, "--metafile", meta, ...(minify ? ["--minify"] : [])], { quiet: true });
  return {
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

/** Bundles the Worker and checks it: { modules, twice }. */
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
    const { metafile } = await bundleWorker(outdir);
    return { modules: serverModules.length, twice: modulesTwice(metafile, serverModules) };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** Prints the check's result; throws when a module is in the Worker twice. */
export async function assertEachModuleOnce() {
  const { modules, twice } = await checkWorkerBundle();
  if (twice.length) {
    console.error(`In ${SERVER_BUILD} and bundled again from their files:\n  ${twice.join("\n  ")}`);
    throw new Error(`${twice.length} modules are in the Worker twice: take them from the server build (workers/app.ts, ADR 0052).`);
  }
  console.log(`Worker bundle: each of the ${modules} modules in ${SERVER_BUILD} once, none bundled again from its file.`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await assertEachModuleOnce();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
