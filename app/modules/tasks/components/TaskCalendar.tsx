import { Link } from "@remix-run/react";
import { ChevronLeft, ChevronRight, Home } from "lucide-react";
import { formatDay, type DisplayPreferences } from "~/lib/format";
import { dayOfMonth, monthGrid, monthTitle, shiftPeriod, weekDays, weekdayName, weekStartFor } from "../calendar";
import type { LocalNow } from "../due";
import { dayLabel, formatClock } from "../due-label";
import { MONTH_CELL_TITLES, type Closing, type DayCell, type TaskItem } from "../task.schema";
import { TaskList } from "./TaskList";

const navButton =
  "inline-flex h-12 min-w-12 items-center justify-center gap-1 rounded-lg border border-stone-300 px-3 text-sm font-medium hover:bg-stone-100 dark:border-stone-700 dark:hover:bg-stone-800";

function ClosingList({ closings }: { closings: Closing[] }) {
  if (!closings.length) return null;
  return (
    <ul aria-label="Closings" className="mb-2 flex flex-col gap-1">
      {closings.map((c) => (
        <li key={c.dealId}>
          <Link
            to={`/deals/${encodeURIComponent(c.dealId)}`}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg bg-emerald-50 px-3 text-sm font-medium text-emerald-900 hover:underline dark:bg-emerald-950 dark:text-emerald-200"
          >
            <Home aria-hidden="true" className="h-4 w-4" />
            {c.kind === "closing" ? "Closing" : "Expected close"}: {c.title}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/**
 * Month and week views of tasks and closing dates. The month is a table of days (each a link that selects
 * the day, listing its tasks below); the week lists each day's tasks. Both page with previous/next.
 * The week gets every task of its days; the month gets each day's summary (`cells`) and the chosen day's tasks.
 */
export function TaskCalendar({
  view,
  day,
  tasks,
  cells,
  closings,
  now,
  prefs,
}: {
  view: "month" | "week";
  day: string;
  tasks: TaskItem[];
  cells: Record<string, DayCell>;
  closings: Closing[];
  now: LocalNow;
  prefs: DisplayPreferences;
}) {
  const weekStartsOn = weekStartFor(prefs.dateFormat);
  const byDay = new Map<string, TaskItem[]>();
  for (const task of tasks) byDay.set(task.dueDate, [...(byDay.get(task.dueDate) ?? []), task]);
  const closingsByDay = new Map<string, Closing[]>();
  for (const closing of closings) closingsByDay.set(closing.date, [...(closingsByDay.get(closing.date) ?? []), closing]);
  const link = (target: string) => `/tasks?view=${view}&date=${target}`;
  const title = view === "month" ? monthTitle(day) : `Week of ${formatDay(weekDays(day, weekStartsOn)[0]!, prefs)}`;

  const nav = (
    <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
      <h2 className="text-lg font-semibold" aria-live="polite">
        {title}
      </h2>
      <div className="flex gap-2">
        <Link to={link(shiftPeriod(day, view, -1))} className={navButton} aria-label={view === "month" ? "Previous month" : "Previous week"}>
          <ChevronLeft aria-hidden="true" className="h-5 w-5" />
        </Link>
        <Link to={link(now.date)} className={navButton}>
          Today
        </Link>
        <Link to={link(shiftPeriod(day, view, 1))} className={navButton} aria-label={view === "month" ? "Next month" : "Next week"}>
          <ChevronRight aria-hidden="true" className="h-5 w-5" />
        </Link>
      </div>
    </div>
  );

  if (view === "week") {
    return (
      <div>
        {nav}
        <ol className="flex flex-col gap-3">
          {weekDays(day, weekStartsOn).map((d) => (
            <li key={d} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
              <h3 className={`font-semibold ${d === now.date ? "text-brand-700 dark:text-brand-400" : ""}`}>
                {weekdayName(d, "long")} · {dayLabel(d, now, prefs)}
              </h3>
              <ClosingList closings={closingsByDay.get(d) ?? []} />
              <TaskList
                tasks={byDay.get(d) ?? []}
                now={now}
                prefs={prefs}
                label={`Tasks on ${dayLabel(d, now, prefs)}`}
                empty={<p className="py-1 text-sm text-stone-500 dark:text-stone-400">Nothing due.</p>}
              />
            </li>
          ))}
        </ol>
      </div>
    );
  }

  const weeks = monthGrid(day, weekStartsOn);
  const month = day.slice(0, 7);
  const selectedTasks = tasks;
  return (
    <div>
      {nav}
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">{monthTitle(day)}: tasks and closings by day. Choose a day to list them.</caption>
        <thead>
          <tr>
            {weeks[0]!.map((d) => (
              <th key={d} scope="col" className="py-1 text-xs font-medium text-stone-600 dark:text-stone-400">
                {weekdayName(d)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]}>
              {week.map((d) => {
                const cell = cells[d] ?? { open: 0, overdue: false, first: [] };
                const dayClosings = closingsByDay.get(d) ?? [];
                const shown = dayClosings.length ? MONTH_CELL_TITLES - 1 : MONTH_CELL_TITLES;
                const parts = [
                  `${cell.open} open ${cell.open === 1 ? "task" : "tasks"}`,
                  dayClosings.length ? `${dayClosings.length} closing${dayClosings.length === 1 ? "" : "s"}` : null,
                ].filter(Boolean);
                return (
                  <td key={d} className="h-16 border border-stone-200 p-0 align-top sm:h-24 dark:border-stone-800">
                    <Link
                      to={link(d)}
                      preventScrollReset
                      aria-current={d === day ? "date" : undefined}
                      aria-label={`${weekdayName(d, "long")} ${dayLabel(d, now, prefs)}: ${parts.join(", ")}`}
                      className={`flex h-full min-h-11 flex-col gap-0.5 p-1 hover:bg-stone-100 dark:hover:bg-stone-800 ${d.slice(0, 7) !== month ? "text-stone-500 dark:text-stone-400" : ""} ${
                        d === day ? "bg-brand-50 ring-2 ring-inset ring-brand-600 dark:bg-brand-950 dark:ring-brand-400" : ""
                      }`}
                    >
                      <span
                        className={`text-xs font-semibold ${d === now.date ? "inline-flex h-6 w-6 items-center justify-center rounded-full bg-brand-700 text-white dark:bg-brand-400 dark:text-stone-950" : ""}`}
                      >
                        {dayOfMonth(d)}
                      </span>
                      {/* Phones: counts; wider screens: the first titles. */}
                      {cell.open ? (
                        <span
                          className={`rounded px-1 text-xs font-medium sm:hidden ${cell.overdue ? "bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-200" : "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100"}`}
                        >
                          {cell.open}
                        </span>
                      ) : null}
                      {dayClosings.length ? <span className="h-1.5 w-1.5 rounded-full bg-emerald-600 sm:hidden" /> : null}
                      <span className="hidden flex-col gap-0.5 sm:flex">
                        {dayClosings.slice(0, 1).map((c) => (
                          <span
                            key={c.dealId}
                            className="truncate rounded bg-emerald-100 px-1 text-xs text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200"
                          >
                            {c.title}
                          </span>
                        ))}
                        {cell.first.slice(0, shown).map((t) => (
                          <span key={t.id} className={`truncate text-xs ${cell.overdue ? "text-red-700 dark:text-red-400" : ""}`}>
                            {t.dueTime ? `${formatClock(t.dueTime, prefs)} ` : ""}
                            {t.title}
                          </span>
                        ))}
                        {cell.open > shown ? <span className="text-xs text-stone-500 dark:text-stone-400">+{cell.open - shown} more</span> : null}
                      </span>
                    </Link>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <section
        aria-labelledby="day-heading"
        className="mt-4 rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900"
      >
        <h3 id="day-heading" className="mb-2 font-semibold">
          {weekdayName(day, "long")} · {dayLabel(day, now, prefs)}
        </h3>
        <ClosingList closings={closingsByDay.get(day) ?? []} />
        <TaskList
          tasks={selectedTasks}
          now={now}
          prefs={prefs}
          label={`Tasks on ${dayLabel(day, now, prefs)}`}
          empty={<p className="text-sm text-stone-600 dark:text-stone-400">No tasks on this day.</p>}
        />
      </section>
    </div>
  );
}
