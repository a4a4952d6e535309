import type { SerializeFrom } from "@remix-run/cloudflare";
import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { toast } from "~/components/ui/Toaster";
import type { ActionResult } from "~/lib/action-result";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { useHydrated } from "~/lib/use-hydrated";
import type { systemThresholds } from "~/db/schema";
import { THRESHOLD_INFO, type ThresholdMetric } from "../thresholds";

type Threshold = SerializeFrom<typeof systemThresholds.$inferSelect>;

const input =
  "h-11 w-28 rounded-lg border border-stone-300 bg-white px-3 text-right tabular-nums dark:border-stone-700 dark:bg-stone-950 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600";

/** One threshold: the toggle saves when changed, each number when the field is left (spec section 5). */
function ThresholdRow({ t }: { t: Threshold }) {
  const fetcher = useFetcher<ActionResult>();
  const info = THRESHOLD_INFO[t.metricName as ThresholdMetric];
  const label = info?.label ?? t.metricName;
  const unit = info?.unit ?? "";
  // What is shown while a save is on its way, then the saved values (new loader data) again.
  const [enabled, setEnabled] = useState(t.enabled);
  const hydrated = useHydrated();
  useFetcherResult(fetcher, (result) => {
    if (result.ok) toast({ title: "Threshold updated", description: result.message, variant: "success" });
    else {
      toast({ title: "Failed to update threshold", description: result.error, variant: "destructive" });
      setEnabled(t.enabled);
    }
  });
  const save = (field: "enabled" | "warning" | "critical", value: string) =>
    fetcher.submit({ intent: "threshold", id: String(t.id), field, value }, { method: "post" });
  const number = (field: "warning" | "critical", saved: number) => (
    <input
      key={`${field}-${saved}`}
      type="number"
      inputMode="decimal"
      step="any"
      min={0}
      defaultValue={saved}
      disabled={!hydrated}
      aria-label={`${label}: ${field} threshold${unit ? ` (${unit})` : ""}`}
      className={input}
      onBlur={(event) => {
        const text = event.currentTarget.value.trim();
        const value = Number(text);
        // Not a number (or unchanged): ignored, and the saved figure shown again.
        if (text === "" || !Number.isFinite(value) || value === saved) {
          event.currentTarget.value = String(saved);
          return;
        }
        save(field, text);
      }}
    />
  );
  return (
    <tr>
      <th scope="row" className="px-3 py-3 text-left align-top font-medium">
        <span className="block">{label}</span>
        <span className="block text-xs font-normal text-stone-600 dark:text-stone-400">{info?.reads ?? t.metricName}</span>
        <code className="text-xs font-normal text-stone-600 dark:text-stone-400">{t.metricName}</code>
      </th>
      <td className="px-3 py-3 align-top">
        <label className="inline-flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            role="switch"
            checked={enabled}
            disabled={!hydrated}
            onChange={(event) => {
              setEnabled(event.currentTarget.checked);
              save("enabled", String(event.currentTarget.checked));
            }}
            className="h-5 w-5 accent-brand-700"
          />
          <span className="sr-only">{`Check ${label}`}</span>
          <span aria-hidden="true">{enabled ? "On" : "Off"}</span>
        </label>
      </td>
      <td className="px-3 py-3 align-top text-sm">{t.comparisonOperator === "greater_than" ? "Above" : "Below"}</td>
      <td className="px-3 py-3 align-top">{number("warning", t.warningThreshold)}</td>
      <td className="px-3 py-3 align-top">{number("critical", t.criticalThreshold)}</td>
      <td className="px-3 py-3 align-top text-sm">{unit}</td>
    </tr>
  );
}

export function ThresholdsPanel({ thresholds }: { thresholds: Threshold[] }) {
  return (
    <section
      aria-labelledby="thresholds-heading"
      className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="thresholds-heading" className="text-lg font-semibold">
        Thresholds
      </h2>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Every 5 minutes the scheduler reads each checked metric. Past the warning or critical figure an alert opens, and admins get one e-mail when it
        opens and one when it clears. A switch saves at once; a number saves when you leave its field.
      </p>
      <div
        role="group"
        aria-label="Thresholds"
        tabIndex={0}
        className="relative mt-3 overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
      >
        <table className="w-full text-sm">
          <caption className="sr-only">Thresholds, by metric name</caption>
          <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
            <tr>
              {["Metric", "Checked", "Alert when", "Warning", "Critical", "Unit"].map((h) => (
                <th key={h} scope="col" className="whitespace-nowrap px-3 py-2 text-left font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
            {thresholds.map((t) => (
              <ThresholdRow key={t.id} t={t} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
