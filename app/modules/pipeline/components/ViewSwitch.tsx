import { Link } from "@remix-run/react";
import { KanbanSquare, LayoutList } from "lucide-react";

export type PipelineView = "board" | "list";

/** Board or list: the two ways to see a pipeline (the agent's own, and the team's). */
export function ViewSwitch({ view, href }: { view: PipelineView; href: (view: PipelineView) => string }) {
  return (
    <nav aria-label="Pipeline view" className="flex rounded-lg border border-stone-300 dark:border-stone-700">
      {(["board", "list"] as const).map((option) => (
        <Link
          key={option}
          to={href(option)}
          aria-current={view === option ? "page" : undefined}
          className={`inline-flex min-h-12 items-center gap-2 px-3 font-medium ${view === option ? "bg-stone-200 dark:bg-stone-800" : ""} ${option === "board" ? "rounded-l-lg" : "rounded-r-lg"}`}
        >
          {option === "board" ? <KanbanSquare aria-hidden="true" className="h-5 w-5" /> : <LayoutList aria-hidden="true" className="h-5 w-5" />}
          {option === "board" ? "Board" : "List"}
        </Link>
      ))}
    </nav>
  );
}
