// Prettier formats the tree (`npm run format`; `npm run format:check` in `npm test`). Its defaults already match the
// hand-written style (double quotes, semicolons, trailing commas, parentheses around arrow parameters); the width is
// where the code's long lines already run, which keeps the one-time reformat smallest among 120 to 150
// (150: 404 files; 140: 441; 120: 503).
// Biome's formatter checks the tree about ten times faster (~1.5 s of CPU against ~16 s), but it is not idempotent on
// member chains ending in an object literal (biomejs/biome#10531, open), the shape of every drizzle
// `db.insert(…).values({…})` here: a file it has just formatted would fail its own check.
/** @type {import("prettier").Config} */
export default { printWidth: 150 };
