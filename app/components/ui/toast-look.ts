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
