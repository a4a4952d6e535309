import { Link } from "@remix-run/react";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";
import type { Dashboard } from "../metrics";

/** Contacts by source as bars (lengths from d3-scale in the loader); each links to the contact list filtered to it. */
export function LeadSources({ sources, total }: { sources: Dashboard["sources"]; total: number }) {
  return (
    <ul className="flex flex-col gap-3">
      {sources.map((s) => (
        <li key={s.source}>
          <div className="flex items-baseline justify-between gap-3">
            <Link to={`/contacts?source=${s.source}`} className="inline-flex min-h-8 items-center font-medium underline-offset-4 hover:underline">
              {SOURCE_LABELS[s.source]}
            </Link>{" "}
            <span className="text-sm tabular-nums">
              <span className="font-semibold">{s.count.toLocaleString("en-US")}</span>
              <span className="text-stone-600 dark:text-stone-400"> · {Math.round((s.count / total) * 100)}%</span>
            </span>
          </div>
          <div aria-hidden="true" className="mt-1 h-2 rounded-full bg-stone-100 dark:bg-stone-800">
            <div className="h-2 rounded-full bg-sky-600 dark:bg-sky-400" style={{ width: `${s.barPct}%` }} />
          </div>
        </li>
      ))}
    </ul>
  );
}
