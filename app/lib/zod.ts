// What `import … from "zod"` resolves to in the builds (vite.aliases.ts): zod, configured before any schema
// module builds its schemas. `jitless` stops zod from probing `new Function` to compile fast parsers: our CSP
// forbids eval, so the probe only produced a CSP violation report on every page that loads a schema.
import { config } from "zod/v4";

config({ jitless: true });

export * from "zod/v4";
export { default } from "zod/v4";
