// Installable app: the service worker caches hashed assets and shows an offline page (workers/service-worker.ts).
// Registered after the page has loaded, so it never competes with the first render. Scripts calling this often run
// after the load event, hence the readyState check. The app's entry and the sign-in page's inline script use it.
export function registerServiceWorker(onRegistered?: (registration: ServiceWorkerRegistration) => void) {
  if (!("serviceWorker" in navigator)) return;
  const register = () =>
    navigator.serviceWorker
      .register("/sw.js")
      .then(onRegistered)
      .catch((error: unknown) => console.warn("Service worker not registered", error));
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}
