import { describe, expect, it } from "vitest";
// @ts-expect-error -- plain ESM shared with scripts/test.mjs, no type declarations
import { readsTheCalendar } from "../calendar-rule.mjs";

// Which test files run again at the hard instants (tests/calendar-files.mjs): the rule, on samples of each kind.
describe("a test file reads the calendar", () => {
  it.each([
    ["a day from the factories", "const due = dayFromToday(1);"],
    ["an instant of its own", 'await atInstant("2027-03-14T06:30:00Z", run);'],
    ["a frozen clock", "vi.setSystemTime(new Date(2027, 0, 1));"],
    ["a date's fields", "expect(new Date().getUTCDate()).toBe(1);"],
    ["a time zone", 'await setPreferences({ timezone: "Europe/Oslo" });'],
    ["an ISO day", "const day = new Date().toISOString().slice(0, 10);"],
    ["a test about today", 'it("shows the tasks due today", run);'],
    ["date-fns", 'import { addWeeks } from "date-fns";'],
  ])("%s", (_, source) => {
    expect(readsTheCalendar(source)).toBe(true);
  });

  it.each([
    ["a duration", "const old = new Date(Date.now() - 60_000);"],
    ["a count formatted for people", 'expect(page).toContain(`${(1000).toLocaleString("en-US")} rows`);'],
    ["a fresh rate-limit window", "await atFreshWindow(60, burst);"],
    ["a word that only contains a day's name", 'const todayish = "todays";'],
  ])("not %s", (_, source) => {
    expect(readsTheCalendar(source)).toBe(false);
  });
});
