// The rule is written out in tests/calendar-files.mjs. No imports: the Worker tests check it (calendar-rule.test.ts).
const CALENDAR =
  /\b(dayFromToday|shiftDay|atInstant|TEST_NOW|setSystemTime|useFakeTimers|startOfDayIn|addDays|addMonths|possibleTodays|TZDate|isoDateIn)\b|date-fns|\.get(UTC)?(Date|Month|FullYear|Day|Hours)\(|toLocale(Date|Time)String|Intl\.DateTimeFormat|time_?zone|toISOString\(\)\.slice\(0, ?(7|10)\)|\b(today|tomorrow|yesterday)\b/i;

/** True when the test source reads the calendar (see the rule above). */
export function readsTheCalendar(source) {
  return CALENDAR.test(source);
}
