import { addDays, format, parseISO } from "date-fns";
import { vi } from "vitest";
import { shiftClock } from "~/lib/clock";
import { localNow } from "~/modules/tasks/due";

// Dates for tests, relative to the clock (the real one or TEST_NOW), never fixed days compared with "today".
// New accounts keep their calendar in America/New_York unless a test says otherwise.

export const DEFAULT_TZ = "America/New_York";

/** The user's calendar day ("YYYY-MM-DD") `offset` days from today in `timezone`. */
export function dayFromToday(offset: number, timezone = DEFAULT_TZ): string {
  return shiftDay(localNow(timezone).date, offset);
}

/** `day` moved by `offset` calendar days. */
export function shiftDay(day: string, offset: number): string {
  return format(addDays(parseISO(day), offset), "yyyy-MM-dd");
}

/**
 * Runs `fn` with the wall clock (Worker included: it shares this isolate) reading `instant`, then puts back the
 * clock the suite had (real, or TEST_NOW). For tests whose facts only hold on a chosen day, e.g. early January.
 */
export async function atInstant<T>(instant: string, fn: () => Promise<T>): Promise<T> {
  const saved = globalThis.Date;
  shiftClock(instant);
  try {
    return await fn();
  } finally {
    globalThis.Date = saved;
  }
}

/**
 * Runs `fn` at the first second of the next fixed rate-limit window of `windowSeconds`, so a burst of requests
 * counts in one window whatever the clock read (the real minute boundary would otherwise split it).
 */
export function atFreshWindow<T>(windowSeconds: number, fn: () => Promise<T>): Promise<T> {
  const windowMs = windowSeconds * 1000;
  const start = (Math.floor(Date.now() / windowMs) + 1) * windowMs + 1000;
  return atInstant(new Date(start).toISOString(), fn);
}

// The suite's clock (real, or shifted to TEST_NOW by tests/workers/clock.ts), as it was when the first test file
// loaded this module. `vi.useRealTimers()` would put back the unshifted Date vitest captured at start-up.
const SUITE_DATE = globalThis.Date;

/** Undoes `vi.setSystemTime` (a frozen clock) and puts back the suite's clock. For afterEach. */
export function restoreSuiteClock(): void {
  vi.useRealTimers();
  globalThis.Date = SUITE_DATE;
}
