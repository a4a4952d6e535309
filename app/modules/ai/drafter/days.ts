import { DAY_MS } from "~/lib/dates";

// Calendar days ("YYYY-MM-DD") said the way an agent writes them: "Nov 12", "tomorrow", "on Wednesday". A missing or
// malformed day gives null rather than an error, so a draft never fails on a date.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function dayTime(day: string | null | undefined): number | null {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(t) ? null : t;
}

/** Whole days from `from` to `to` (negative when `to` is earlier), or null when either is not a day. */
export function daysBetween(from: string | null | undefined, to: string | null | undefined): number | null {
  const a = dayTime(from);
  const b = dayTime(to);
  return a === null || b === null ? null : Math.round((b - a) / DAY_MS);
}

/** Not ~/lib/dates' addDays, which throws on a malformed day: like dayTime, this one reads it as 1970-01-01 (or rolls "2026-13-01" over), so a draft never fails on a date. */
export function addDays(day: string, n: number): string {
  const t = dayTime(day) ?? 0;
  return new Date(t + n * DAY_MS).toISOString().slice(0, 10);
}

/** "Nov 12", or "Nov 12, 2025" when it is not this year; null for a missing or malformed day. */
export function formatDay(day: string | null | undefined, today: string): string | null {
  const t = dayTime(day);
  if (t === null) return null;
  const d = new Date(t);
  const sameYear = day?.slice(0, 4) === today.slice(0, 4);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${sameYear ? "" : `, ${d.getUTCFullYear()}`}`;
}

export function weekday(day: string): string {
  return WEEKDAYS[new Date(dayTime(day) ?? 0).getUTCDay()] ?? "";
}

/** "today", "yesterday", "tomorrow", "on Wednesday" (within the week either side), else "on Nov 12". */
export function whenPhrase(day: string | null | undefined, today: string): string | null {
  const diff = daysBetween(today, day);
  if (diff === null || !day) return null;
  if (diff === 0) return "today";
  if (diff === -1) return "yesterday";
  if (diff === 1) return "tomorrow";
  if (Math.abs(diff) < 7) return `on ${weekday(day)}`;
  return `on ${formatDay(day, today)}`;
}
