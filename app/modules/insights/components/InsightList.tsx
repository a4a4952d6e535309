import { Link } from "@remix-run/react";
import { AlertTriangle, Lightbulb, MapPin, PhoneCall, Target } from "lucide-react";
import type { Insight, InsightPriority, InsightType } from "../insights";

const ICONS: Record<InsightType, typeof Lightbulb> = { urgent: AlertTriangle, opportunity: Lightbulb, market: MapPin, follow_up: PhoneCall };
const TYPE_LABELS: Record<InsightType, string> = { urgent: "Urgent", opportunity: "Opportunity", market: "Market", follow_up: "Follow-up" };
const PRIORITY_CLASSES: Record<InsightPriority, string> = {
  high: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  medium: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  low: "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
};

/** Smart insights as a list: priority and type in words (not colour alone), what is at stake, the next step. */
export function InsightList({ insights, empty }: { insights: Insight[]; empty: React.ReactNode }) {
  if (insights.length === 0) return <p className="text-sm text-stone-600 dark:text-stone-400">{empty}</p>;
  return (
    <ul className="divide-y divide-stone-200 dark:divide-stone-800">
      {insights.map((insight) => {
        const Icon = ICONS[insight.type];
        return (
          <li key={insight.id} className="flex gap-3 py-3 first:pt-0 last:pb-0">
            <Icon aria-hidden="true" className="mt-1 h-5 w-5 shrink-0 text-stone-500 dark:text-stone-400" />
            <div className="min-w-0 flex-1">
              <p className="flex flex-wrap items-center gap-2">
                <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${PRIORITY_CLASSES[insight.priority]}`}>
                  {insight.priority[0]!.toUpperCase() + insight.priority.slice(1)} priority
                </span>
                <span className="text-xs font-medium text-stone-600 dark:text-stone-400">{TYPE_LABELS[insight.type]}</span>
              </p>
              <h3 className="mt-1 font-semibold">{insight.title}</h3>
              <p className="mt-0.5 text-sm text-stone-700 dark:text-stone-300">{insight.description}</p>
              {insight.impact ? (
                <p className="mt-1 flex items-center gap-1 text-sm font-medium text-stone-800 dark:text-stone-200">
                  <Target aria-hidden="true" className="h-4 w-4 shrink-0" />
                  <span>
                    <span className="sr-only">Impact: </span>
                    {insight.impact}
                  </span>
                </p>
              ) : null}
              <Link
                to={insight.href}
                className="mt-2 inline-flex min-h-11 items-center rounded-lg border border-stone-300 px-3 text-sm font-semibold text-brand-800 hover:bg-stone-100 dark:border-stone-700 dark:text-brand-300 dark:hover:bg-stone-800"
              >
                {insight.action}
                <span className="sr-only">: {insight.title}</span>
              </Link>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
