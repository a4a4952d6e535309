export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: React.ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-3">
      {/* min-w-0 and wrap-anywhere: a long unbroken description (an e-mail address) wraps instead of widening the page. */}
      <div className="min-w-0 wrap-anywhere">
        <h1 className="text-2xl font-bold md:text-3xl">{title}</h1>
        {description ? <p className="mt-1 text-stone-600 dark:text-stone-400">{description}</p> : null}
      </div>
      {actions}
    </div>
  );
}
