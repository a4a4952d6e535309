/** A progress bar: `percent` of 0 to 100, or null for work whose share done is not known yet (the bar pulses). */
export function ProgressBar({ label, percent, valueText }: { label: string; percent: number | null; valueText: string }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={percent !== null ? 0 : undefined}
      aria-valuemax={percent !== null ? 100 : undefined}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={valueText}
      className="h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
    >
      <div
        className={`h-full rounded-full bg-brand-600 transition-[width] ${percent === null ? "w-full animate-pulse" : ""}`}
        style={percent !== null ? { width: `${percent}%` } : undefined}
      />
    </div>
  );
}
