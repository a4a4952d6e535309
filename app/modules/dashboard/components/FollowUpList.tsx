import { DAY_MS } from "~/lib/dates";
import { Link } from "@remix-run/react";
import { formatDate, isoDateIn, type DisplayPreferences } from "~/lib/format";
import { type Dashboard } from "../metrics";

const STATUS = { hot: "Hot", warm: "Warm", cold: "Cold" } as const;

export function FollowUpList({ contacts, today, prefs }: { contacts: Dashboard["followUps"]; today: string; prefs: DisplayPreferences }) {
  // Whole days between the day of the last activity and today, both in the user's timezone (the same on server and browser).
  const daysSince = (ms: number) =>
    Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${isoDateIn(new Date(ms), prefs.timezone)}T00:00:00Z`)) / DAY_MS);
  const groups = (["hot", "warm"] as const)
    .map((status) => ({ status, contacts: contacts.filter((c) => c.status === status) }))
    .filter((g) => g.contacts.length > 0);
  // Grouped by temperature, each group with its own "All … contacts" link, so the link sits with the
  // contacts it lists. A long name is cut with an ellipsis (full name in the tooltip); the days stay on its line.
  return (
    <div className="flex flex-col gap-4">
      {groups.map(({ status, contacts: list }) => (
        <section key={status} aria-labelledby={`follow-up-${status}`}>
          <div className="flex items-baseline justify-between gap-3">
            <h3 id={`follow-up-${status}`} className="text-sm font-semibold uppercase tracking-wide text-stone-700 dark:text-stone-300">
              {STATUS[status]}
            </h3>
            <Link
              to={`/contacts?status=${status}`}
              className="inline-flex min-h-10 items-center text-sm font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400"
            >
              All {status} contacts
            </Link>
          </div>
          <ul className="divide-y divide-stone-200 dark:divide-stone-800">
            {list.map((c) => {
              const days = daysSince(c.lastActivity);
              return (
                <li key={c.id} className="py-2">
                  <div className="flex items-baseline justify-between gap-3">
                    <Link to={`/contacts/${c.id}`} title={c.name} className="min-w-0 truncate font-medium underline-offset-4 hover:underline">
                      {c.name}
                    </Link>
                    <span className="shrink-0 whitespace-nowrap text-sm tabular-nums text-stone-600 dark:text-stone-400">
                      {days} {days === 1 ? "day" : "days"} ago
                    </span>
                  </div>
                  <p className="text-sm text-stone-600 dark:text-stone-400">Last activity {formatDate(c.lastActivity, prefs)}</p>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
