import type { Currency, DateFormat, TimeFormat } from "~/db/enums";
import { timezoneOr, wallClockIn } from "~/lib/dates";

// Display preferences (spec sections 3 and 9). Formatting uses Intl, which every runtime here ships.
export interface DisplayPreferences {
  dateFormat: DateFormat;
  timeFormat: TimeFormat;
  timezone: string;
  currency: Currency;
}

export const DEFAULT_DISPLAY_PREFERENCES: DisplayPreferences = {
  dateFormat: "US",
  timeFormat: "12h",
  timezone: "America/New_York",
  currency: "USD",
};

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let hit = cache.get(key) as T | undefined;
  if (!hit) {
    hit = make();
    cache.set(key, hit);
  }
  return hit;
}

/** The timezone if this runtime knows it, else the default. */
function safeTimezone(timezone: string): string {
  return timezoneOr(timezone, DEFAULT_DISPLAY_PREFERENCES.timezone);
}

const toDate = (value: Date | number | string) => (value instanceof Date ? value : new Date(value));

/** US: "Nov 22, 2026". EU: "22/11/26". In the user's timezone. */
export function formatDate(value: Date | number | string, prefs: DisplayPreferences = DEFAULT_DISPLAY_PREFERENCES): string {
  const timeZone = safeTimezone(prefs.timezone);
  const formatter =
    prefs.dateFormat === "EU"
      ? cached(`d-EU-${timeZone}`, () => new Intl.DateTimeFormat("en-GB", { day: "2-digit", month: "2-digit", year: "2-digit", timeZone }))
      : cached(`d-US-${timeZone}`, () => new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone }));
  return formatter.format(toDate(value));
}

/** "3:05 PM" (12h) or "15:05" (24h), in the user's timezone. */
export function formatTime(value: Date | number | string, prefs: DisplayPreferences = DEFAULT_DISPLAY_PREFERENCES): string {
  const timeZone = safeTimezone(prefs.timezone);
  const hour12 = prefs.timeFormat === "12h";
  const formatter = cached(
    `t-${hour12}-${timeZone}`,
    () => new Intl.DateTimeFormat(hour12 ? "en-US" : "en-GB", { hour: hour12 ? "numeric" : "2-digit", minute: "2-digit", hour12, timeZone }),
  );
  return formatter.format(toDate(value));
}

export function formatDateTime(value: Date | number | string, prefs: DisplayPreferences = DEFAULT_DISPLAY_PREFERENCES): string {
  return `${formatDate(value, prefs)} ${formatTime(value, prefs)}`;
}

/** A moment soon, with its weekday: "Tue, Mar 16 at 10:00 AM" (US) or "Tue 16 Mar at 10:00" (EU), in the user's timezone. */
export function formatWeekdayTime(value: Date | number | string, prefs: DisplayPreferences = DEFAULT_DISPLAY_PREFERENCES): string {
  const timeZone = safeTimezone(prefs.timezone);
  const eu = prefs.dateFormat === "EU";
  const formatter = cached(
    `wd-${eu}-${timeZone}`,
    () => new Intl.DateTimeFormat(eu ? "en-GB" : "en-US", { weekday: "short", month: "short", day: "numeric", timeZone }),
  );
  return `${formatter.format(toDate(value))} at ${formatTime(value, prefs)}`;
}

/** The zone's short name at that instant: "EST", "EDT", "UTC", or an offset ("GMT+1") where English has none. */
function zoneName(value: Date | number | string, timezone: string): string {
  const timeZone = safeTimezone(timezone);
  const formatter = cached(`z-${timeZone}`, () => new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" }));
  return formatter.formatToParts(toDate(value)).find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/** formatDateTime with the zone named, for text read away from the app (e-mails): "Mar 14, 2027 1:30 AM EST". */
export function formatDateTimeWithZone(value: Date | number | string, prefs: DisplayPreferences = DEFAULT_DISPLAY_PREFERENCES): string {
  return `${formatDateTime(value, prefs)} ${zoneName(value, prefs.timezone)}`;
}

/** Whole units, no fraction digits: "$650,000", "€650,000", "NOK 650,000". */
export function formatMoney(amount: number, prefs: Pick<DisplayPreferences, "currency"> = DEFAULT_DISPLAY_PREFERENCES): string {
  const formatter = cached(
    `m-${prefs.currency}`,
    () => new Intl.NumberFormat("en-US", { style: "currency", currency: prefs.currency, minimumFractionDigits: 0, maximumFractionDigits: 0 }),
  );
  return formatter.format(amount);
}

/** Short money for chart axes, in whole units: "$0", "$250K", "$1.5M", "NOK 2M". */
export function formatMoneyCompact(amount: number, prefs: Pick<DisplayPreferences, "currency"> = DEFAULT_DISPLAY_PREFERENCES): string {
  const formatter = cached(
    `mc-${prefs.currency}`,
    () => new Intl.NumberFormat("en-US", { style: "currency", currency: prefs.currency, notation: "compact", maximumFractionDigits: 1 }),
  );
  return formatter.format(amount);
}

/** The calendar date ("YYYY-MM-DD") it is at `value` in `timezone`: "today" for the user, never shifted by UTC. */
export function isoDateIn(value: Date, timezone: string): string {
  return wallClockIn(value, safeTimezone(timezone)).date;
}

const COUNT_FORMAT = new Intl.NumberFormat("en-US");
/** A count with thousands separators ("12,345"): one formatter for every table cell, not one per call. */
export const formatCount = (n: number): string => COUNT_FORMAT.format(n);

/** Money in cents with the cents shown: "$5,892.50", "−$445.00". */
export function formatCents(cents: number, prefs: Pick<DisplayPreferences, "currency"> = DEFAULT_DISPLAY_PREFERENCES): string {
  const formatter = cached(
    `c-${prefs.currency}`,
    () => new Intl.NumberFormat("en-US", { style: "currency", currency: prefs.currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }),
  );
  return formatter.format(cents / 100);
}

/** Whole units from cents, for card-sized figures: "$650,000". */
export function formatCentsWhole(cents: number, prefs: Pick<DisplayPreferences, "currency"> = DEFAULT_DISPLAY_PREFERENCES): string {
  return formatMoney(Math.round(cents / 100), prefs);
}

/** A "YYYY-MM-DD" calendar date in the user's format, without any timezone arithmetic. */
export function formatDay(day: string, prefs: Pick<DisplayPreferences, "dateFormat"> = DEFAULT_DISPLAY_PREFERENCES): string {
  return formatDate(new Date(`${day}T12:00:00Z`), { ...DEFAULT_DISPLAY_PREFERENCES, dateFormat: prefs.dateFormat, timezone: "UTC" });
}
