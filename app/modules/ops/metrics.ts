import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import type { Env } from "~/lib/env.server";

// What the Operations Center records (ADR 0024). Every measurement is a sample: a metric, the route
// pattern it belongs to (never a URL with ids in it: the patterns come from the app's route table, so there
// are as many as there are routes, whatever is requested), a value, and for requests their status.

/** Recorder shards (workers/durable-objects/ops-recorder.do.ts): requests spread over them at random. */
export const RECORDER_SHARDS = 8;

/** Server metrics: each request's duration, and the part of it spent in the route's loaders and in its action. */
type ServerMetric = "request" | "loader" | "action";
/** Browser metrics from the signed-in app's beacons: Core Web Vitals, navigation timings and the JS heap. */
type VitalMetric = "lcp" | "inp" | "cls" | "ttfb" | "load" | "render" | "heap";
export type MetricName = ServerMetric | VitalMetric;

export interface Sample {
  metric: MetricName;
  route: string;
  /** ms; layout shift in thousandths; heap in MB. */
  value: number;
  status?: number;
}

/** The route a request that matched no route of the app is counted under (bounded, whatever was asked for). */
export const NO_ROUTE = "(no route)";

/** The route patterns of a Remix build: (pathname) → "/contacts/:id", the 404 page's "/*", or NO_ROUTE. */
export function remixRoutePatterns(routes: Record<string, { id: string; parentId?: string; path?: string; index?: boolean } | undefined>) {
  const byParent = new Map<string | undefined, { id: string; path?: string; index?: boolean }[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(route);
    byParent.set(route.parentId, siblings);
  }
  const tree = (parentId: string | undefined): AgnosticRouteObject[] =>
    (byParent.get(parentId) ?? []).map((r) =>
      r.index ? { id: r.id, index: true as const, path: r.path } : { id: r.id, path: r.path, children: tree(r.id) },
    );
  const roots = tree(undefined);
  return (pathname: string): string => {
    const matches = matchRoutes(roots, pathname);
    if (!matches || matches.length === 0) return NO_ROUTE;
    const parts = matches.map((m) => m.route.path).filter((p): p is string => Boolean(p));
    return `/${parts.join("/")}`.replace(/\/+/g, "/");
  };
}

/** Each Remix route id's URL pattern ("routes/_app.contacts.$id" → "/contacts/:id"), for the browser's beacons. */
export function remixRouteIdPatterns(routes: Record<string, { id: string; parentId?: string; path?: string } | undefined>): Map<string, string> {
  const patterns = new Map<string, string>();
  const patternOf = (id: string | undefined): string[] => {
    const route = id ? routes[id] : undefined;
    if (!route) return [];
    return [...patternOf(route.parentId), ...(route.path ? [route.path] : [])];
  };
  for (const route of Object.values(routes)) if (route) patterns.set(route.id, `/${patternOf(route.id).join("/")}`.replace(/\/+/g, "/"));
  return patterns;
}

let routeIds: Map<string, string> = new Map();
/** The Worker registers its build's routes once (workers/worker.ts); the beacon endpoint looks ids up here. */
export function registerRouteIds(patterns: Map<string, string>): void {
  routeIds = patterns;
}
/** A known route id's pattern, or null: a beacon naming any other route is refused. */
export function patternOfRouteId(id: string): string | null {
  return routeIds.get(id) ?? null;
}

/** At most one hand-over to a recorder shard per isolate in this many ms; samples in between wait in memory. */
export const SEND_EVERY_MS = 1_000;
/** ...unless this many are waiting. */
const SEND_AT = 200;
let waiting: Sample[] = [];
let lastSent = 0;

/**
 * Queues a request's samples. A quiet isolate (nothing sent in the last second) sends at once; a busy one sends
 * what has gathered at most once a second, so under load a shard gets one call per isolate per second instead
 * of one per request. What is waiting goes with the next request after the second is up: only the last
 * second of a burst can be lost, if the isolate is evicted before another request comes.
 */
export function queueSamples(namespace: Env["OPS"], samples: Sample[], waitUntil: (promise: Promise<unknown>) => void, now = Date.now()): void {
  waiting.push(...samples);
  // A clock that went back (a corrected wall clock; a test that ran ahead in time) counts as "the second is up":
  // otherwise the samples would wait until the clock caught up with the last send, possibly for hours.
  const sinceLast = now - lastSent;
  if (sinceLast >= 0 && sinceLast < SEND_EVERY_MS && waiting.length < SEND_AT) return;
  const batch = waiting;
  waiting = [];
  lastSent = now;
  waitUntil(recordSamples(namespace, batch));
}

/** Hands samples to a random recorder shard. Never throws: recording must not fail a request. */
async function recordSamples(namespace: Env["OPS"], samples: Sample[]): Promise<void> {
  if (samples.length === 0) return;
  try {
    const shard = Math.floor(Math.random() * RECORDER_SHARDS);
    await namespace.get(namespace.idFromName(`shard-${shard}`)).record(samples);
  } catch (error) {
    console.error(JSON.stringify({ event: "ops_record_failed", detail: error instanceof Error ? error.message : String(error) }));
  }
}
