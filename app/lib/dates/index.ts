// Days, months and instants, in one place (with ./zones.ts): the lengths of time, calendar-day arithmetic on
// "YYYY-MM-DD" strings, and the agent's calendar day and wall clock at an instant. Browser-safe and light (no drizzle, no
// @date-fns/tz), so the signed-in shell and the Worker share it; the instant a wall-clock time happens in a zone is in
// ./zones.ts, which loads @date-fns/tz only where it is needed.

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

const knownZones = new Map<string, boolean>();
/** True when this runtime knows the IANA zone (checked once per name: building a formatter is slow). */
export function isKnownTimezone(timeZone: string): boolean {
  let known = knownZones.get(timeZone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone });
      known = true;
    } catch {
      known = false;
    }
    knownZones.set(timeZone, known);
  }
  return known;
}

/** `timeZone` if this runtime knows it, else `fallback`. */
export function timezoneOr(timeZone: string, fallback: string): string {
  return isKnownTimezone(timeZone) ? timeZone : fallback;
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();
/**
 * The calendar day ("YYYY-MM-DD") and wall-clock time ("HH:MM", 24 h) at `at` in `timeZone` (UTC if unknown). Read from
 * Intl's own parts, which every runtime ships, rather than TZDate: pages call this, and it keeps @date-fns/tz out of
 * their bundles.
 */
export function wallClockIn(at: Date | number, timeZone: string): { date: string; time: string } {
  const zone = timezoneOr(timeZone, "UTC");
  let formatter = wallClocks.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", {
      timeZone: zone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    wallClocks.set(zone, formatter);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of formatter.formatToParts(at)) part[type] = value;
  return { date: `${part.year}-${part.month}-${part.day}`, time: `${part.hour}:${part.minute}` };
}
