import { X } from "lucide-react";
import { Button } from "./Button";
import { forwardRef, type ReactNode } from "react";

/**
 * A modal on the native <dialog>: the browser traps focus, Esc closes it, and focus returns to what opened
 * it. Open it with ref.current.showModal(). `onClose` runs however it closes (Esc, the X, code).
 */
export const Modal = forwardRef<HTMLDialogElement, { id: string; title: string; children: ReactNode; onClose?: () => void; wide?: boolean }>(
  function Modal({ id, title, children, onClose, wide = false }, ref) {
    return (
      <dialog
        ref={ref}
        aria-labelledby={`${id}-title`}
        onClose={onClose}
        className={`m-auto max-h-[92dvh] ${wide ? "w-[min(44rem,calc(100vw-1rem))]" : "w-[min(28rem,calc(100vw-1rem))]"} overflow-y-auto rounded-2xl border border-stone-200 bg-stone-50 p-0 text-stone-900 shadow-2xl backdrop:bg-black/50 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-100`}
      >
        <div className="sticky top-0 z-10 flex items-center justify-between border-b border-stone-200 bg-stone-50 px-4 py-3 dark:border-stone-800 dark:bg-stone-950">
          <h2 id={`${id}-title`} className="text-lg font-semibold">
            {title}
          </h2>
          <button
            type="button"
            onClick={(event) => event.currentTarget.closest("dialog")?.close()}
            aria-label="Close"
            className="inline-flex h-12 w-12 items-center justify-center rounded-lg hover:bg-stone-200 dark:hover:bg-stone-800"
          >
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <div className="p-4">{children}</div>
      </dialog>
    );
  },
);

/** The footer of a form in a modal: Cancel closes the dialog, the submit button shows its busy state. */
export function ModalActions({
  submitLabel,
  busy = false,
  busyLabel,
  className = "",
}: {
  submitLabel: string;
  busy?: boolean;
  busyLabel?: string;
  className?: string;
}) {
  return (
    <div className={`flex justify-end gap-2 ${className}`}>
      <Button type="button" variant="secondary" onClick={(event) => event.currentTarget.closest("dialog")?.close()}>
        Cancel
      </Button>
      <Button type="submit" busy={busy} busyLabel={busyLabel}>
        {submitLabel}
      </Button>
    </div>
  );
}
