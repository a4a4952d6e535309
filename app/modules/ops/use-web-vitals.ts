import { useMatches } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { onCLS, onINP, onLCP, onTTFB, type Metric } from "web-vitals";
import type { RumBeacon } from "./rum.schema";

// The signed-in app's field measurements (ADR 0024): Core Web Vitals from the `web-vitals` library,
// the page's load and render times from the Navigation Timing entry, and the JS heap where the browser
// exposes it (Chromium). One beacon per page view, sent with navigator.sendBeacon when the page is hidden or
// left, to this origin only. `sampleRate` (RUM_SAMPLE_RATE) decides which page views report at all.

type Collected = Partial<Record<RumBeacon["metrics"][number]["name"], number>>;

function send(route: string, collected: Collected) {
  const metrics = Object.entries(collected).map(([name, value]) => ({ name, value: Math.round(value! * 1000) / 1000 }));
  if (metrics.length === 0) return;
  const body = JSON.stringify({ route, metrics });
  navigator.sendBeacon?.("/api/rum", new Blob([body], { type: "application/json" }));
}

/** Reports this page load's measurements once. */
export function useWebVitals(sampleRate: number) {
  const matches = useMatches();
  // The route of the page as it first loaded (later navigations are not page loads).
  const route = useRef(matches[matches.length - 1]?.id ?? "root");
  useEffect(() => {
    if (typeof navigator === "undefined" || !navigator.sendBeacon || Math.random() >= sampleRate) return;
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
    // Only a page load of this route reports: when the app's layout first appears after a client-side move
    // (signing in lands on the dashboard without loading a page), the timings are the sign-in page's.
    if (nav && new URL(nav.name).pathname !== window.location.pathname) return;
    const collected: Collected = {};
    // Render: from the document being parsed (its scripts about to run) to this first effect, i.e. the app's
    // scripts running and React hydrating the page.
    if (nav && nav.domInteractive > 0) collected.render = Math.max(0, performance.now() - nav.domInteractive);
    const take = (name: keyof Collected) => (metric: Metric) => {
      collected[name] = metric.value;
    };
    onLCP(take("lcp"));
    onINP(take("inp"));
    onCLS(take("cls"));
    onTTFB(take("ttfb"));
    let sent = false;
    const flush = () => {
      if (sent) return;
      const entry = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
      if (entry && entry.loadEventEnd > 0) collected.load = entry.loadEventEnd;
      const memory = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
      if (memory) collected.heap = memory.usedJSHeapSize / (1024 * 1024);
      sent = true;
      send(route.current, collected);
    };
    const onHidden = () => {
      if (document.visibilityState === "hidden") flush();
    };
    document.addEventListener("visibilitychange", onHidden);
    window.addEventListener("pagehide", flush);
    return () => {
      document.removeEventListener("visibilitychange", onHidden);
      window.removeEventListener("pagehide", flush);
    };
  }, [sampleRate]);
}
