/** Questions and answers as native disclosures: keyboard and screen-reader friendly without script. */
export function Faq({ items, heading = "Frequently asked questions" }: { items: readonly { q: string; a: React.ReactNode }[]; heading?: string }) {
  return (
    <section aria-labelledby="faq-heading">
      <h2 id="faq-heading" className="text-2xl font-bold">
        {heading}
      </h2>
      <div className="mt-4 divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
        {items.map((item) => (
          <details key={item.q} data-faq="" className="group px-4">
            <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-4 py-3 font-semibold [&::-webkit-details-marker]:hidden">
              {item.q}
              <span aria-hidden="true" className="text-xl text-stone-500 transition-transform group-open:rotate-45">
                +
              </span>
            </summary>
            <div className="pb-4 text-stone-700 dark:text-stone-300">{item.a}</div>
          </details>
        ))}
      </div>
    </section>
  );
}
