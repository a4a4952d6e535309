import { Link } from "@remix-run/react";
import { formatDay, formatTime, type DisplayPreferences } from "~/lib/format";
import { dueWhen, type Dashboard } from "../metrics";

const BADGE = {
  overdue: "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200",
  today: "bg-brand-100 text-brand-800 dark:bg-brand-800 dark:text-brand-50",
  tomorrow: "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
  later: "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
} as const;

/** "HH:MM" on the user's own clock, in their 12h/24h style (no timezone arithmetic). */
const wallTime = (time: string, prefs: DisplayPreferences) => formatTime(new Date(`1970-01-01T${time}:00Z`), { ...prefs, timezone: "UTC" });

export function TaskReminders({ tasks, today, prefs }: { tasks: Dashboard["tasks"]; today: string; prefs: DisplayPreferences }) {
  return (
    <ul className="divide-y divide-stone-200 dark:divide-stone-800">
      {tasks.map((task) => {
        const when = dueWhen(task.dueDate, today);
        const day = when === "today" ? "Today" : when === "tomorrow" ? "Tomorrow" : formatDay(task.dueDate, prefs);
        return (
          <li key={task.id} className="flex items-start justify-between gap-3 py-2 first:pt-0">
            <div className="min-w-0">
              <div className="font-medium">
                {task.title}
                {task.priority === "high" ? <span className="ml-2 text-xs font-semibold uppercase text-red-700 dark:text-red-300">High</span> : null}
              </div>
              {task.contactId || task.dealId ? (
                <div className="text-sm text-stone-600 dark:text-stone-400">
                  {task.contactId ? (
                    <Link to={`/contacts/${task.contactId}`} className="underline underline-offset-4">
                      {task.contactName}
                    </Link>
                  ) : null}
                  {task.contactId && task.dealId ? " · " : null}
                  {task.dealId ? (
                    <Link to={`/deals/${task.dealId}`} className="underline underline-offset-4">
                      {task.dealTitle}
                    </Link>
                  ) : null}
                </div>
              ) : null}
            </div>
            <span className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${BADGE[when]}`}>
              {when === "overdue" ? `Overdue · ${day}` : day}
              {task.dueTime ? ` ${wallTime(task.dueTime, prefs)}` : ""}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
