import { useEffect } from "react";

/** How often an open app brings its field copy up to date (a sync with nothing new costs one small request). */
const SYNC_EVERY_MS = 5 * 60_000;

/**
 * Keeps the signed-in agent's field copy (local-copy.client.ts) up to date while the app is open: on arrival, when
 * the connection or the app comes back, and every five minutes. The IndexedDB code loads after the page, on its own.
 */
export function useFieldCopy(userId: string) {
  useEffect(() => {
    let stopped = false;
    const run = () => {
      if (stopped || !navigator.onLine) return;
      void import("./local-copy.client").then((copy) => copy.syncCopy(userId));
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") run();
    };
    run();
    const timer = window.setInterval(run, SYNC_EVERY_MS);
    window.addEventListener("online", run);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      window.clearInterval(timer);
      window.removeEventListener("online", run);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [userId]);
}

/** Deletes every field copy on this device before the sign-out goes on (at most 2 s, so a stuck store never holds it). */
export function wipeThenSubmit(event: React.FormEvent<HTMLFormElement>) {
  const form = event.currentTarget;
  event.preventDefault();
  const wiped = import("./local-copy.client").then((copy) => copy.wipeCopies());
  void Promise.race([wiped, new Promise((resolve) => window.setTimeout(resolve, 2_000))])
    .catch(() => {})
    .finally(() => form.submit());
}
