import { Link } from "@remix-run/react";
import { formatDate, isoDateIn, type DisplayPreferences } from "~/lib/format";
import { DAY_MS, type Dashboard } from "../metrics";

const STATUS = { hot: "Hot", warm: "Warm", cold: "Cold" } as const;

export function FollowUpList({ contacts, today, prefs }: { contacts: Dashboard["followUps"]; today: string; prefs: DisplayPreferences }) {
  // Whole days between the day of the last activity and today, both in the user's timezone (the same on server and browser).
  const daysSince = (ms: number) => Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${isoDateIn(new Date(ms), prefs.timezone)}T00:00:00Z`)) / DAY_MS);
  return (
    <ul className="divide-y divide-stone-200 dark:divide-stone-800">
      {contacts.map((c) => (
        <li key={c.id} className="flex flex-wrap items-baseline justify-between gap-x-3 py-2 first:pt-0">
          <Link to={`/contacts/${c.id}`} className="font-medium underline-offset-4 hover:underline">
            {c.name}
          </Link>
          <span className="text-sm text-stone-600 dark:text-stone-400">
            {STATUS[c.status]} · last activity {formatDate(c.lastActivity, prefs)} ({daysSince(c.lastActivity)} {daysSince(c.lastActivity) === 1 ? "day" : "days"} ago)
          </span>
        </li>
      ))}
    </ul>
  );
}
