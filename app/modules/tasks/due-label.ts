import { formatDay, type DisplayPreferences } from "~/lib/format";
import { isOverdue, type LocalNow } from "./due";

// How a due date reads: "Today", "Tomorrow", "Yesterday", or the date in the user's format, with the time.

/** "15:00" → "3:00 PM" (12h) or "15:00" (24h). */
export function formatClock(time: string, prefs: Pick<DisplayPreferences, "timeFormat">): string {
  if (prefs.timeFormat === "24h") return time;
  const [h, m] = time.split(":").map(Number);
  return `${((h! + 11) % 12) + 1}:${String(m).padStart(2, "0")} ${h! < 12 ? "AM" : "PM"}`;
}

function shift(day: string, days: number) {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function dayLabel(day: string, now: LocalNow, prefs: Pick<DisplayPreferences, "dateFormat">): string {
  if (day === now.date) return "Today";
  if (day === shift(now.date, 1)) return "Tomorrow";
  if (day === shift(now.date, -1)) return "Yesterday";
  return formatDay(day, prefs);
}

export function dueLabel(
  task: { dueDate: string; dueTime: string | null },
  now: LocalNow,
  prefs: Pick<DisplayPreferences, "dateFormat" | "timeFormat">,
) {
  const day = dayLabel(task.dueDate, now, prefs);
  return { text: task.dueTime ? `${day} ${formatClock(task.dueTime, prefs)}` : day, overdue: isOverdue(task, now) };
}
