import { Link } from "@remix-run/react";
import { ListChecks } from "lucide-react";

export interface PlanSummary {
  id: string;
  name: string;
  steps: number;
  /** The last step's day from the start. */
  days: number;
  /** What starts it: "New Zillow leads", "Deal enters Closed Won", "By hand". */
  starts: string;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The agent's action plans: each with its steps, how long it runs and what starts it. */
export function PlanList({ plans }: { plans: PlanSummary[] }) {
  return (
    <section aria-labelledby="plans-heading">
      <h2 id="plans-heading" className="mb-2 text-lg font-semibold">
        Your plans
      </h2>
      <ul className="divide-y divide-stone-200 rounded-2xl border border-stone-200 bg-white dark:divide-stone-800 dark:border-stone-800 dark:bg-stone-900">
        {plans.map((p) => (
          <li key={p.id} className="flex items-start gap-3 p-3">
            <ListChecks aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700 dark:text-brand-400" />
            <div className="min-w-0 flex-1">
              <Link to={`/plans/${p.id}`} className="font-medium underline-offset-2 hover:underline">
                {p.name}
              </Link>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                {`${plural(p.steps, "step")} ${p.days === 0 ? "at the start" : `over ${plural(p.days, "day")}`}`} ·{" "}
                <span className="text-stone-800 dark:text-stone-200">{p.starts}</span>
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
