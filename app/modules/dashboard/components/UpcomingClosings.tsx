import { Link } from "@remix-run/react";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import type { Dashboard } from "../metrics";

export function UpcomingClosings({ closings, today, prefs }: { closings: Dashboard["closings"]; today: string; prefs: DisplayPreferences }) {
  return (
    <ul className="divide-y divide-stone-200 dark:divide-stone-800">
      {closings.map((deal) => (
        // One line per deal whatever the title's length: the title and names give way (ellipsis, full text in
        // the tooltip), the price never wraps under them.
        <li key={deal.id} className="flex items-start justify-between gap-x-3 py-2 first:pt-0">
          <div className="min-w-0 flex-1">
            <Link to={`/deals/${deal.id}`} title={deal.title} className="block truncate font-medium underline-offset-4 hover:underline">
              {deal.title}
            </Link>
            <div
              className="truncate text-sm text-stone-600 dark:text-stone-400"
              title={[deal.stageName, deal.contactName].filter(Boolean).join(" · ")}
            >
              {deal.closeOn === today ? "Today" : formatDay(deal.closeOn, prefs)} · {deal.stageName}
              {deal.contactId ? (
                <>
                  {" · "}
                  <Link to={`/contacts/${deal.contactId}`} className="underline underline-offset-4">
                    {deal.contactName}
                  </Link>
                </>
              ) : null}
            </div>
          </div>
          <div className="shrink-0 whitespace-nowrap text-right text-sm tabular-nums">
            <div className="font-semibold">{formatCentsWhole(deal.dealValueCents, prefs)}</div>
            <div className="text-stone-600 dark:text-stone-400">net {formatCents(deal.netCents, prefs)}</div>
          </div>
        </li>
      ))}
    </ul>
  );
}
