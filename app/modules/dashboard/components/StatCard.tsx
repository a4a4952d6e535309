import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { METRIC_DEFINITIONS, type MetricKey } from "../metrics";
import { MetricDefinition } from "./MetricDefinition";

/** One quick stat: its name and figure link to where the figure comes from; the (i) button says how it is counted. */
export function StatCard({ metric, value, href, children }: { metric: MetricKey; value: string; href: string; children?: ReactNode }) {
  return (
    <li className="relative flex flex-col rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
      <Link to={href} className="group mr-8 flex flex-col rounded-md">
        <span className="text-sm font-medium text-stone-600 group-hover:underline group-hover:underline-offset-4 dark:text-stone-400">
          {METRIC_DEFINITIONS[metric].label}
        </span>{" "}
        <span className="mt-1 text-2xl font-bold tabular-nums md:text-3xl">{value}</span>
      </Link>
      {/* Darker than the label (stone-700/300: over 10:1 on the card in both themes): this line carries the figure's meaning. */}
      {children ? <div className="mt-1 text-sm text-stone-700 dark:text-stone-300">{children}</div> : null}
      <MetricDefinition metric={metric} />
    </li>
  );
}
