import { RefreshCw } from "lucide-react";
import { useSyncExternalStore } from "react";
import { Button } from "~/components/ui/Button";
import { applyUpdate, subscribeToUpdate, updateWaiting } from "~/lib/sw-update";

/** "A new version is ready — Reload", shown while a new version of the app waits (app/lib/sw-update.ts). */
export function UpdateBanner() {
  const ready = useSyncExternalStore(subscribeToUpdate, updateWaiting, () => false);
  if (!ready) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-24 z-50 mx-auto flex max-w-md items-center justify-between gap-3 rounded-xl border border-stone-200 bg-white px-4 py-3 text-sm shadow-lg md:bottom-6 dark:border-stone-700 dark:bg-stone-900"
    >
      <span className="font-medium text-stone-900 dark:text-stone-100">A new version is ready</span>
      <Button type="button" onClick={applyUpdate}>
        <RefreshCw aria-hidden="true" className="h-4 w-4" /> Reload
      </Button>
    </div>
  );
}
