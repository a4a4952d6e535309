import { useRevalidator } from "@remix-run/react";
import { useEffect } from "react";

/** A durable job as the Operations Center shows it (a durable_jobs row, ADR 0058). */
export interface JobView {
  id: string;
  status: "queued" | "running" | "succeeded" | "failed";
  step: string | null;
  done: number;
  total: number;
}

/** How often the page is read again while a job runs, so its progress moves without a reload. */
const REFRESH_MS = 2_000;

export const jobActive = (job: JobView | null | undefined): job is JobView => job?.status === "queued" || job?.status === "running";

/**
 * A running job's step and rows done, with a progress bar; the page is read again every 2 s while it runs (and while
 * the tab is visible), so the bar moves and the result shows when it ends.
 */
export function JobProgress({ job, label }: { job: JobView; label: string }) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [revalidate, state]);
  const percent = job.total > 0 ? Math.min(100, Math.floor((job.done / job.total) * 100)) : null;
  const rows = job.total > 0 ? `, ${job.done.toLocaleString("en-US")} of ${job.total.toLocaleString("en-US")} rows` : "";
  const text = job.status === "queued" ? `${label} queued: waiting to start.` : `${label} running: ${job.step ?? "working"}${rows}.`;
  return (
    <div className="mt-3 flex flex-col gap-2">
      <p role="status" className="font-medium">
        {text}
      </p>
      {/* A native progress element: a progress bar to assistive technology; without a total yet, indeterminate. */}
      <progress
        aria-label={`${label} progress`}
        value={percent ?? undefined}
        max={100}
        className="h-2 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800 [&::-moz-progress-bar]:bg-brand-600 [&::-webkit-progress-bar]:bg-stone-200 dark:[&::-webkit-progress-bar]:bg-stone-800 [&::-webkit-progress-value]:rounded-full [&::-webkit-progress-value]:bg-brand-600"
      />
    </div>
  );
}
