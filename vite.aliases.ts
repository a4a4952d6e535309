import { fileURLToPath } from "node:url";

// Module paths Vite's resolver gets wrong, shared by vite.config.ts and vitest.config.ts.
// chrono-node exports its locales through a "./*" pattern that Vite does not match; point the English one at its file.
export const aliases = {
  "chrono-node/en": fileURLToPath(new URL("./node_modules/chrono-node/dist/esm/locales/en/index.js", import.meta.url)),
};
