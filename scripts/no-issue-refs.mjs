// `node scripts/no-issue-refs.mjs [path …]`: fails, listing file:line, where a comment or a doc cites an issue
// tracker's number (the word, then the number). Readers have no access to the tracker: a comment says what
// the code does and why, and an ADR states its context. With no paths it reads the folders below, README.md
// and the config files at the root.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEFAULT_PATHS = [
  "app",
  "workers",
  "tests",
  "scripts",
  "bench",
  "docs",
  "content",
  "migrations",
  "README.md",
  ...readdirSync(root).filter((name) => /\.(?:ts|mjs)$/.test(name) && !name.endsWith(".d.ts")),
];
// Generated output and run results, not written by us.
const SKIP_DIRS = new Set(["node_modules", "build", "dist", ".wrangler", "test-results", "playwright-report", path.join("bench", "results")]);
const TEXT = /\.(?:[cm]?[jt]sx?|md|mdx|sql|css|html|json|ya?ml|toml|txt)$/;
// Built from parts so that this file does not match itself.
const WORD = ["iss", "ues?"].join("");
const PATTERN = new RegExp(`\\b${WORD}[\\s#-]*\\d+`, "i");

function* files(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    if (TEXT.test(target)) yield target;
    return;
  }
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.isDirectory() && (SKIP_DIRS.has(entry.name) || SKIP_DIRS.has(path.relative(root, path.join(target, entry.name))))) continue;
    yield* files(path.join(target, entry.name));
  }
}

const targets = process.argv.slice(2);
const found = [];
for (const target of targets.length ? targets : DEFAULT_PATHS) {
  for (const file of files(path.resolve(root, target))) {
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (PATTERN.test(line)) found.push(`${path.relative(root, file)}:${i + 1}: ${line.trim().slice(0, 160)}`);
      });
  }
}

if (found.length) {
  console.error(`${found.length} reference(s) to tracker numbers; say what the code does instead:`);
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
console.log("No references to tracker numbers.");
