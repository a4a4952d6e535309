import { useFetcher, useRevalidator } from "@remix-run/react";
import { Activity, RefreshCw } from "lucide-react";
import { useEffect } from "react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { toast } from "~/components/ui/Toaster";
import type { ActionResult } from "~/lib/action-result";
import { formatTime, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { STATUS_LABELS, type SystemStatus } from "../monitoring";

/** The Monitoring tab reads again this often while it is on screen (spec: every 30 s). */
const REFRESH_MS = 30_000;

const BADGE_CLASS: Record<SystemStatus, string> = {
  operational: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  degraded: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  outage: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

/** Re-reads the page every 30 s while it is visible, without a full reload; paused while the tab is hidden. */
function useRefresh(active: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const tick = () => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    };
    const timer = window.setInterval(tick, REFRESH_MS);
    const onVisible = () => tick();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [active, revalidate, state]);
}

/** The page's title, when it was read, the system's status badge and "Check thresholds now" (a toast says how it went). */
export function OperationsHeader({
  status,
  readAt,
  prefs,
  refreshes,
}: {
  status: SystemStatus;
  readAt: number;
  prefs: DisplayPreferences;
  /** The Monitoring tab: read again every 30 s while visible. */
  refreshes: boolean;
}) {
  useRefresh(refreshes);
  const check = useFetcher<ActionResult>();
  useFetcherResult(check, (result) => {
    if (result.ok) toast({ title: "Health check completed", description: result.message, variant: "success" });
    else toast({ title: "Health check failed", description: result.error, variant: "destructive" });
  });
  return (
    <PageHeader
      title="Operations Center"
      description={`Read at ${formatTime(readAt, prefs)}${refreshes ? " · refreshes every 30 s" : ""}`}
      actions={
        <div className="flex flex-wrap items-center gap-2">
          <span role="status" className={`inline-flex min-h-10 items-center gap-2 rounded-full px-3 text-sm font-semibold ${BADGE_CLASS[status]}`}>
            <Activity aria-hidden="true" className="h-4 w-4" />
            {STATUS_LABELS[status]}
          </span>
          <check.Form method="post">
            <button type="submit" name="intent" value="check" className={buttonClass("secondary")} disabled={check.state !== "idle"}>
              <RefreshCw aria-hidden="true" className="h-5 w-5" />
              Check thresholds now
            </button>
          </check.Form>
        </div>
      }
    />
  );
}
