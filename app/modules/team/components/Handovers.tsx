import { JobProgress } from "~/modules/jobs/components/JobProgress";
import type { HandoverView } from "../handover.server";

/**
 * The owner's handovers of the last week (ADR 0039): a running one's progress (rows moved of the total, the page read
 * again every 2 s), then its result, or why it stopped with what moved and what stayed with the former member.
 */
export function HandoversSection({ handovers }: { handovers: HandoverView[] }) {
  return (
    <section aria-labelledby="handovers-heading" className="rounded-2xl border border-stone-200 bg-white p-5 dark:border-stone-800 dark:bg-stone-900">
      <h2 id="handovers-heading" className="text-lg font-semibold">
        Handovers
      </h2>
      <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
        A removed member's work moves to the teammate you chose in parts; this shows each handover of the last week.
      </p>
      <ul className="mt-3 flex flex-col gap-4">
        {handovers.map(({ job, from, to }) => (
          <li key={job.id} className="text-sm">
            <p className="font-medium">{`${from}'s work to ${to}`}</p>
            {job.status === "succeeded" ? (
              <p className="mt-1 text-stone-700 dark:text-stone-300">{`Done: ${job.result}`}</p>
            ) : job.status === "failed" ? (
              <p className="mt-1 text-red-700 dark:text-red-400">{`Stopped: ${job.error}`}</p>
            ) : (
              <JobProgress job={job} label="Handover" />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
