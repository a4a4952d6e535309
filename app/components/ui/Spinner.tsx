export function Spinner({ size = "md", label = "Loading…" }: { size?: "sm" | "md" | "lg"; label?: string }) {
  const dims = { sm: "h-4 w-4 border-2", md: "h-6 w-6 border-2", lg: "h-10 w-10 border-4" }[size];
  return (
    <span role={label ? "status" : undefined} className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={`${dims} inline-block animate-spin rounded-full border-current border-r-transparent text-brand-700 dark:text-brand-400`}
      />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
