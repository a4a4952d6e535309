// The one place a path the browser sent (sign-in's `redirectTo`) becomes a redirect (ADR 0021). Browsers drop
// tabs and line breaks from URLs and read a backslash as a slash, so `/<TAB>/evil.example` or `/\evil.example`
// would leave the site; CR or LF in a Location header made the Worker answer 500.

const PROBE_ORIGIN = "https://porchlight.invalid";

/**
 * `to` when it is a path on this site, else `fallback`. The answer is the path as the URL parser reads it
 * (percent-encoded, dot segments resolved), so what the browser follows is what was checked.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/dashboard"): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  // One leading slash, then no slash or backslash: "//host" and "/\host" name another host.
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  // Control characters (tab, CR, LF, NUL…), backslashes and whitespace other than a plain space have no place
  // in a path of ours; browsers strip or rewrite some of them, so refuse rather than guess.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(to) || /[^\S ]/u.test(to)) return fallback;
  let url: URL;
  try {
    url = new URL(to, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN || url.username || url.password) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can turn "/..//evil.example" into "//evil.example".
  if (path.startsWith("//") || path.startsWith("/\\")) return fallback;
  return path;
}
