// Which test files run again "as of" the hard instants (scripts/test.mjs, ADR 0020): the ones that read the calendar.
//
// The rule: a test file reads the calendar when it works with days, months, years, hours of the day or time zones:
// the factories' dayFromToday / shiftDay / atInstant, TEST_NOW, vitest's fake clock, lib/dates' calendar functions,
// date-fns, a Date's get*() fields, toLocaleDateString / toLocaleTimeString, Intl.DateTimeFormat, a time zone, an ISO
// day or month cut from toISOString(), or a test about "today", "tomorrow" or "yesterday". Those files run at every
// instant. A file that only measures durations (Date.now() plus or minus so many milliseconds, a fresh rate-limit
// window) passes or fails the same at any instant and runs once. The list is computed from the sources at each run,
// so a test that starts reading the calendar joins the hard instants without anyone remembering to add it.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { readsTheCalendar } from "./calendar-rule.mjs";

const ROOTS = ["tests/workers", "app", "workers"];

/** Every vitest file (vitest.config.ts's include), relative to `root`. */
export function testFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".test.ts")) files.push(relative);
    }
  };
  for (const dir of ROOTS) walk(dir);
  return files.sort();
}

/** The test files that read the calendar, relative to `root`. */
export function calendarTestFiles(root) {
  return testFiles(root).filter((file) => readsTheCalendar(readFileSync(path.join(root, file), "utf8")));
}
