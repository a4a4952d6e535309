import { vitePlugin as remix, cloudflareDevProxyVitePlugin } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { inlineScript } from "./app/lib/inline-script.vite";
import { markdownContent } from "./app/modules/content/markdown.vite";
import { serviceWorkerSendQueue } from "./app/modules/sync/sw-bundle.vite";
import { aliases } from "./vite.aliases";
import { serverModuleList } from "./vite.server-modules";

declare module "@remix-run/cloudflare" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    // The dev proxy starts workerd; during `vite:build` it would keep the build from exiting.
    command === "serve" ? cloudflareDevProxyVitePlugin() : null,
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    inlineScript(),
    markdownContent(),
    serviceWorkerSendQueue(),
    tailwindcss(),
    tsconfigPaths(),
    serverModuleList(),
  ],
  ssr: {
    // Dependencies stay external: wrangler bundles build/server together with workers/app.ts, so the
    // Remix runtime is included once.
    target: "webworker",
    resolve: {
      conditions: ["workerd", "worker", "browser"],
      externalConditions: ["workerd", "worker"],
    },
  },
  resolve: {
    alias: aliases,
    mainFields: ["browser", "module", "main"],
  },
  build: {
    minify: true,
    // Remix moves it to build/.vite/client-manifest.json (not served); the bench sizes each route from it.
    manifest: true,
    // The server build holds the Worker's own code too (ADR 0052): its Durable Objects import the runtime's
    // `cloudflare:workers`, which only workerd provides.
    ...(isSsrBuild ? { rollupOptions: { external: [/^cloudflare:/] } } : {}),
  },
}));
