// `npm run test:unit [-- vitest args]`: vitest alone. The Worker tests run workers/app.ts, which imports the
// Remix build (build/server/index.js), so a build older than the sources would test yesterday's app and could
// pass or fail for the wrong reasons. Rebuild first whenever anything the build is made from is newer.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { bin, root, run, step } from "./lib.mjs";

const built = path.join(root, "build", "server", "index.js");
// What `remix vite:build` reads: the app, the Worker's own code (built with it, ADR 0052), the Markdown content, and
// the build's own configuration.
const SOURCES = ["app", "workers", "content", "public", "vite.config.ts", "vite.aliases.ts", "tsconfig.json", "package-lock.json"];

/** The newest modification time under `entry` (a file or a folder), with the file it belongs to. */
function newest(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return { time: 0, file: null };
  const stat = statSync(full);
  if (!stat.isDirectory()) return { time: stat.mtimeMs, file: entry };
  let best = { time: 0, file: null };
  for (const child of readdirSync(full)) {
    const found = newest(path.join(entry, child));
    if (found.time > best.time) best = found;
  }
  return best;
}

const source = SOURCES.map(newest).reduce((a, b) => (b.time > a.time ? b : a));
const buildTime = existsSync(built) ? statSync(built).mtimeMs : 0;
if (buildTime === 0 || source.time > buildTime) {
  step(buildTime === 0 ? "No build yet: building (remix vite:build)" : `${source.file} is newer than the build: rebuilding (remix vite:build)`);
  try {
    await run(bin("remix"), ["vite:build"], { quiet: true });
  } catch (error) {
    console.error(`The build failed, so the Worker tests cannot run against the current sources:\n${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
step("Unit and Worker tests (vitest in workerd)");
try {
  await run(bin("vitest"), ["run", ...process.argv.slice(2)]);
} catch {
  process.exit(1);
}
