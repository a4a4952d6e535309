// Instants of wall-clock times in a timezone, DST included, through @date-fns/tz's TZDate. Apart from ./index.ts
// because TZDate patches Date's prototype when it loads, so a bundle that imports it keeps it: pages that never ask
// for an instant (the signed-in shell) stay without it.
import { TZDate } from "@date-fns/tz";
import { timezoneOr } from "./index";

/** The instant (ms) it is `day` at `time` ("HH:MM", midnight when null) on the wall clocks of `timeZone` (UTC if unknown). */
export function instantIn(day: string, time: string | null, timeZone: string): number {
  const [y, m, d] = day.split("-").map(Number);
  const [hh, mm] = (time ?? "00:00").split(":").map(Number);
  return new TZDate(y!, m! - 1, d!, hh!, mm!, timezoneOr(timeZone, "UTC")).getTime();
}

/** The instant (ms) the calendar day `day` begins in `timeZone`: its first moment, when DST skips or repeats midnight. */
export function startOfDayIn(day: string, timeZone: string): number {
  return instantIn(day, null, timeZone);
}
