// Errors are logged once, as one short JSON line (ADR 0021). A multi-line stack per error made `wrangler dev`
// source-map and print each one, and a burst of errors exhausted its file descriptors. Logs never hold people:
// the route is a pattern (/contacts/:id, never an id or a query string) and no request data is written.

const MESSAGE_MAX = 300;

/** The error's name and first line of its message, cut short; never its stack. */
function errorMessage(error: unknown): string {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const line = text.split(/\r?\n/, 1)[0] ?? "";
  return line.length > MESSAGE_MAX ? `${line.slice(0, MESSAGE_MAX)}…` : line;
}

/** One compact line on stderr: `{"event","route","message"}`. */
export function logError(event: string, route: string, error: unknown): void {
  console.error(JSON.stringify({ event, route, message: errorMessage(error) }));
}

/**
 * A URL path as its route pattern: each segment that holds a route parameter becomes `:name`, and a splat's
 * segments become `*`. `/contacts/8c1f…` with `{ id: "8c1f…" }` gives `/contacts/:id`.
 */
export function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  const segments = pathname.split("/");
  const splat = params["*"];
  let end = segments.length;
  if (splat) {
    const splatSegments = splat.split("/").length;
    end = Math.max(1, segments.length - splatSegments);
  }
  const named = Object.entries(params).filter(([name, value]) => name !== "*" && value);
  const pattern = segments.slice(0, end).map((segment) => {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // A malformed escape is matched as written.
    }
    const param = named.find(([, value]) => value === decoded || value === segment);
    return param ? `:${param[0]}` : segment;
  });
  if (splat) pattern.push("*");
  return pattern.join("/") || "/";
}
