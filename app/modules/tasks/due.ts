import { addDays, addMonths, addWeeks, format, parseISO } from "date-fns";
import type { TaskRepeat } from "~/db/enums";
import { wallClockIn } from "~/lib/dates";
import { instantIn } from "~/lib/dates/zones";
import type { TaskList } from "./task.schema";

// When a task is due, in the user's own calendar. A due date is their calendar day and a due time their wall
// clock, so every comparison here is on "YYYY-MM-DD" and "HH:MM" strings taken in their timezone.

export interface LocalNow {
  /** "YYYY-MM-DD" in the user's timezone. */
  date: string;
  /** "HH:MM" (24h) in the user's timezone. */
  time: string;
}

/** The user's calendar day and wall-clock time at `at` (in UTC when the timezone is not one this runtime knows). */
export function localNow(timezone: string, at: Date = new Date()): LocalNow {
  return wallClockIn(at, timezone);
}

/**
 * Overdue: the due moment has passed. A task without a time is due by the end of its day, so it is overdue
 * from the next day; a task with a time is overdue once that time has passed on its day.
 */
export function isOverdue(task: { dueDate: string; dueTime: string | null }, now: LocalNow): boolean {
  if (task.dueDate !== now.date) return task.dueDate < now.date;
  return task.dueTime !== null && task.dueTime < now.time;
}

/** Which list an open task is in. The lists do not overlap: a task due today at a passed time is overdue. */
export function openTaskList(task: { dueDate: string; dueTime: string | null }, now: LocalNow): Exclude<TaskList, "completed"> {
  if (isOverdue(task, now)) return "overdue";
  return task.dueDate === now.date ? "today" : "upcoming";
}

const STEP: Record<TaskRepeat, (day: Date, n: number) => Date> = { daily: addDays, weekly: addWeeks, monthly: addMonths };

/**
 * The next occurrence of a repeating task completed on `today`: the due date moved on by whole periods
 * (keeping the weekday or day of month; the 31st becomes the month's last day) until it is today or later,
 * so finishing a late daily task does not leave a trail of overdue copies.
 */
export function nextOccurrence(dueDate: string, repeat: TaskRepeat, today: string): string {
  const start = parseISO(dueDate);
  for (let n = 1; ; n++) {
    // From the original date each time, so Jan 31 → Feb 28 → Mar 31 (not Mar 28).
    const next = format(STEP[repeat](start, n), "yyyy-MM-dd");
    if (next > dueDate && next >= today) return next;
    if (n > 100_000) return today;
  }
}

/** The instant at which it is `day` `time` on the wall clocks of `timezone` (for calendar feeds and logged activities). */
export function instantOf(day: string, time: string | null, timezone: string): Date {
  return new Date(instantIn(day, time, timezone));
}
