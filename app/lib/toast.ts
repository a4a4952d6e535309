// Toast shape and constants shared by the server (cookie-carried toasts) and the browser.
type ToastVariant = "default" | "success" | "destructive";
export interface ToastMessage {
  id: string;
  title: string;
  description?: string;
  variant?: ToastVariant;
}

// Spec section 9: one toast at a time, 5000 ms, swipe right past 50 px, F8 to focus the toast region.
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOAST_HOTKEY = ["F8"];
