import type { LucideIcon } from "lucide-react";

export function EmptyState({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: React.ReactNode }) {
  return (
    <section className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-stone-300 bg-white px-6 py-12 text-center dark:border-stone-700 dark:bg-stone-900">
      <Icon aria-hidden="true" className="h-10 w-10 text-brand-700 dark:text-brand-400" />
      <h2 className="text-lg font-semibold">{title}</h2>
      {children ? <div className="max-w-md text-stone-600 dark:text-stone-400">{children}</div> : null}
    </section>
  );
}
