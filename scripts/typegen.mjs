// `npm run typegen`: worker-configuration.d.ts from wrangler.toml. Wrangler would also type whatever
// secrets the local .dev.vars holds, which differs per machine; it is set aside while the types are made.
import { existsSync, renameSync } from "node:fs";
import path from "node:path";
import { bin, root, run } from "./lib.mjs";

const devVars = path.join(root, ".dev.vars");
const aside = path.join(root, ".dev.vars.typegen");
const hidden = existsSync(devVars);
if (hidden) renameSync(devVars, aside);
try {
  await run(bin("wrangler"), [
    "types",
    "--env-interface",
    "CloudflareBindings",
    "--include-runtime=false",
    "--strict-vars=false",
    "worker-configuration.d.ts",
  ]);
} finally {
  if (hidden) renameSync(aside, devVars);
}
