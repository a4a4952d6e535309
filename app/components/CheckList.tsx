/** A two-column list of what is included, each item ticked. "boxed" puts each item on its own card. */
export function CheckList({ items, boxed = false }: { items: readonly string[]; boxed?: boolean }) {
  return (
    <ul className={`grid gap-2 sm:grid-cols-2 ${boxed ? "mt-4" : "mt-3"}`}>
      {items.map((item) => (
        <li key={item} className={`flex items-center gap-2 ${boxed ? "rounded-lg bg-white px-4 py-3 dark:bg-stone-900" : ""}`}>
          <span aria-hidden="true" className={boxed ? "text-emerald-700 dark:text-emerald-400" : "text-brand-700 dark:text-brand-400"}>
            ✓
          </span>
          {item}
        </li>
      ))}
    </ul>
  );
}
