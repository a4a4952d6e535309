import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { METRIC_DEFINITIONS, type MetricKey } from "../metrics";
import { MetricDefinition } from "./MetricDefinition";

/** A card of the dashboard: its heading, how its figures are counted, its content and a link onward. */
export function DashboardSection({
  metric,
  id,
  more,
  children,
}: {
  metric: MetricKey;
  id?: string;
  more?: { to: string; label: string };
  children: ReactNode;
}) {
  const headingId = `${metric}-heading`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="relative flex scroll-mt-20 flex-col rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id={headingId} className="mr-9 text-lg font-semibold">
        {METRIC_DEFINITIONS[metric].label}
      </h2>
      <MetricDefinition metric={metric} />
      <div className="mt-3 flex-1">{children}</div>
      {more ? (
        <p className="mt-3">
          <Link
            to={more.to}
            className="inline-flex min-h-10 items-center text-sm font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
          >
            {more.label}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** What a section says when it has nothing to show yet. */
export function SectionEmpty({ children }: { children: ReactNode }) {
  return <p className="text-sm text-stone-600 dark:text-stone-400">{children}</p>;
}
