import { Link, useFetcher } from "@remix-run/react";
import { Pause, Play, Square } from "lucide-react";
import { useId } from "react";
import { Button } from "~/components/ui/Button";
import { SelectField } from "~/components/ui/SelectField";
import { toast } from "~/components/ui/Toaster";
import type { PlanRunStatus, PlanStepKind } from "~/db/enums";
import type { ActionResult } from "~/lib/action-result";
import { formatDate, formatDateTime, formatWeekdayTime, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { STEP_SHORT_LABELS } from "../plan";

type When = Date | string | number;

/** A contact's run of a plan as the card shows it, with its history oldest first. */
interface RunView {
  run: {
    id: string;
    planId: string | null;
    planName: string;
    status: PlanRunStatus;
    nextStep: number;
    nextAt: When | null;
    stopReason: string | null;
    startedAt: When;
    endedAt: When | null;
    steps: { kind: PlanStepKind }[];
  };
  events: { id: string; kind: string; detail: string | null; at: When }[];
}

function statusLine({ run }: RunView, prefs: DisplayPreferences): string {
  if (run.status === "paused") return "Paused";
  if (run.status === "finished") return run.endedAt ? `Finished ${formatDate(run.endedAt, prefs)}` : "Finished";
  if (run.status === "stopped") return run.stopReason?.startsWith("Stopped") ? run.stopReason : `Stopped: ${run.stopReason ?? "no reason given."}`;
  const next = run.steps[run.nextStep];
  if (!next || run.nextAt == null) return "Running";
  return `Running — next: “${STEP_SHORT_LABELS[next.kind]}” on ${formatWeekdayTime(run.nextAt, prefs)}`;
}

const STATUS_DOT: Record<PlanRunStatus, string> = {
  running: "bg-emerald-600 dark:bg-emerald-400",
  paused: "bg-amber-500 dark:bg-amber-300",
  finished: "bg-stone-400 dark:bg-stone-500",
  stopped: "bg-red-600 dark:bg-red-400",
};

/**
 * The contact page's Action plans card: each run with where it is and its history, Pause / Resume / Stop, and a plan to
 * start. Posts to the contact's plans route with a fetcher; the page reads again after each change.
 */
export function ContactPlans({
  contact,
  runs,
  plans,
  prefs,
  className,
}: {
  contact: { id: string; name: string };
  runs: RunView[];
  plans: { id: string; name: string }[];
  prefs: DisplayPreferences;
  className: string;
}) {
  const id = useId();
  const fetcher = useFetcher<ActionResult<{ message: string }>>();
  useFetcherResult(fetcher, (result) => {
    if (result.ok) toast({ title: result.message, variant: "success" });
    else toast({ title: result.error, variant: "destructive" });
  });
  const action = `/contacts/${contact.id}/plans`;
  const busy = (intent: string, key: string) =>
    fetcher.state !== "idle" &&
    fetcher.formData?.get("intent") === intent &&
    (fetcher.formData.get("runId") ?? fetcher.formData.get("planId")) === key;
  // A plan the contact is on (running or paused) cannot start again until it ends.
  const live = new Set(runs.filter((r) => r.run.status === "running" || r.run.status === "paused").map((r) => r.run.planId));
  const startable = plans.filter((p) => !live.has(p.id));

  const runButton = (r: RunView, intent: "pause" | "resume" | "stop", label: string, Icon: typeof Pause) => (
    <fetcher.Form method="post" action={action}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="runId" value={r.run.id} />
      <Button type="submit" variant="secondary" busy={busy(intent, r.run.id)} aria-label={`${label} “${r.run.planName}”`}>
        <Icon aria-hidden="true" className="h-4 w-4" /> {label}
      </Button>
    </fetcher.Form>
  );

  return (
    <section aria-labelledby={`${id}-heading`} className={className}>
      <h2 id={`${id}-heading`} className="mb-2 text-lg font-semibold">
        Action plans
      </h2>
      {runs.length === 0 ? <p className="text-sm text-stone-600 dark:text-stone-400">{contact.name} is on no plan.</p> : null}
      <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
        {runs.map((r) => {
          const active = r.run.status === "running" || r.run.status === "paused";
          return (
            <li key={r.run.id} className="py-3 first:pt-0">
              <p className="font-medium">
                {r.run.planId ? (
                  <Link to={`/plans/${r.run.planId}`} className="underline-offset-2 hover:underline">
                    {r.run.planName}
                  </Link>
                ) : (
                  r.run.planName
                )}
              </p>
              <p className="mt-0.5 flex items-start gap-2 text-sm text-stone-700 dark:text-stone-300">
                <span aria-hidden="true" className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${STATUS_DOT[r.run.status]}`} />
                <span>
                  {statusLine(r, prefs)}
                  {active ? ` · step ${Math.min(r.run.nextStep + 1, r.run.steps.length)} of ${r.run.steps.length}` : null}
                </span>
              </p>
              {active ? (
                <div className="mt-2 flex flex-wrap gap-2">
                  {r.run.status === "running" ? runButton(r, "pause", "Pause", Pause) : runButton(r, "resume", "Resume", Play)}
                  {runButton(r, "stop", "Stop", Square)}
                </div>
              ) : null}
              {r.events.length > 0 ? (
                <details className="mt-2 text-sm">
                  <summary className="min-h-11 cursor-pointer py-2 font-medium text-stone-700 dark:text-stone-300">
                    History ({r.events.length})
                  </summary>
                  <ol className="flex flex-col gap-1 border-l-2 border-stone-200 pl-3 dark:border-stone-700">
                    {r.events.map((e) => (
                      <li key={e.id}>
                        <time dateTime={new Date(e.at).toISOString()} className="text-stone-600 dark:text-stone-400">
                          {formatDateTime(e.at, prefs)}
                        </time>{" "}
                        <span className="wrap-anywhere">{e.detail ?? e.kind}</span>
                      </li>
                    ))}
                  </ol>
                </details>
              ) : null}
            </li>
          );
        })}
      </ul>
      {plans.length === 0 ? (
        <p className="mt-3 text-sm text-stone-700 dark:text-stone-300">
          You have no action plans yet.{" "}
          <Link to="/plans" className="font-medium text-brand-800 underline underline-offset-2 dark:text-brand-300">
            Set one up
          </Link>
        </p>
      ) : startable.length > 0 ? (
        <fetcher.Form method="post" action={action} className="mt-3 flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="start" />
          <div className="min-w-0 flex-1 basis-48">
            <SelectField label="Start a plan" name="planId" options={startable.map((p) => [p.id, p.name] as const)} />
          </div>
          <Button type="submit" busy={fetcher.state !== "idle" && fetcher.formData?.get("intent") === "start"}>
            <Play aria-hidden="true" className="h-4 w-4" /> Start
          </Button>
        </fetcher.Form>
      ) : (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400">{contact.name} is on every plan you have.</p>
      )}
    </section>
  );
}
