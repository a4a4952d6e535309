import type { HeadersFunction } from "@remix-run/cloudflare";

/** A route's `headers` export that passes its loader's Server-Timing on to the page (and `npm run bench`). */
export const serverTimingHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const headers = new Headers();
  const timing = loaderHeaders.get("Server-Timing");
  if (timing) headers.set("Server-Timing", timing);
  return headers;
};

/** The Server-Timing header for work that started at `started` (Date.now()). */
export const serverTiming = (name: string, started: number) => ({ "Server-Timing": `${name};dur=${Date.now() - started}` });
