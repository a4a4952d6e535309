import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { watchForUpdates } from "~/lib/sw-update";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});

// Installable app: the service worker caches hashed assets and shows an offline page (workers/service-worker.ts).
// Registered after the page has loaded, so it never competes with the first render. This module runs
// async, often after the load event, hence the readyState check.
if ("serviceWorker" in navigator) {
  const register = () =>
    navigator.serviceWorker
      .register("/sw.js")
      .then(watchForUpdates)
      .catch((error: unknown) => console.warn("Service worker not registered", error));
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
