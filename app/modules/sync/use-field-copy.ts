import { useEffect } from "react";

/** How often an open app brings its field copy up to date (a sync with nothing new costs one small request). */
const SYNC_EVERY_MS = 5 * 60_000;
/** The longest the first sync waits for an idle moment after the page became interactive. */
const FIRST_SYNC_WITHIN_MS = 5_000;
/** Where the browser has no requestIdleCallback (Safari), the first sync waits this long instead. */
const FIRST_SYNC_FALLBACK_MS = 1_000;

/**
 * Keeps the signed-in agent's field copy (local-copy.client.ts) up to date while the app is open: on arrival, when
 * the connection or the app comes back, and every five minutes. The IndexedDB code loads after the page, on its own.
 * The first sync waits until the browser is idle after hydration: writing IndexedDB would otherwise hold the main
 * thread just when the page starts answering taps. Another agent's copy left on this device is deleted at once, not
 * at that sync: nothing on this page may find it in between (the offline field view opens the copy it finds).
 */
export function useFieldCopy(userId: string) {
  useEffect(() => {
    let stopped = false;
    const run = () => {
      if (stopped || !navigator.onLine) return;
      void import("./local-copy.client").then((copy) => copy.syncCopy(userId));
    };
    void import("./local-copy.client").then((copy) => copy.dropOtherCopies(userId));
    const onVisible = () => {
      if (document.visibilityState === "visible") run();
    };
    const first =
      typeof window.requestIdleCallback === "function"
        ? { id: window.requestIdleCallback(run, { timeout: FIRST_SYNC_WITHIN_MS }), cancel: (id: number) => window.cancelIdleCallback(id) }
        : { id: window.setTimeout(run, FIRST_SYNC_FALLBACK_MS), cancel: (id: number) => window.clearTimeout(id) };
    const timer = window.setInterval(run, SYNC_EVERY_MS);
    window.addEventListener("online", run);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      first.cancel(first.id);
      window.clearInterval(timer);
      window.removeEventListener("online", run);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [userId]);
}

/**
 * Deletes every field copy on this device before the sign-out goes on, after sending the changes still waiting when
 * there is a connection; changes that cannot be sent are only deleted once the agent agrees. A stuck store never
 * holds the sign-out more than 5 s.
 */
export function wipeThenSubmit(event: React.FormEvent<HTMLFormElement>) {
  const form = event.currentTarget;
  event.preventDefault();
  const confirmLoss = (waiting: number) =>
    window.confirm(
      `${waiting === 1 ? "1 change" : `${waiting} changes`} made offline ${waiting === 1 ? "has" : "have"} not been sent yet. Signing out deletes ${waiting === 1 ? "it" : "them"} from this phone. Sign out anyway?`,
    );
  const wiped = import("./local-copy.client").then((copy) => copy.wipeForSignOut(confirmLoss));
  void Promise.race([wiped, new Promise<boolean>((resolve) => window.setTimeout(() => resolve(true), 5_000))])
    .catch(() => true)
    .then((go) => {
      if (go) form.submit();
    });
}
