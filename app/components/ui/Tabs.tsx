import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { tabClass } from "./TabNav";

/**
 * Tabs inside a page (WAI-ARIA tabs pattern): the arrow keys, Home and End move between tabs, only the chosen
 * tab is in the tab order, and its panel follows. For sections that are separate pages, TabNav links instead.
 */
export function Tabs<Id extends string>({
  label,
  tabs,
  current,
  onChange,
  children,
}: {
  label: string;
  tabs: readonly { id: Id; label: string }[];
  current: Id;
  onChange: (id: Id) => void;
  children: ReactNode;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = tabs.findIndex((t) => t.id === current);
    const next =
      event.key === "ArrowRight"
        ? (index + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    onChange(tabs[next]!.id);
    list.current?.querySelectorAll<HTMLButtonElement>('[role="tab"]')[next]?.focus();
  };
  return (
    <div>
      <div ref={list} role="tablist" aria-label={label} className="mb-4 flex gap-1 overflow-x-auto border-b border-stone-200 dark:border-stone-800">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${base}-${t.id}-tab`}
            aria-selected={current === t.id}
            aria-controls={`${base}-panel`}
            tabIndex={current === t.id ? 0 : -1}
            onClick={() => onChange(t.id)}
            onKeyDown={move}
            className={tabClass(current === t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${current}-tab`} tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
