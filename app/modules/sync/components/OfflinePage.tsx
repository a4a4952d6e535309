import { isRouteErrorResponse, useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { buttonClass } from "~/components/ui/Button";
import { fieldUrlFor } from "../field-copy";

/**
 * Whether a page failed to load for want of a connection: in the browser, the app's own navigation (a tab, a link, a
 * form) whose data request never reached the server. Chromium says "Failed to fetch", Firefox "NetworkError…", Safari
 * "Load failed"; with the browser offline any failure counts. An answer from the server (a 404, a 500) is not one.
 */
export function failedForWantOfConnection(error: unknown): boolean {
  // The server's runtime has a navigator too, without onLine: only a browser decides.
  if (typeof document === "undefined" || isRouteErrorResponse(error)) return false;
  if (navigator.onLine === false) return true;
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|network connection/i.test(error.message);
}

/**
 * A page that failed to load because the connection is gone: the same screen from the copy saved on the phone. With
 * the browser offline it goes straight to the field view; with the browser believing it is online (a signal that
 * lets nothing through) it loads the page as a document, which the service worker answers with the field view when
 * the page cannot load. Until a service worker is installed this says what happened.
 */
export function OfflinePage() {
  const location = useLocation();
  const path = location.pathname + location.search;
  const target = fieldUrlFor(path);
  const installed = typeof navigator !== "undefined" && Boolean(navigator.serviceWorker?.controller);
  useEffect(() => {
    if (installed) window.location.replace(navigator.onLine === false ? target : path);
  }, [installed, target, path]);
  return (
    <section className="py-8">
      <h1 className="text-2xl font-bold">You are offline</h1>
      <p className="mt-2 text-stone-600 dark:text-stone-300">
        {installed ? "Opening the copy saved on this phone…" : "This page needs a connection. It opens as soon as you are back online."}
      </p>
      {installed ? (
        <a href={target} className={buttonClass("primary", "mt-4")}>
          Open the saved copy
        </a>
      ) : null}
    </section>
  );
}
