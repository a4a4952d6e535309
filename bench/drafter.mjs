// The offline drafter's latency: bundles app/modules/ai/drafter.ts with the evaluation set
// (app/modules/ai/eval/scenarios.ts) for Node with esbuild, then times draft() with performance.now() over
// every scenario in turn (all tasks and tones, each with a few variants). No server: the drafter is pure.
//
//   node bench/drafter.mjs                 (standalone)
//   BENCH_ONLY=drafter npm run bench       (the same, as a section of the benchmark, without the server)
//   BENCH_DRAFTS=5000 node bench/drafter.mjs
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { root, step } from "../scripts/lib.mjs";

const DRAFTS = Math.max(100, Number(process.env.BENCH_DRAFTS ?? 2000));
const WARMUP = 200;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Times `drafts` offline drafts; returns { drafts, scenarios, p50, p90, p99, max } in milliseconds. */
export async function benchDrafter({ drafts = DRAFTS } = {}) {
  step(`Offline drafter: ${drafts.toLocaleString("en-US")} drafts over the evaluation set (Node, no server)`);
  const dir = mkdtempSync(path.join(os.tmpdir(), "porchlight-drafter-"));
  try {
    const entry = path.join(dir, "entry.ts");
    writeFileSync(
      entry,
      `export { draft } from ${JSON.stringify(path.join(root, "app/modules/ai/drafter.ts"))};\n` +
        `export { SCENARIOS } from ${JSON.stringify(path.join(root, "app/modules/ai/eval/scenarios.ts"))};\n`,
    );
    const outfile = path.join(dir, "drafter.mjs");
    // tsconfig.json's paths resolve "~/…" imports, as Vite does for the app.
    await build({
      entryPoints: [entry],
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outfile,
      tsconfig: path.join(root, "tsconfig.json"),
      logLevel: "error",
    });
    const { draft, SCENARIOS } = await import(pathToFileURL(outfile).href);
    const envelopes = SCENARIOS.flatMap((s) => [0, 1, 2].map((variant) => ({ ...s.envelope, variant })));
    for (let i = 0; i < WARMUP; i++) draft(envelopes[i % envelopes.length]);
    const times = new Float64Array(drafts);
    let chars = 0;
    for (let i = 0; i < drafts; i++) {
      const envelope = envelopes[i % envelopes.length];
      const start = performance.now();
      const text = draft(envelope);
      times[i] = performance.now() - start;
      chars += text.length;
    }
    const sorted = Array.from(times).sort((a, b) => a - b);
    const round = (ms) => Math.round(ms * 1000) / 1000;
    const result = {
      drafts,
      scenarios: SCENARIOS.length,
      p50: round(percentile(sorted, 50)),
      p90: round(percentile(sorted, 90)),
      p99: round(percentile(sorted, 99)),
      max: round(sorted[sorted.length - 1]),
    };
    console.log(
      `  ${drafts.toLocaleString("en-US")} drafts over ${result.scenarios} scenarios × 3 variants: p50 ${result.p50} ms, p90 ${result.p90} ms, ` +
        `p99 ${result.p99} ms, max ${result.max} ms (average ${Math.round(chars / drafts)} characters a draft)`,
    );
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) await benchDrafter();
