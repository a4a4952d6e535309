import { MoreHorizontal } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { buttonClass } from "./Button";

/** The look of a link or button inside an OverflowMenu: a full-width row, 44 px tall for a thumb. */
export const MENU_ITEM_CLASS =
  "flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left font-medium hover:bg-stone-100 dark:hover:bg-stone-800";

/**
 * "More": a button that shows a short list of links and buttons below it (the disclosure pattern: Tab moves
 * through them). It closes on Escape (focus back on the button), on a choice, on a tap elsewhere, and when
 * focus leaves it. For a page header whose actions do not fit a phone's width.
 */
export function OverflowMenu({
  label,
  className = "",
  children,
  trigger,
}: {
  label: string;
  className?: string;
  children: React.ReactNode;
  /** A button of another look (an icon in the app's header): its class and content; `label` is then its accessible name. */
  trigger?: { className: string; content: React.ReactNode };
}) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    root.current?.querySelector<HTMLElement>(`[id="${CSS.escape(id)}"] :is(a, button)`)?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open, id]);
  return (
    <div
      ref={root}
      className={`relative ${className}`}
      onBlur={(event) => {
        if (open && !root.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={trigger ? label : undefined}
        onClick={() => setOpen((was) => !was)}
        className={trigger?.className ?? buttonClass("secondary")}
      >
        {trigger ? (
          trigger.content
        ) : (
          <>
            <MoreHorizontal aria-hidden="true" className="h-5 w-5" />
            {label}
          </>
        )}
      </button>
      {open ? (
        // A click that bubbles up from an item (a link or button, so Enter and Space click it too) closes the menu.
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-static-element-interactions -- not a control itself
        <div
          id={id}
          className="absolute right-0 z-40 mt-2 flex w-60 flex-col gap-1 rounded-xl border border-stone-200 bg-white p-1 shadow-lg dark:border-stone-700 dark:bg-stone-900"
          onClick={(event) => {
            if ((event.target as HTMLElement).closest("a, button")) setOpen(false);
          }}
        >
          {children}
        </div>
      ) : null}
    </div>
  );
}
