import { fileURLToPath } from "node:url";

// Module paths Vite's resolver gets wrong or that we wrap, shared by vite.config.ts and vitest.config.ts.
export const aliases = [
  // chrono-node exports its locales through a "./*" pattern that Vite does not match; point the English one at its file.
  { find: "chrono-node/en", replacement: fileURLToPath(new URL("./node_modules/chrono-node/dist/esm/locales/en/index.js", import.meta.url)) },
  // Every `import … from "zod"` gets zod configured jitless before any schema is built (app/lib/zod.ts).
  { find: /^zod$/, replacement: fileURLToPath(new URL("./app/lib/zod.ts", import.meta.url)) },
];
