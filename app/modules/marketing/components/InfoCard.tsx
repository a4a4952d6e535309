import type { LucideIcon } from "lucide-react";

/** The public site's card: optional icon, a heading, a short text, and optionally a link below. */
export function InfoCard({
  icon: Icon,
  title,
  children,
  level = "h3",
  footer,
}: {
  icon?: LucideIcon;
  title: string;
  children: React.ReactNode;
  level?: "h2" | "h3";
  footer?: React.ReactNode;
}) {
  const Heading = level;
  return (
    <article className="flex flex-col rounded-2xl border border-stone-200 bg-white p-6 dark:border-stone-800 dark:bg-stone-900">
      {Icon ? <Icon aria-hidden="true" className="mb-3 h-8 w-8 text-brand-700 dark:text-brand-400" /> : null}
      <Heading className="text-lg font-semibold md:text-xl">{title}</Heading>
      <div className="mt-2 flex-1 text-stone-700 dark:text-stone-300">{children}</div>
      {footer}
    </article>
  );
}
