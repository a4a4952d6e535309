import { addDays, addMonths } from "~/lib/dates";

// The period a report covers, read from the URL (?period=…&from=…&to=…) so a report can be bookmarked, and the
// period it is compared with. Days are the agent's calendar days ("YYYY-MM-DD") in their timezone; both ends
// are included. Browser-safe.
//
// The comparison is the same span one step back on the calendar (docs/decisions/0023-reports.md): this month
// so far against the same days of last month, last month against the month before, this quarter so far against
// the same days of the last quarter, year to date against the same dates last year, the last 12 months against
// the 12 before them, and a custom range against as many days just before it.

export const PERIOD_KEYS = ["this-month", "last-month", "this-quarter", "ytd", "last-12-months", "custom"] as const;
export type PeriodKey = (typeof PERIOD_KEYS)[number];
export const PERIOD_LABELS: Record<PeriodKey, string> = {
  "this-month": "This month",
  "last-month": "Last month",
  "this-quarter": "This quarter",
  ytd: "Year to date",
  "last-12-months": "Last 12 months",
  custom: "Custom range",
};
const DEFAULT_PERIOD = "this-month" satisfies PeriodKey;
/** The longest custom range, in days (about five years): reports stay one fast read. */
const MAX_CUSTOM_DAYS = 1_830;

export interface DayRange {
  /** First day, included. */
  from: string;
  /** Last day, included. */
  to: string;
}

export interface Period extends DayRange {
  key: PeriodKey;
  previous: DayRange;
  /** Why the URL's period was not used, if it was not (the page says so). */
  problem: string | null;
}

// Custom ranges stay within these years: the comparison period before them and the day after them are
// still plain four-digit dates.
const ISO_DAY = /^(19\d\d|2\d\d\d)-\d{2}-\d{2}$/;
const FIRST_DAY = "1901-01-01";
const LAST_DAY = "2999-12-30";
function isDay(value: string | null): value is string {
  if (!value || !ISO_DAY.test(value) || value < FIRST_DAY || value > LAST_DAY) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

const daysInMonth = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
/** The last day of a month ("YYYY-MM"). */
export const monthEnd = (month: string) => `${month}-${String(daysInMonth(month)).padStart(2, "0")}`;

/** The same day n months later (earlier when negative), on the month's last day when it has fewer days. */
function shiftMonths(day: string, n: number): string {
  const month = addMonths(day.slice(0, 7), n);
  return `${month}-${String(Math.min(Number(day.slice(8, 10)), daysInMonth(month))).padStart(2, "0")}`;
}

/** Days from `from` to `to`, both included. */
export function dayCount(range: DayRange): number {
  return Math.round((Date.parse(`${range.to}T00:00:00Z`) - Date.parse(`${range.from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The months ("YYYY-MM") a range touches, oldest first. */
export function monthsOf(range: DayRange): string[] {
  const months: string[] = [];
  for (let month = range.from.slice(0, 7); month <= range.to.slice(0, 7); month = addMonths(month, 1)) months.push(month);
  return months;
}

function calendarPeriod(key: Exclude<PeriodKey, "custom">, today: string): { range: DayRange; previous: DayRange } {
  const month = today.slice(0, 7);
  const back = (range: DayRange, months: number): DayRange => ({ from: shiftMonths(range.from, -months), to: shiftMonths(range.to, -months) });
  switch (key) {
    case "this-month": {
      const range = { from: `${month}-01`, to: today };
      return { range, previous: back(range, 1) };
    }
    case "last-month": {
      const last = addMonths(month, -1);
      const before = addMonths(month, -2);
      return { range: { from: `${last}-01`, to: monthEnd(last) }, previous: { from: `${before}-01`, to: monthEnd(before) } };
    }
    case "this-quarter": {
      const quarterMonth = Math.floor((Number(month.slice(5, 7)) - 1) / 3) * 3 + 1;
      const range = { from: `${month.slice(0, 4)}-${String(quarterMonth).padStart(2, "0")}-01`, to: today };
      return { range, previous: back(range, 3) };
    }
    case "ytd": {
      const range = { from: `${month.slice(0, 4)}-01-01`, to: today };
      return { range, previous: back(range, 12) };
    }
    case "last-12-months": {
      const range = { from: addDays(shiftMonths(today, -12), 1), to: today };
      return { range, previous: back(range, 12) };
    }
  }
}

/** The period a request asks for, given the agent's today; anything unreadable falls back to This month and says why. */
export function parsePeriod(params: URLSearchParams, today: string): Period {
  const asked = params.get("period");
  const key = (PERIOD_KEYS as readonly string[]).includes(asked ?? "") ? (asked as PeriodKey) : DEFAULT_PERIOD;
  const fallback = (problem: string | null): Period => {
    const { range, previous } = calendarPeriod(DEFAULT_PERIOD, today);
    return { key: DEFAULT_PERIOD, ...range, previous, problem };
  };
  if (asked !== null && key !== asked) return fallback("That period is not one Reports knows, so this shows This month.");
  if (key !== "custom") {
    const { range, previous } = calendarPeriod(key as Exclude<PeriodKey, "custom">, today);
    return { key, ...range, previous, problem: null };
  }
  const from = params.get("from");
  const to = params.get("to");
  if (!isDay(from) || !isDay(to))
    return fallback("Enter both dates of the custom range as full dates between 1901 and 2999, so this shows This month.");
  if (from > to) return fallback("The custom range ends before it starts, so this shows This month.");
  const range = { from, to };
  const days = dayCount(range);
  if (days > MAX_CUSTOM_DAYS)
    return fallback(`A custom range can span at most ${MAX_CUSTOM_DAYS.toLocaleString("en-US")} days (about five years), so this shows This month.`);
  return { key, from, to, previous: { from: addDays(from, -days), to: addDays(from, -1) }, problem: null };
}

/** The query string of a period (for links, the CSV download and the print view). */
export function periodQuery(period: Pick<Period, "key" | "from" | "to">): string {
  return period.key === "custom" ? `period=custom&from=${period.from}&to=${period.to}` : `period=${period.key}`;
}
