import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { buttonClass } from "~/components/ui/Button";
import { fieldUrlFor } from "../field-copy";

/**
 * A page that failed to load because the connection is gone: the same screen from the copy saved on the phone. The
 * service worker serves that view offline once it is installed; until then this says what happened.
 */
export function OfflinePage() {
  const location = useLocation();
  const target = fieldUrlFor(location.pathname + location.search);
  const installed = typeof navigator !== "undefined" && Boolean(navigator.serviceWorker?.controller);
  useEffect(() => {
    if (installed) window.location.replace(target);
  }, [installed, target]);
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
