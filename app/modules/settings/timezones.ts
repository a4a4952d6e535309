export const COMMON_TIMEZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Phoenix",
  "America/Los_Angeles",
  "America/Anchorage",
  "Pacific/Honolulu",
  "America/Toronto",
  "Europe/London",
  "Europe/Dublin",
  "Europe/Paris",
  "Europe/Berlin",
  "Europe/Oslo",
  "Europe/Stockholm",
  "Europe/Copenhagen",
  "UTC",
];

let supported: Set<string> | null = null;
/** The runtime's IANA zones (Intl.supportedValuesOf), with UTC, which some runtimes list only as an alias. */
function supportedZones(): Set<string> {
  supported ??= new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  return supported;
}

/**
 * A timezone name the browser sent, in its canonical IANA spelling, or null when it is not a supported zone.
 * Browsers differ in spelling (Asia/Kolkata vs Asia/Calcutta), so the name is canonicalised by Intl first.
 */
export function supportedTimezone(value: unknown): string | null {
  if (typeof value !== "string" || value.length === 0 || value.length > 64) return null;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (supportedZones().has(canonical)) return canonical;
  return supportedZones().has(value) ? value : null;
}
