// A new version of the app's service worker, waiting: the page offers "A new version is ready — Reload"
// instead of the worker taking over mid-task (ADR 0019). Reload asks the waiting worker to activate, and this tab
// reloads once it controls the page. Other open tabs keep working on the version they loaded with.

let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export const subscribeToUpdate = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const updateWaiting = () => waiting !== null;

function offer(worker: ServiceWorker | null) {
  // Only an update: the first install has no controller and nothing to replace.
  if (!worker || !navigator.serviceWorker.controller || waiting === worker) return;
  waiting = worker;
  emit();
}

/** Follows a registration: a worker already waiting, and each new one once it has installed. */
export function watchForUpdates(registration: ServiceWorkerRegistration) {
  offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const next = registration.installing;
    next?.addEventListener("statechange", () => {
      if (next.state === "installed") offer(next);
    });
  });
  // An installed app can stay open for days: look for a new version when it comes back to the front, hourly at most.
  let checked = Date.now();
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && Date.now() - checked > 3_600_000) {
      checked = Date.now();
      registration.update().catch(() => {});
    }
  });
}

/** Reload into the new version: the waiting worker activates, then this tab reloads under it. */
export function applyUpdate() {
  if (!waiting) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  waiting.postMessage({ type: "SKIP_WAITING" });
}
