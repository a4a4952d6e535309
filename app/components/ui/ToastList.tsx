import * as ToastPrimitive from "@radix-ui/react-toast";
import { X } from "lucide-react";
import { TOAST_DURATION_MS, TOAST_HOTKEY, TOAST_SWIPE_THRESHOLD } from "~/lib/toast";
import { TOAST_VIEWPORT_CLASS, VARIANT_CLASS, type ClientToast } from "./toast-look";

const TOAST_ACTION_CLASS =
  "inline-flex min-h-10 items-center rounded-md border border-current px-3 text-sm font-semibold hover:bg-black/5 dark:hover:bg-white/10";

/** The toasts on screen, with radix's announcements, swipe, hotkey and timers (loaded lazily by Toaster). */
export default function ToastList({ items, dismiss }: { items: ClientToast[]; dismiss: (id: string) => void }) {
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={TOAST_SWIPE_THRESHOLD} label="Notifications (F8)">
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
            {item.description ? <ToastPrimitive.Description className="text-sm opacity-90">{item.description}</ToastPrimitive.Description> : null}
            {item.actions?.length ? (
              <div className="mt-2 flex flex-wrap gap-2">
                {item.actions.map((action) => (
                  <ToastPrimitive.Action key={action.label} altText={action.altText} asChild>
                    {"href" in action ? (
                      <a
                        href={action.href}
                        target={action.newTab ? "_blank" : undefined}
                        rel={action.newTab ? "noopener" : undefined}
                        className={TOAST_ACTION_CLASS}
                      >
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
      <ToastPrimitive.Viewport hotkey={TOAST_HOTKEY} className={`${TOAST_VIEWPORT_CLASS} gap-2 outline-none`} />
    </ToastPrimitive.Provider>
  );
}
