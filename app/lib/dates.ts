// Days, months and instants, in one place: the lengths of time, calendar-day arithmetic on "YYYY-MM-DD" strings, and
// the instant a day begins in the agent's timezone. Browser-safe (no drizzle), so pages and the Worker share it.

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
/** 24 hours: a length of time, not a calendar day (which is 23 or 25 hours across a DST change: see startOfDayIn). */
export const DAY_MS = 24 * HOUR_MS;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** "YYYY-MM-DD" moved by n calendar days. */
export function addDays(day: string, n: number): string {
  return isoDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);
}

/** "YYYY-MM" moved by n months. */
export function addMonths(month: string, n: number): string {
  const total = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + n;
  return `${Math.floor(total / 12)}-${String((total % 12) + 1).padStart(2, "0")}`;
}

/**
 * The dates "today" can be anywhere at `now`: UTC offsets run from −12 to +14 hours, so the user's date is
 * UTC yesterday, today or tomorrow. A batch of queries built before the user's timezone is read asks each
 * date-dependent figure for each possible today and picks the right answer afterwards.
 */
export function possibleTodays(now: Date): [string, string, string] {
  const utc = isoDay(now.getTime());
  return [addDays(utc, -1), utc, addDays(utc, 1)];
}

const partsCache = new Map<string, Intl.DateTimeFormat>();
function wallClock(ms: number, timeZone: string): number {
  let formatter = partsCache.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
    partsCache.set(timeZone, formatter);
  }
  const p = Object.fromEntries(formatter.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second));
}

/** The instant (ms) the calendar day `day` begins in `timeZone` (its first moment, when DST skips or repeats midnight). */
export function startOfDayIn(day: string, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  // The offset at the wall time read as UTC, then the offset at that guess: they differ only near a DST change.
  const first = wall - (wallClock(wall, timeZone) - wall);
  const second = wall - (wallClock(first, timeZone) - first);
  const inDay = [first, second].filter((at) => isoDay(wallClock(at, timeZone)) === day);
  return inDay.length > 0 ? Math.min(...inDay) : Math.max(first, second);
}
