import type { ServerBuild } from "@remix-run/cloudflare";
import type { Sample } from "./metrics";

// The loader and action part of each request (ADR 0024). The Worker wraps every route module's
// loader and action once, at start-up (workers/worker.ts), so no route has to remember to report its time: each
// call notes when it started and ended against the request's load context, which Remix hands to every
// loader and action of the request as the same object. A document request runs its routes' loaders side by
// side, so what is recorded is their span (first start to last end): the time the page waited for data.

interface Times {
  loaderStart: number | null;
  loaderEnd: number;
  action: number | null;
}

const byContext = new WeakMap<object, Times>();

function note(context: unknown, kind: "loader" | "action", started: number, ended: number): void {
  if (typeof context !== "object" || context === null) return;
  const times = byContext.get(context) ?? { loaderStart: null, loaderEnd: 0, action: null };
  if (kind === "action") times.action = (times.action ?? 0) + (ended - started);
  else {
    times.loaderStart = times.loaderStart === null ? started : Math.min(times.loaderStart, started);
    times.loaderEnd = Math.max(times.loaderEnd, ended);
  }
  byContext.set(context, times);
}

async function timed<T>(context: unknown, kind: "loader" | "action", run: () => T | Promise<T>): Promise<T> {
  const started = Date.now();
  try {
    return await run();
  } finally {
    // A thrown redirect or error response is still the handler's time.
    note(context, kind, started, Date.now());
  }
}

/** A copy of the build whose route loaders and actions note their time; everything else is the build's own. */
export function timeRouteHandlers(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    if (!route) continue;
    const { loader, action } = route.module;
    routes[id] = {
      ...route,
      module: {
        ...route.module,
        ...(loader ? { loader: (args: Parameters<typeof loader>[0]) => timed(args.context, "loader", () => loader(args)) } : {}),
        ...(action ? { action: (args: Parameters<typeof action>[0]) => timed(args.context, "action", () => action(args)) } : {}),
      },
    };
  }
  return { ...build, routes };
}

/** The request's loader span and action time as samples for `route` (none when no loader or action ran). */
export function handlerSamples(context: object, route: string): Sample[] {
  const times = byContext.get(context);
  if (!times) return [];
  const samples: Sample[] = [];
  if (times.action !== null) samples.push({ metric: "action", route, value: times.action });
  if (times.loaderStart !== null) samples.push({ metric: "loader", route, value: times.loaderEnd - times.loaderStart });
  return samples;
}
