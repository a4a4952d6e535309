import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { seo, STATIC_PAGE } from "~/lib/seo";
import { MarketingPage } from "~/modules/marketing/components/MarketingPage";
import {
  COMPONENT_STATE_LABELS,
  PUBLIC_ERROR_RATE_PCT,
  PUBLIC_ERROR_WINDOW_MINUTES,
  PUBLIC_MIN_REQUESTS,
  STATUS_COMPONENTS,
  UPTIME_DAYS,
  type ComponentState,
} from "~/modules/ops/status";
import { loadStatus } from "~/modules/ops/status.server";

export const handle = STATIC_PAGE;

export const meta: MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "System status",
    description:
      "Whether Porchlight is up right now and answering without errors, its uptime over the last 90 days, and incidents, from the checks it runs every five minutes.",
    path: "/status",
  });

// The public status page. No React in the browser. Read from the cron's probes; a minute's caching keeps a crowd on
// this page during an incident from adding to it.
export async function loader({ context }: LoaderFunctionArgs) {
  return loadStatus(context.db, Date.now());
}
export const headers: HeadersFunction = () => ({ "Cache-Control": "public, max-age=60" });

const STATE_CLASS: Record<ComponentState, string> = {
  operational: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  degraded: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  down: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  unknown: "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
};
const OVERALL: Record<ComponentState, string> = {
  operational: "All systems operational",
  degraded: "Some systems degraded",
  down: "Some systems are down",
  unknown: "No checks have run yet",
};
const barClass = (pct: number | null) =>
  pct === null
    ? "bg-stone-200 dark:bg-stone-700"
    : pct >= 99.9
      ? "bg-emerald-500 dark:bg-emerald-400"
      : pct >= 95
        ? "bg-amber-500 dark:bg-amber-400"
        : "bg-red-600 dark:bg-red-400";
const dayLabel = (day: number) => new Date(day).toISOString().slice(0, 10);
/** Visitors are anywhere: times here are UTC. */
const utc = (at: number) => `${new Date(at).toISOString().slice(0, 16).replace("T", " ")} UTC`;
const pctText = (pct: number | null) => (pct === null ? "no data" : `${pct >= 99.995 ? "100" : pct.toFixed(2)}%`);
const errorsText = (e: { requests: number; errors: number; ratePct: number | null }) =>
  e.requests === 0
    ? `No requests in the last ${PUBLIC_ERROR_WINDOW_MINUTES} minutes.`
    : `Server errors, last ${PUBLIC_ERROR_WINDOW_MINUTES} minutes: ${e.ratePct!.toFixed(2)}% of ${e.requests.toLocaleString("en-US")} ${e.requests === 1 ? "request" : "requests"}.`;

export default function StatusPage() {
  const status = useLoaderData<typeof loader>();
  return (
    <MarketingPage
      label="Status"
      title="System status"
      intro={
        <p>
          Porchlight checks each of its parts every five minutes and counts the requests it answers with an error. This page shows what you would
          notice, as measured, and any incident we are working on.
        </p>
      }
    >
      <div className="flex flex-col gap-8">
        <section aria-labelledby="now" className={`rounded-2xl p-5 ${STATE_CLASS[status.overall]}`}>
          <h2 id="now" className="text-xl font-bold">
            {OVERALL[status.overall]}
          </h2>
          <p className="mt-1 text-sm">
            {status.checkedAt ? `Last checked ${utc(status.checkedAt)}.` : "The first check runs within five minutes of starting."}
          </p>
        </section>

        {status.incidents.length > 0 ? (
          <section aria-labelledby="incidents">
            <h2 id="incidents" className="text-2xl font-bold">
              Incidents
            </h2>
            <ul className="mt-3 flex flex-col gap-3">
              {status.incidents.map((i) => (
                <li key={i.id} className="rounded-xl border border-stone-200 p-4 dark:border-stone-800">
                  <p className="font-semibold">
                    {i.title}{" "}
                    <span className="font-normal text-stone-600 dark:text-stone-400">
                      · {STATUS_COMPONENTS.find((c) => c.id === i.component)?.label ?? i.component}
                    </span>
                  </p>
                  {i.body ? <p className="mt-1 whitespace-pre-line text-stone-700 dark:text-stone-300">{i.body}</p> : null}
                  <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
                    {`Posted ${utc(i.openedAt)}. ${i.resolvedAt === null ? "Ongoing." : `Resolved ${utc(i.resolvedAt)}.`}`}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        ) : null}

        <section aria-labelledby="components">
          <h2 id="components" className="text-2xl font-bold">
            {`Uptime, last ${UPTIME_DAYS} days`}
          </h2>
          <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">
            Each bar is a day (UTC): the share of that day's checks in which everything the part needs answered. Green at 99.9% or more, amber from
            95%, red below; grey when no check ran.
          </p>
          <ul className="mt-4 flex flex-col gap-6">
            {status.components.map((c) => {
              const below = c.daily.filter((d) => d.uptimePct !== null && d.uptimePct < 99.9);
              return (
                <li key={c.id}>
                  <div className="flex flex-wrap items-baseline justify-between gap-2">
                    <h3 className="font-semibold">{c.label}</h3>
                    <span className={`rounded-full px-2 py-0.5 text-sm font-semibold ${STATE_CLASS[c.state]}`}>
                      {COMPONENT_STATE_LABELS[c.state]}
                    </span>
                  </div>
                  <div aria-hidden="true" className="mt-2 flex h-8 gap-px">
                    {c.daily.map((d) => (
                      <span
                        key={d.day}
                        title={`${dayLabel(d.day)}: ${pctText(d.uptimePct)}`}
                        className={`flex-1 rounded-sm ${barClass(d.uptimePct)}`}
                      />
                    ))}
                  </div>
                  <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
                    {c.uptimePct === null ? "No checks yet." : `${pctText(c.uptimePct)} uptime over the days checked.`}
                    {below.length > 0 ? ` Below 99.9% on ${below.map((d) => `${dayLabel(d.day)} (${pctText(d.uptimePct)})`).join(", ")}.` : ""}
                  </p>
                  {c.errors ? <p className="text-sm text-stone-700 dark:text-stone-300">{errorsText(c.errors)}</p> : null}
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="measured">
          <h2 id="measured" className="text-2xl font-bold">
            How this page is measured
          </h2>
          <ul className="mt-3 flex list-disc flex-col gap-2 pl-5 text-stone-700 dark:text-stone-300">
            <li>
              <strong>Down:</strong> the latest check of something the part needs did not answer. App, API and Sign-in need the database and the
              session store, Database the database, Payments the payment setup, and AI the AI engine.
            </li>
            <li>
              <strong>Degraded:</strong>{" "}
              {`more than ${PUBLIC_ERROR_RATE_PCT}% of the App's or the API's requests in the last ${PUBLIC_ERROR_WINDOW_MINUTES} minutes were answered with a server error (5xx), counted once there were at least ${PUBLIC_MIN_REQUESTS}; or we have posted an incident about the part and it is not resolved yet.`}
            </li>
            <li>
              <strong>Uptime:</strong> the share of a day&apos;s checks in which everything the part needs answered.
            </li>
            <li>
              Our team also watches internal measurements, such as page speed and the e-mail queue. They do not change this page; when one affects
              you, we post an incident here.
            </li>
          </ul>
        </section>
      </div>
    </MarketingPage>
  );
}
