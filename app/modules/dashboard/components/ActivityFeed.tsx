import { Link } from "@remix-run/react";
import { formatDateTime, type DisplayPreferences } from "~/lib/format";
import { ACTIVITY_TYPE_LABELS } from "~/modules/activities/activity.schema";
import type { Dashboard } from "../metrics";

export function ActivityFeed({ activities, prefs }: { activities: Dashboard["activities"]; prefs: DisplayPreferences }) {
  return (
    <ol className="divide-y divide-stone-200 dark:divide-stone-800">
      {activities.map((a) => (
        <li key={a.id} className="py-2 first:pt-0">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="font-medium">
              {ACTIVITY_TYPE_LABELS[a.type]}
              {a.from && a.to ? `: ${a.from} → ${a.to}` : a.outcome ? `: ${a.outcome}` : ""}
            </span>
            <time dateTime={new Date(a.occurredAt).toISOString()} className="text-sm text-stone-600 dark:text-stone-400">
              {formatDateTime(a.occurredAt, prefs)}
            </time>
          </div>
          {a.contactId || a.dealId ? (
            <div className="text-sm text-stone-600 dark:text-stone-400">
              {a.contactId ? (
                <Link to={`/contacts/${a.contactId}`} className="underline underline-offset-4">
                  {a.contactName}
                </Link>
              ) : null}
              {a.contactId && a.dealId ? " · " : null}
              {a.dealId ? (
                <Link to={`/deals/${a.dealId}`} className="underline underline-offset-4">
                  {a.dealTitle}
                </Link>
              ) : null}
            </div>
          ) : null}
          {a.notes ? <p className="mt-0.5 line-clamp-2 text-sm text-stone-700 dark:text-stone-300">{a.notes}</p> : null}
        </li>
      ))}
    </ol>
  );
}
