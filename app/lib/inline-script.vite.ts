import { build } from "esbuild";
import path from "node:path";
import type { Plugin } from "vite";

const SUFFIX = "?inline-script";

/**
 * `import code from "./x.inline.ts?inline-script"`: the file and what it imports, bundled by esbuild into one minified
 * classic script, as a string to put in an inline <script nonce>. For pages served without React (ADR 0011) whose
 * browser behaviour shares constants and code with the app, so they are written once, in TypeScript.
 */
export function inlineScript(): Plugin {
  return {
    name: "porchlight-inline-script",
    enforce: "pre",
    async load(id) {
      if (!id.endsWith(SUFFIX)) return null;
      const entry = id.slice(0, -SUFFIX.length);
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: "iife",
        minify: true,
        target: "es2020",
        write: false,
        metafile: true,
        logLevel: "silent",
      });
      for (const input of Object.keys(result.metafile.inputs)) this.addWatchFile(path.resolve(input));
      return `export default ${JSON.stringify(result.outputFiles[0]!.text.trim())};`;
    },
  };
}
