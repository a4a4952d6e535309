import { Link } from "@remix-run/react";

/** One tab's look, chosen or not: TabNav's links and Tabs' buttons alike. */
export const tabClass = (chosen: boolean) =>
  `-mb-px inline-flex min-h-12 shrink-0 items-center whitespace-nowrap border-b-2 px-3 font-medium sm:px-4 ${
    chosen
      ? "border-brand-700 text-brand-700 dark:border-brand-400 dark:text-brand-400"
      : "border-transparent text-stone-600 hover:text-stone-900 dark:text-stone-400 dark:hover:text-stone-100"
  }`;

/**
 * A page's sections as links (`?tab=<id>`), the current one marked for screen readers and by its underline.
 * When they do not fit a phone's width the row scrolls sideways on its own, never the page.
 */
export function TabNav<Id extends string>({
  label,
  base,
  tabs,
  current,
}: {
  label: string;
  base: string;
  /** A tab with `to` is a page of its own at that path. */
  tabs: readonly { id: Id; label: string; to?: string }[];
  current: Id;
}) {
  return (
    <nav aria-label={label} className="mb-6 flex gap-1 overflow-x-auto overflow-y-hidden border-b border-stone-200 sm:gap-2 dark:border-stone-800">
      {tabs.map((t) => (
        <Link
          key={t.id}
          to={t.to ?? `${base}?tab=${t.id}`}
          aria-current={current === t.id ? "page" : undefined}
          className={tabClass(current === t.id)}
        >
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
