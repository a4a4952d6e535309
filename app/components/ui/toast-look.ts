import type { ToastMessage } from "~/lib/toast";

// What a toast is and how each kind looks: shared by the toast store (Toaster.tsx) and the radix list that loads the
// first time a toast shows (ToastList.tsx), so neither imports the other.

/** Buttons or links on a browser-raised toast (Undo, View Contact). Server-carried toasts have none. */
type ToastAction = { label: string; altText: string } & ({ onClick: () => void } | { href: string; newTab?: boolean });
export type ClientToast = ToastMessage & { actions?: ToastAction[] };

export const VARIANT_CLASS = {
  default: "border-stone-200 bg-white text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100",
  success: "border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50",
  destructive: "border-red-300 bg-red-50 text-red-950 dark:border-red-700 dark:bg-red-950 dark:text-red-50",
};

/**
 * Where toasts show: just below the app header (4rem), centred on phones and at the right from sm up. Never over the
 * header: a toast there took the taps meant for its buttons, and a pointer resting on a toast pauses its timer.
 */
export const TOAST_VIEWPORT_CLASS =
  "pointer-events-none fixed inset-x-0 top-16 z-[100] mx-auto flex max-w-md flex-col p-4 sm:left-auto sm:right-0 sm:mx-0";
