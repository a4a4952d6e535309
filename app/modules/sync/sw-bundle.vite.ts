import { build } from "esbuild";
import path from "node:path";
import type { Plugin } from "vite";
import { SW_SEND_QUEUE_FILE } from "./field-copy";

/**
 * Bundles app/modules/sync/send-queue.sw.ts (the queue sender and idb) into one classic script for the service
 * worker's importScripts, and adds it to the client build. A service worker cannot load the app's ES modules in every
 * browser, so it gets its own bundle of the same code.
 */
export function serviceWorkerSendQueue(): Plugin {
  let ssr = false;
  return {
    name: "porchlight-sw-send-queue",
    apply: "build",
    configResolved(config) {
      ssr = Boolean(config.build.ssr);
    },
    async generateBundle() {
      if (ssr) return;
      const result = await build({
        entryPoints: [path.resolve("app/modules/sync/send-queue.sw.ts")],
        bundle: true,
        format: "iife",
        minify: true,
        target: "es2020",
        write: false,
        logLevel: "silent",
      });
      this.emitFile({ type: "asset", fileName: SW_SEND_QUEUE_FILE, source: result.outputFiles[0]!.text });
    },
  };
}
