// The service worker, served by the Worker at /sw.js with the build's version in its cache name, so each
// deploy replaces the cached files and deletes the old cache once no page uses it. It never caches pages:
// signed-in HTML is private (no-store). It serves the hashed build assets and the offline page's files from
// its cache (at install it keeps those of the offline page, the field view and every signed-in page), and shows /offline when a page cannot load, or, for the signed-in app's pages, the field view (/field:
// a page with no data in it that shows the agent's copy kept on the phone, ADR 0031). It never holds a navigation on work of its own
// (ADR 0019): the browser fetches the page (navigation preload) while the worker starts, every cache
// write sits inside event.waitUntil, and a new version waits for the old one's pages to close instead of
// taking them over mid-load, unless the agent presses Reload on "A new version is ready".
import { SW_SEND_QUEUE_FILE } from "~/modules/sync/field-copy";

/** `appAssets`: the build files of the signed-in app's pages (appPageAssets), kept so a tap on a tab works offline. */
export function serviceWorkerScript(version: string, appAssets: readonly string[] = []): string {
  return `const CACHE = ${JSON.stringify(`porchlight-${version}`)};
// Background Sync (app/modules/sync/send-queue.sw.ts, bundled by the build): sends the changes made offline once the
// connection is back, even with Porchlight closed. Versioned, so a new build is fetched with the new worker. Without
// it (it failed to load) the worker still runs and the open app sends the queue.
try {
  importScripts(${JSON.stringify(`/${SW_SEND_QUEUE_FILE}?v=${version}`)});
} catch {}
// Static assets serve public/offline.html at /offline (/offline.html redirects, which a navigation cannot use).
const OFFLINE_URL = "/offline";
// The offline page and everything it shows, so it renders whole with no network.
const PRECACHE = [OFFLINE_URL, "/icons/icon-192.png", "/favicon.svg"];
// The field view: the same document for everyone (fetched without cookies, so it holds no session, no toast and no
// data); the agent's copy is read from IndexedDB in the page. With it go the build files its HTML names. Without it
// (it failed to load) the worker still installs, and app pages offline get the offline page as before.
const FIELD_URL = "/field";
// The signed-in app's pages: offline, they open in the field view, which shows the saved copy or says the page
// needs a connection.
// The code of every signed-in page (hashed build files, app-page-assets.ts). Offline, a tap on a tab first loads the
// page's code, then its data request fails and the app opens the saved copy of that screen (OfflinePage.tsx); a page
// whose code is missing would instead reload the page the agent was on.
const APP_ASSETS = ${JSON.stringify(appAssets)};
const APP_PAGE = /^\\/(dashboard|contacts|pipeline|tasks|deals|activities|calendar-feed|reports|ai-assistant|settings|team|onboarding|operations|admin|qa)(\\/|$)/;

async function precacheField(cache) {
  const response = await fetch(FIELD_URL, { credentials: "omit" });
  if (!response.ok) throw new Error("The field view did not load: " + response.status);
  const html = await response.clone().text();
  const assets = [...new Set(html.match(/\\/assets\\/[^"'\\s<>]+/g) ?? [])];
  await cache.addAll(assets);
  await cache.put(FIELD_URL, response);
}

self.addEventListener("install", (event) => {
  // No skipWaiting: a new version activates once no page runs the old one, never under a page mid-load.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all([cache.addAll(PRECACHE), precacheField(cache).catch(() => {}), cache.addAll(APP_ASSETS).catch(() => {})])));
});

// The page's "A new version is ready — Reload" (app/lib/sw-update.ts): the agent chose to reload, so nothing is
// taken over mid-task; the tab that asked reloads as soon as this worker controls it.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  // No clients.claim: the page that registered the worker has already loaded everything it needs.
  event.waitUntil(
    Promise.all([
      self.registration.navigationPreload?.enable(),
      caches.keys().then((keys) => Promise.all(keys.filter((key) => key.startsWith("porchlight-") && key !== CACHE).map((key) => caches.delete(key)))),
    ]),
  );
});

// A navigation is the browser's own request: the preloaded response (started before this worker ran) or,
// where preload is missing, a plain fetch. Only when that fails is a cached page shown: an app page sends the
// browser to the field view (its path after the #, so the view opens the same screen), any other the offline page.
async function navigate(event) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch {
    const url = new URL(event.request.url);
    if (url.pathname === FIELD_URL) {
      const field = await caches.match(FIELD_URL, { ignoreSearch: true });
      if (field) return field;
    } else if (APP_PAGE.test(url.pathname) && (await caches.match(FIELD_URL))) {
      return Response.redirect(new URL(FIELD_URL + "#" + url.pathname + url.search, url).href, 302);
    }
    return (await caches.match(OFFLINE_URL)) ?? Response.error();
  }
}

// Hashed build assets never change under a name, and the offline page's files change only with a new
// version (a new cache): serve them from the cache and store a miss, the write kept inside waitUntil.
async function cacheFirst(event) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(event.request);
  if (hit) return hit;
  const response = await fetch(event.request);
  if (response.status === 200 && response.type === "basic") event.waitUntil(cache.put(event.request, response.clone()));
  return response;
}

// New-lead alerts (ADR 0032): each push carries { title, body, url, tag }, encrypted to this device. A
// tap opens the lead in an open Porchlight window, or a new one. Only paths of this site are opened.
const appPath = (value) => (typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/dashboard");

self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === "string" ? message.title : "Porchlight";
  const tag = typeof message.tag === "string" ? message.tag : undefined;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === "string" ? message.body : "",
      tag,
      renotify: Boolean(tag),
      icon: "/icons/icon-192.png",
      data: { url: appPath(message.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(appPath(event.notification.data && event.notification.data.url), self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (!open) return self.clients.openWindow(url);
      return open.focus().then((client) => client.navigate(url)).catch(() => self.clients.openWindow(url));
    }),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(event));
  else if (url.pathname.startsWith("/assets/") || PRECACHE.includes(url.pathname)) event.respondWith(cacheFirst(event));
});
`;
}
