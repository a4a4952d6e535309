import { ArrowDownRight, ArrowUpRight } from "lucide-react";
import type { SummaryFigure } from "../build.server";

const SECTIONS = [
  ["income", "Income"],
  ["sources", "Lead sources"],
  ["speed", "Speed to lead"],
  ["funnel", "Pipeline"],
  ["activity", "Activity"],
  ["follow-up", "Follow-up e-mail"],
] as const;

function Change({ figure }: { figure: SummaryFigure }) {
  if (figure.changePct === null) return <span className="text-stone-700 dark:text-stone-300">{`No comparison (before: ${figure.previous})`}</span>;
  const good = figure.changePct === 0 ? null : figure.changePct > 0 === figure.higherIsBetter;
  const Icon = figure.changePct >= 0 ? ArrowUpRight : ArrowDownRight;
  const tone =
    good === null ? "text-stone-700 dark:text-stone-300" : good ? "text-emerald-800 dark:text-emerald-300" : "text-red-800 dark:text-red-300";
  return (
    <span className={`inline-flex items-center gap-1 ${tone}`}>
      <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
      {`${figure.changePct > 0 ? "+" : ""}${figure.changePct}% vs ${figure.previous}`}
    </span>
  );
}

/** The period's headline figures, each a link to its report, and the links to every report on the page. */
export function ReportSummary({ summary }: { summary: SummaryFigure[] }) {
  return (
    <>
      <ul aria-label="Summary" className="mb-4 grid grid-cols-2 gap-3 md:grid-cols-3">
        {summary.map((figure) => (
          <li key={figure.key} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
            <a href={`#${figure.section}`} className="group flex flex-col rounded-md">
              <span className="text-sm font-medium text-stone-600 group-hover:underline group-hover:underline-offset-4 dark:text-stone-400">
                {figure.label}
              </span>
              <span className="mt-1 text-2xl font-bold tabular-nums">{figure.value}</span>
            </a>
            <p className="mt-1 text-sm">
              <Change figure={figure} />
            </p>
          </li>
        ))}
      </ul>

      <nav aria-label="Reports on this page" className="relative -mx-4 mb-4 flex gap-1 overflow-x-auto px-4 print:hidden">
        {SECTIONS.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="inline-flex min-h-12 shrink-0 items-center rounded-lg px-3 text-sm font-medium text-brand-700 underline underline-offset-4 hover:bg-stone-100 dark:text-brand-400 dark:hover:bg-stone-800"
          >
            {label}
          </a>
        ))}
      </nav>
    </>
  );
}
