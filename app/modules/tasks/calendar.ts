import { addDays, addMonths, addWeeks, eachDayOfInterval, endOfMonth, endOfWeek, format, parseISO, startOfMonth, startOfWeek } from "date-fns";

// Calendar grid arithmetic on "YYYY-MM-DD" days (date-fns on local noon-free dates; no timezone involved).

export type WeekStart = 0 | 1;
const iso = (date: Date) => format(date, "yyyy-MM-dd");

/** US calendars start on Sunday, European ones on Monday. */
export const weekStartFor = (dateFormat: "US" | "EU"): WeekStart => (dateFormat === "EU" ? 1 : 0);

/** The days a month view shows: whole weeks covering the month of `day`. */
export function monthGrid(day: string, weekStartsOn: WeekStart): string[][] {
  const date = parseISO(day);
  const days = eachDayOfInterval({
    start: startOfWeek(startOfMonth(date), { weekStartsOn }),
    end: endOfWeek(endOfMonth(date), { weekStartsOn }),
  }).map(iso);
  const weeks: string[][] = [];
  for (let i = 0; i < days.length; i += 7) weeks.push(days.slice(i, i + 7));
  return weeks;
}

/** The seven days of the week holding `day`. */
export function weekDays(day: string, weekStartsOn: WeekStart): string[] {
  const start = startOfWeek(parseISO(day), { weekStartsOn });
  return Array.from({ length: 7 }, (_, i) => iso(addDays(start, i)));
}

export function shiftPeriod(day: string, view: "month" | "week", by: number): string {
  const date = parseISO(day);
  return iso(view === "month" ? addMonths(date, by) : addWeeks(date, by));
}

export const monthTitle = (day: string) => format(parseISO(day), "MMMM yyyy");
export const weekdayName = (day: string, style: "short" | "long" = "short") => format(parseISO(day), style === "short" ? "EEE" : "EEEE");
export const dayOfMonth = (day: string) => Number(day.slice(8, 10));
