// The client JavaScript each route loads, from the build's manifest (one definition for `npm run bench`'s table and
// the check in `npm test`): entry + root + the signed-in layout + the route module, with every chunk they import.
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { root } from "./lib.mjs";

/** Where a build is: its manifest and its client files (the bench serves a copy of them, bench/server.mjs). */
export const BUILD = { manifest: path.join(root, "build/.vite/client-manifest.json"), clientDir: path.join(root, "build/client") };

function readManifest(build) {
  const manifest = JSON.parse(readFileSync(build.manifest, "utf8"));
  // Remix keys route modules as "app/routes/x.tsx?__remix-build-client-route".
  const keyOf = Object.fromEntries(Object.keys(manifest).map((key) => [key.split("?")[0], key]));
  const closure = (key, seen = new Set()) => {
    const entry = manifest[key];
    if (!entry || seen.has(key)) return seen;
    seen.add(key);
    for (const dep of entry.imports ?? []) closure(dep, seen);
    return seen;
  };
  /** The files `parts` (source paths) load, with their imports. */
  const filesOf = (parts) => {
    const files = new Set();
    for (const part of parts) {
      if (!keyOf[part]) throw new Error(`${part} is missing from the client manifest`);
      for (const key of closure(keyOf[part])) files.add(manifest[key].file);
    }
    return files;
  };
  const gzip = (file) => gzipSync(readFileSync(path.join(build.clientDir, file)), { level: 9 }).length;
  return { keyOf, filesOf, gzip };
}

/** Each route's client JavaScript (gzip bytes), largest first. */
export function clientJsPerRoute(build = BUILD) {
  const { keyOf, filesOf, gzip } = readManifest(build);
  const routes = Object.keys(keyOf).filter((k) => k.startsWith("app/routes/"));
  return routes
    .map((route) => {
      const name = path.basename(route).replace(/\.tsx?$/, "");
      // Static pages (handle = STATIC_PAGE, ADR 0011) are served without the React runtime: they load none of it.
      if (/export const handle = STATIC_PAGE/.test(readFileSync(path.join(root, route), "utf8"))) return { route: name, gzip: 0, static: true };
      const layouts = name.startsWith("_app.") ? ["app/routes/_app.tsx"] : [];
      const files = filesOf(["app/entry.client.tsx", "app/root.tsx", ...layouts, route]);
      return { route: name, gzip: [...files].reduce((sum, file) => sum + gzip(file), 0) };
    })
    .sort((a, b) => b.gzip - a.gzip);
}

/** What every signed-in page loads (entry, root and the signed-in layout): its files, gzip bytes, and those holding zod. */
export function signedInShell(build = BUILD) {
  const { filesOf, gzip } = readManifest(build);
  const files = [...filesOf(["app/entry.client.tsx", "app/root.tsx", "app/routes/_app.tsx"])];
  // zod's own chunk, or its code inlined into another.
  const withZod = files.filter((file) => /(^|\/)zod-[\w-]+\.js$/.test(file) || readFileSync(path.join(build.clientDir, file), "utf8").includes("ZodError"));
  return { files, gzip: files.reduce((sum, file) => sum + gzip(file), 0), withZod };
}
