// A session's device in a few words for Settings → Security ("Chrome on Mac"), from the User-Agent by a short mapping:
// the list only has to let an agent recognise their own devices, so no parser library is worth its weight.

const BROWSERS: readonly [RegExp, string][] = [
  [/EdgA?\//, "Edge"],
  [/SamsungBrowser\//, "Samsung Internet"],
  [/OPR\/|Opera/, "Opera"],
  [/Firefox\/|FxiOS\//, "Firefox"],
  [/CriOS\/|Chrome\/|Chromium\//, "Chrome"],
  [/Safari\//, "Safari"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone/, "iPhone"],
  [/iPad/, "iPad"],
  [/Android/, "Android"],
  [/CrOS/, "ChromeOS"],
  [/Windows/, "Windows"],
  [/Macintosh|Mac OS X/, "Mac"],
  [/Linux/, "Linux"],
];

const first = (list: readonly [RegExp, string][], ua: string) => list.find(([pattern]) => pattern.test(ua))?.[1];

/** "Chrome on Mac", "Safari on iPhone", "Firefox", "Windows", or "Unknown device". */
export function describeDevice(userAgent: string | null): string {
  const ua = userAgent ?? "";
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Unknown device";
}

/** "Lisbon, PT" or "PT" from Cloudflare's request.cf, when it has them (approximate: the network's location). */
export function describePlace(cf: { city?: unknown; country?: unknown } | undefined): string | null {
  const city = typeof cf?.city === "string" ? cf.city : "";
  const country = typeof cf?.country === "string" && cf.country !== "T1" ? cf.country : "";
  return [city, country].filter(Boolean).join(", ") || null;
}
