import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { TOAST_DURATION_MS, TOAST_LIMIT, type ToastMessage } from "~/lib/toast";
import { TOAST_VIEWPORT_CLASS, VARIANT_CLASS, type ClientToast } from "./toast-look";

// A tiny store so any component (or a server-carried cookie toast) can raise a toast.
let toasts: ClientToast[] = [];
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function toast(message: Omit<ClientToast, "id"> & { id?: string }) {
  const id = message.id ?? `${Date.now()}-${toasts.length}`;
  toasts = [...toasts.filter((t) => t.id !== id), { ...message, id }].slice(-TOAST_LIMIT);
  emit();
}

function dismiss(id: string) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const EMPTY: ClientToast[] = [];

// The radix toast code (about 13 KiB gzip) loads the first time a toast must show, not with every page. Offline
// before it was ever loaded (the service worker keeps it once fetched), the newest toast shows as a static status.
type ToastListProps = { items: ClientToast[]; dismiss: (id: string) => void };
const ToastList = lazy<(props: ToastListProps) => React.ReactNode>(() =>
  import("./ToastList").catch(() => ({
    default: ({ items }: ToastListProps) => {
      const last = items.at(-1);
      return last ? <StaticToast key={last.id} toast={last} /> : null;
    },
  })),
);

export function Toaster({ serverToast }: { serverToast: ToastMessage | null }) {
  const items = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => EMPTY,
  );
  // Once shown, the list stays mounted, so its region and its F8 hotkey stay for the page's lifetime.
  const [needed, setNeeded] = useState(false);
  if (items.length > 0 && !needed) setNeeded(true);
  useEffect(() => {
    if (serverToast) toast(serverToast);
  }, [serverToast]);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <ToastList items={items} dismiss={dismiss} />
    </Suspense>
  );
}

/**
 * A cookie-carried toast on a static page (served without React): same look and place, announced as a
 * status, and hidden by CSS after the toast duration since there is no script to dismiss it.
 */
export function StaticToast({ toast: item }: { toast: ToastMessage | null }) {
  if (!item) return null;
  return (
    <div className={TOAST_VIEWPORT_CLASS}>
      <div
        role="status"
        style={{ animation: `static-toast-out 200ms ${TOAST_DURATION_MS}ms forwards` }}
        className={`flex flex-col gap-1 rounded-xl border p-4 shadow-lg ${VARIANT_CLASS[item.variant ?? "default"]}`}
      >
        <p data-title="" className="font-semibold">
          {item.title}
        </p>
        {item.description ? (
          <p data-description="" className="text-sm opacity-90">
            {item.description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
