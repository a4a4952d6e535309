import { Link } from "@remix-run/react";
import { formatCents, formatCentsWhole, formatDay } from "~/lib/format";
import type { ForecastPage } from "../forecast-page.server";

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";
const monthName = (month: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleDateString("en-US", { month: "short", year: "numeric", timeZone: "UTC" });

/** Closed net this year, the weighted net of the next 12 months by month, the brokerage cap, and the open deals outside those months. */
export function ForecastSummary({ forecast: loaded }: { forecast: ForecastPage }) {
  const { prefs, cap } = loaded;
  const total12 = loaded.months.reduce((sum, m) => sum + m.weightedNetCents, 0);
  const peak = Math.max(1, ...loaded.months.map((m) => m.weightedNetCents));
  return (
    <section aria-labelledby="forecast" className="mb-6">
      <h2 id="forecast" className="sr-only">
        Forecast
      </h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <div className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Closed net this year</p>
          <p className="text-2xl font-bold tabular-nums">{formatCents(loaded.closedNetYtdCents, prefs)}</p>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {loaded.closedDealsYtd} won {loaded.closedDealsYtd === 1 ? "deal" : "deals"} closed since Jan 1
          </p>
        </div>
        <div className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Weighted net, next 12 months</p>
          <p className="text-2xl font-bold tabular-nums">{formatCents(total12, prefs)}</p>
          <p className="text-sm text-stone-600 dark:text-stone-400">Each open deal's net × its probability</p>
        </div>
        <div className={card}>
          <p className="text-sm text-stone-600 dark:text-stone-400">Brokerage cap</p>
          {cap ? (
            <>
              <p className="text-2xl font-bold tabular-nums">
                {formatCentsWhole(cap.paidCents, prefs)} <span className="text-base font-normal">of {formatCentsWhole(cap.capCents, prefs)}</span>
              </p>
              <div
                role="progressbar"
                aria-label="Cap paid"
                aria-valuemin={0}
                aria-valuemax={cap.capCents}
                aria-valuenow={cap.paidCents}
                aria-valuetext={`${Math.round((cap.paidCents / cap.capCents) * 100)}%`}
                className="mt-1 h-2 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
              >
                <div className="h-full rounded-full bg-brand-600" style={{ width: `${Math.min(100, (cap.paidCents / cap.capCents) * 100)}%` }} />
              </div>
              <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                {cap.reachedOn
                  ? `Reached on ${formatDay(cap.reachedOn, prefs)}: no split until ${formatDay(cap.yearEnd, prefs)}.`
                  : cap.projectedOn
                    ? `Projected on ${formatDay(cap.projectedOn, prefs)} at your weighted pace.`
                    : `Not projected before the cap year ends on ${formatDay(cap.yearEnd, prefs)}.`}
              </p>
            </>
          ) : (
            <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">No cap in your plan. Add one below if your brokerage has it.</p>
          )}
        </div>
      </div>

      <div className={`${card} mt-3`}>
        <h3 className="font-semibold">Weighted agent net by expected close month</h3>
        <table className="mt-2 w-full text-left text-sm">
          <caption className="sr-only">Weighted agent net of open deals by expected close month, next 12 months</caption>
          <thead className="text-stone-600 dark:text-stone-400">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Month
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Deals
              </th>
              <th scope="col" className="w-2/5 py-1 font-medium">
                <span className="sr-only">Share</span>
              </th>
              <th scope="col" className="py-1 text-right font-medium">
                Weighted net
              </th>
            </tr>
          </thead>
          <tbody>
            {loaded.months.map((m) => (
              <tr key={m.month} className="border-t border-stone-100 dark:border-stone-800">
                <th scope="row" className="py-1.5 font-normal">
                  {monthName(m.month)}
                </th>
                <td className="py-1.5 text-right tabular-nums">{m.deals}</td>
                <td className="py-1.5 pl-3" aria-hidden="true">
                  <div className="h-3 rounded bg-brand-500/80" style={{ width: `${(Math.max(0, m.weightedNetCents) / peak) * 100}%` }} />
                </td>
                <td className="py-1.5 text-right tabular-nums">{formatCents(m.weightedNetCents, prefs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {[
          [loaded.overdue, "with an expected close date that has passed"],
          [loaded.undated, "without an expected close date"],
          [loaded.later, "expected to close after these 12 months"],
        ]
          .filter(([bucket]) => (bucket as { deals: number }).deals > 0)
          .map(([bucket, text]) => {
            const b = bucket as { deals: number; weightedNetCents: number };
            return (
              <p key={String(text)} className="mt-2 text-sm text-stone-700 dark:text-stone-300">
                Not in the months above: {b.deals} open {b.deals === 1 ? "deal" : "deals"} {String(text)}, weighted net{" "}
                {formatCents(b.weightedNetCents, prefs)}.{" "}
                <Link to="/pipeline?view=list&sort=close" className="underline underline-offset-4">
                  Review close dates
                </Link>
              </p>
            );
          })}
      </div>
    </section>
  );
}
