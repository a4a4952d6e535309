export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2 font-bold text-stone-900 dark:text-stone-50">
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
        <rect width="32" height="32" rx="8" className="fill-brand-700 dark:fill-brand-400" />
        <path d="M8 16 16 9l8 7v8H8z" className="fill-white dark:fill-stone-950" />
        <circle cx="16" cy="18" r="2.5" className="fill-brand-500" />
      </svg>
      {compact ? <span className="sr-only">Porchlight</span> : <span className="text-lg">Porchlight</span>}
    </span>
  );
}
