import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * Writes the list of source modules the server build holds to build/.vite/server-modules.json (beside the manifests
 * Remix moves there; wrangler never reads it). build/server/index.js is one pre-bundled file, so wrangler's metafile
 * cannot say which modules are inside it; with this list, scripts/worker-bundle.mjs can tell a module the Worker
 * bundles a second time from source (ADR 0052).
 */
export function serverModuleList(): Plugin {
  let root = "";
  let ssr = false;
  const modules = new Set<string>();
  return {
    name: "porchlight:server-module-list",
    apply: "build",
    configResolved(config) {
      root = config.root;
      ssr = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      if (!ssr) return;
      for (const output of Object.values(bundle)) {
        if (output.type !== "chunk") continue;
        for (const id of Object.keys(output.modules)) {
          // Virtual modules (Remix's server build, "\0…") and query variants name no file of their own.
          const file = id.split("?")[0]!;
          if (file.startsWith("\0") || !path.isAbsolute(file)) continue;
          modules.add(path.relative(root, file).split(path.sep).join("/"));
        }
      }
    },
    writeBundle(options) {
      if (!ssr || !options.dir) return;
      const target = path.join(options.dir, "..", ".vite", "server-modules.json");
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, `${JSON.stringify([...modules].sort(), null, 2)}\n`);
    },
  };
}
