import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { useEffect, useSyncExternalStore } from "react";
import {
  TOAST_DURATION_MS,
  TOAST_HOTKEY,
  TOAST_LIMIT,
  TOAST_SWIPE_THRESHOLD,
  type ToastMessage,
} from "~/lib/toast";

/** Buttons or links on a browser-raised toast (Undo, View Contact). Server-carried toasts have none. */
type ToastAction = { label: string; altText: string } & ({ onClick: () => void } | { href: string; newTab?: boolean });
type ClientToast = ToastMessage & { actions?: ToastAction[] };

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

const VARIANT_CLASS = {
  default: "border-stone-200 bg-white text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100",
  success: "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50",
  destructive: "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50",
};

const TOAST_ACTION_CLASS =
  "inline-flex min-h-10 items-center rounded-md border border-current px-3 text-sm font-semibold hover:bg-black/5 dark:hover:bg-white/10";

export function Toaster({ serverToast }: { serverToast: ToastMessage | null }) {
  const items = useSyncExternalStore(subscribe, () => toasts, () => EMPTY);
  useEffect(() => {
    if (serverToast) toast(serverToast);
  }, [serverToast]);

  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD}
      label="Notifications (F8)"
    >
      {items.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          type={item.variant === "destructive" ? "foreground" : "background"}
          onOpenChange={(open) => {
            if (!open) dismiss(item.id);
          }}
          className={`pointer-events-auto relative flex w-full items-start gap-3 rounded-xl border p-4 pr-10 shadow-lg ${
            VARIANT_CLASS[item.variant ?? "default"]
          } data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full`}
        >
          <div className="flex flex-col gap-1">
            <ToastPrimitive.Title className="font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">{item.description}</ToastPrimitive.Description>
            ) : null}
            {item.actions?.length ? (
              <div className="mt-2 flex flex-wrap gap-2">
                {item.actions.map((action) => (
                  <ToastPrimitive.Action key={action.label} altText={action.altText} asChild>
                    {"href" in action ? (
                      <a href={action.href} target={action.newTab ? "_blank" : undefined} rel={action.newTab ? "noopener" : undefined} className={TOAST_ACTION_CLASS}>
                        {action.label}
                      </a>
                    ) : (
                      <button type="button" onClick={action.onClick} className={TOAST_ACTION_CLASS}>
                        {action.label}
                      </button>
                    )}
                  </ToastPrimitive.Action>
                ))}
              </div>
            ) : null}
          </div>
          <ToastPrimitive.Close aria-label="Dismiss notification" className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100">
            <X aria-hidden="true" className="h-5 w-5" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={TOAST_HOTKEY}
        className="pointer-events-none fixed inset-x-0 top-0 z-[100] mx-auto flex max-w-md flex-col gap-2 p-4 outline-none sm:left-auto sm:right-0 sm:mx-0"
      />
    </ToastPrimitive.Provider>
  );
}

/**
 * A cookie-carried toast on a static page (served without React): same look and place, announced as a
 * status, and hidden by CSS after the toast duration since there is no script to dismiss it.
 */
export function StaticToast({ toast: item }: { toast: ToastMessage | null }) {
  if (!item) return null;
  return (
    <div className="pointer-events-none fixed inset-x-0 top-0 z-[100] mx-auto flex max-w-md flex-col p-4 sm:left-auto sm:right-0 sm:mx-0">
      <div
        role="status"
        style={{ animation: `static-toast-out 200ms ${TOAST_DURATION_MS}ms forwards` }}
        className={`flex flex-col gap-1 rounded-xl border p-4 shadow-lg ${VARIANT_CLASS[item.variant ?? "default"]}`}
      >
        <p className="font-semibold">{item.title}</p>
        {item.description ? <p className="text-sm opacity-90">{item.description}</p> : null}
      </div>
    </div>
  );
}
