import type { SerializeFrom } from "@remix-run/cloudflare";
import { formatDateTime, formatTime, type DisplayPreferences } from "~/lib/format";
import type { Monitoring, Watch } from "../monitoring.server";
import { FAILURE_DAYS } from "../cron-jobs";
import { CORE_PROBES, THRESHOLD_INFO, thresholdLevel, type ThresholdMetric } from "../thresholds";

type Data = SerializeFrom<Monitoring>;
type Reading = Data["readings"]["load"];

const card = "rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900";

function formatMs(ms: number | null): string {
  if (ms === null) return "—";
  return ms >= 1000 ? `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s` : `${Math.round(ms)} ms`;
}
const pct = (value: number | null, digits = 2) => (value === null ? "No data" : `${value.toFixed(digits)}%`);

// A card's state is its reading against the threshold the alerts use (Operations Center → Thresholds).
type State = "good" | "warning" | "critical" | "unchecked";
const stateOf = (w: Watch): State | null => (!w.checked ? "unchecked" : w.reading === null ? null : (w.level ?? "good"));
const STATE_TEXT: Record<State, string> = { good: "Good", warning: "Warning", critical: "Critical", unchecked: "Not checked" };
const STATE_CLASS: Record<State, string> = {
  good: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  critical: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
  unchecked: "bg-stone-100 text-stone-800 dark:bg-stone-800 dark:text-stone-200",
};
const BAR_CLASS: Record<State, string> = {
  good: "bg-emerald-600 dark:bg-emerald-400",
  warning: "bg-amber-500 dark:bg-amber-400",
  critical: "bg-red-600 dark:bg-red-400",
  unchecked: "bg-sky-600 dark:bg-sky-400",
};
/** "warning above 2.0 s · critical above 5.0 s", in the reading's own format; nothing for an unchecked reading. */
function limits(w: Watch, format: (v: number) => string): string {
  if (!w.checked || w.warning === null || w.critical === null) return "not checked (Thresholds tab)";
  const side = w.operator === "less_than" ? "below" : "above";
  return `warning ${side} ${format(w.warning)} · critical ${side} ${format(w.critical)}`;
}
function StateBadge({ w }: { w: Watch }) {
  const state = stateOf(w);
  return state ? <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_CLASS[state]}`}>{STATE_TEXT[state]}</span> : null;
}

function Percentiles({ r, format }: { r: Reading; format: (v: number | null) => string }) {
  return (
    <dl className="mt-2 grid grid-cols-3 gap-2 text-sm">
      {(["p50", "p75", "p95"] as const).map((p) => (
        <div key={p}>
          <dt className="text-stone-600 dark:text-stone-400">{p}</dt>
          <dd className="font-semibold tabular-nums">{format(r[p])}</dd>
        </div>
      ))}
    </dl>
  );
}

function ReadingCard({ title, r, watch, headline, note }: { title: string; r: Reading; watch: Watch; headline: "p75" | "p95"; note: string }) {
  return (
    <section aria-label={title} className={card}>
      <div className="flex items-start justify-between gap-2">
        <h3 className="font-semibold">{title}</h3>
        <StateBadge w={watch} />
      </div>
      <p className="mt-1 text-2xl font-bold tabular-nums">{r.n === 0 ? "No data" : formatMs(r[headline])}</p>
      <p className="text-sm text-stone-600 dark:text-stone-400">{r.n === 0 ? note : `${headline} of ${r.n.toLocaleString("en-US")} · ${note}`}</p>
      {r.n > 0 ? <Percentiles r={r} format={formatMs} /> : null}
      <p className="mt-2 text-xs text-stone-600 dark:text-stone-400">{`${headline}: ${limits(watch, (v) => formatMs(v))}`}</p>
    </section>
  );
}

/** A reading as a bar against its critical threshold (full at critical), coloured by its state. */
function Bar({ label, watch, format, empty }: { label: string; watch: Watch; format: (v: number) => string; empty: string }) {
  const state = stateOf(watch);
  const scale = watch.checked && watch.critical ? watch.critical : null;
  const width = watch.reading === null || scale === null ? 0 : Math.min(100, (watch.reading / scale) * 100);
  return (
    <div>
      <div className="flex justify-between gap-2 text-sm">
        <span>{label}</span>
        <span className="flex items-center gap-2 font-semibold tabular-nums">
          {watch.reading === null ? empty : format(watch.reading)}
          <StateBadge w={watch} />
        </span>
      </div>
      <div aria-hidden="true" className="mt-1 h-2 rounded-full bg-stone-100 dark:bg-stone-800">
        <div className={`h-2 rounded-full ${BAR_CLASS[state ?? "unchecked"]}`} style={{ width: `${width}%` }} />
      </div>
      <p className="mt-1 text-xs text-stone-600 dark:text-stone-400">{limits(watch, format)}</p>
    </div>
  );
}

/** A day of hourly figures as a line, with the numbers in a table for screen readers. */
function Sparkline({
  points,
  label,
  format,
  prefs,
}: {
  points: { start: number; value: number | null }[];
  label: string;
  format: (v: number | null) => string;
  prefs: DisplayPreferences;
}) {
  const values = points.map((p) => p.value ?? 0);
  const max = Math.max(1, ...values);
  const w = 240;
  const h = 40;
  const step = points.length > 1 ? w / (points.length - 1) : w;
  const path = values.map((v, i) => `${i === 0 ? "M" : "L"}${(i * step).toFixed(1)},${(h - (v / max) * (h - 4) - 2).toFixed(1)}`).join(" ");
  return (
    <figure>
      <svg viewBox={`0 0 ${w} ${h}`} className="h-10 w-full max-w-xs text-sky-600 dark:text-sky-400" aria-hidden="true" preserveAspectRatio="none">
        <path d={path} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="sr-only">
        <table>
          <caption>{label}</caption>
          <tbody>
            {points.map((p) => (
              <tr key={p.start}>
                <th scope="row">{formatTime(p.start, prefs)}</th>
                <td>{format(p.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </figcaption>
    </figure>
  );
}

/** A table that scrolls sideways on its own when wider than the screen; `wrap` lists the columns of free text, which wrap. */
function Table({
  caption,
  head,
  rows,
  empty,
  wrap = [],
}: {
  caption: string;
  head: string[];
  rows: (string | number)[][];
  empty: string;
  wrap?: number[];
}) {
  if (rows.length === 0) return <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">{empty}</p>;
  return (
    <div
      role="group"
      aria-label={caption}
      tabIndex={0}
      className="relative mt-2 overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-300">
          <tr>
            {head.map((h, i) => (
              <th
                key={h}
                scope="col"
                className={`whitespace-nowrap px-3 py-2 font-semibold ${i === 0 || wrap.includes(i) ? "text-left" : "text-right"}`}
              >
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-stone-200 dark:divide-stone-800">
          {rows.map((row, i) => (
            <tr key={i}>
              {row.map((c, j) =>
                j === 0 ? (
                  <th key={j} scope="row" className="px-3 py-2 text-left font-medium">
                    {c}
                  </th>
                ) : (
                  <td key={j} className={`px-3 py-2 ${wrap.includes(j) ? "min-w-48 text-left" : "whitespace-nowrap text-right tabular-nums"}`}>
                    {c}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A probe's state: failing, or for the core probes their time against the Slowest core probe threshold. */
function probeState(p: { component: string; ok: boolean; ms: number }, latency: Watch): string {
  if (!p.ok) return "Failing";
  if (
    !(CORE_PROBES as readonly string[]).includes(p.component) ||
    !latency.checked ||
    latency.warning === null ||
    latency.critical === null ||
    latency.operator === null
  )
    return "OK";
  const level = thresholdLevel(
    { enabled: true, warningThreshold: latency.warning, criticalThreshold: latency.critical, comparisonOperator: latency.operator },
    p.ms,
  );
  return level === "critical" ? "Critical" : level === "warning" ? "Warning" : "OK";
}
const STATUS_NAMES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
};
const statusName = (status: number) => (STATUS_NAMES[status] ? `${status} ${STATUS_NAMES[status]}` : String(status));
const PROBE_LABELS: Record<string, string> = {
  d1: "Database (D1)",
  kv: "Sessions (KV)",
  durable_object: "Recorder (Durable Object)",
  outbox: "E-mail outbox",
  ai: "AI engine",
  stripe: "Stripe",
  webhooks: "Stripe webhooks",
  cron: "Scheduler",
};

/** When a section's figures were computed, where they are the cron's stored ones rather than read for this page. */
function AsOf({ at, prefs }: { at: number | null; prefs: DisplayPreferences }) {
  if (at === null) return null;
  return <p className="text-sm text-stone-600 dark:text-stone-400">{`As of ${formatTime(at, prefs)} · computed every 5 minutes`}</p>;
}

/** The Monitoring tab; `aggregatesAt`: when its figures over a day or more were computed (null: for this read). */
export function MonitoringPanel({ data, prefs, aggregatesAt }: { data: Data; prefs: DisplayPreferences; aggregatesAt: number | null }) {
  const r = data.readings;
  const w = data.watch;
  const serverErrors = data.errors.server.reduce((sum, e) => sum + e.n, 0);
  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="now-heading">
        <h2 id="now-heading" className="text-lg font-semibold">{`Last ${data.windowMinutes} minutes`}</h2>
        <div className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <ReadingCard title="Page load" r={r.load} watch={w.page_load_p75} headline="p75" note="full loads of signed-in pages" />
          <ReadingCard title="Server response" r={r.request} watch={w.api_response_p95} headline="p95" note="every request, on the server" />
          <ReadingCard title="Render" r={r.render} watch={w.render_p75} headline="p75" note="scripts and hydration, per page load" />
          <section aria-label="Memory and latency" className={card}>
            <h3 className="font-semibold">Memory and latency</h3>
            <div className="mt-3 flex flex-col gap-4">
              <Bar label="JS heap (p75)" watch={w.memory_p75} format={(v) => `${Math.round(v)} MB`} empty="No data" />
              <Bar label="Slowest core probe" watch={w.probe_latency} format={(v) => formatMs(v)} empty="No probe yet" />
            </div>
          </section>
        </div>
      </section>

      <section aria-labelledby="availability-heading" className={card}>
        <h2 id="availability-heading" className="text-lg font-semibold">
          Uptime and errors
        </h2>
        <AsOf at={aggregatesAt} prefs={prefs} />
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Uptime: the share of the scheduler's probe runs in which the database, sessions and the recorder all answered. Errors: requests answered
          with a 5xx status.
        </p>
        <Table
          caption="Uptime and error rate by window"
          head={["Window", "Uptime", "Error rate", "Requests"]}
          rows={data.windows.map((w) => [w.label, pct(w.uptimePct, 2), pct(w.errorRatePct, 2), w.requests.toLocaleString("en-US")])}
          empty=""
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <div>
            <h3 className="text-sm font-semibold">Requests per hour, last 24 hours</h3>
            <Sparkline
              points={data.series.map((p) => ({ start: p.start, value: p.n }))}
              label="Requests per hour"
              format={(v) => String(v ?? 0)}
              prefs={prefs}
            />
          </div>
          <div>
            <h3 className="text-sm font-semibold">Server response p95 per hour</h3>
            <Sparkline
              points={data.series.map((p) => ({ start: p.start, value: p.p95 }))}
              label="Server response p95 per hour"
              format={formatMs}
              prefs={prefs}
            />
          </div>
        </div>
      </section>

      <section aria-labelledby="vitals-heading" className={card}>
        <h2 id="vitals-heading" className="text-lg font-semibold">
          Core Web Vitals, last 24 hours
        </h2>
        <AsOf at={aggregatesAt} prefs={prefs} />
        <Table
          caption="Core Web Vitals from signed-in pages, last 24 hours"
          head={["Metric", "p50", "p75", "p95", "Pages"]}
          rows={(
            [
              ["Largest Contentful Paint", r.lcp, formatMs],
              ["Interaction to Next Paint", r.inp, formatMs],
              ["Cumulative Layout Shift", r.cls, (v: number | null) => (v === null ? "—" : (v / 1000).toFixed(3))],
              ["Time to First Byte", r.ttfb, formatMs],
            ] as const
          )
            .filter(([, reading]) => reading.n > 0)
            .map(([label, reading, f]) => [label, f(reading.p50), f(reading.p75), f(reading.p95), reading.n.toLocaleString("en-US")])}
          empty="No page has reported its vitals in the last 24 hours."
        />
      </section>

      <section aria-labelledby="routes-heading" className={card}>
        <h2 id="routes-heading" className="text-lg font-semibold">
          Slowest routes, last 24 hours
        </h2>
        <AsOf at={aggregatesAt} prefs={prefs} />
        <Table
          caption="Slowest routes by server response p95, last 24 hours; loaders p95 is the part spent fetching the page's data"
          head={["Route", "p50", "p75", "p95", "Loaders p95", "Requests", "Errors"]}
          rows={data.slowest.map((s) => [
            s.route,
            formatMs(s.p50),
            formatMs(s.p75),
            formatMs(s.p95),
            formatMs(s.loaderP95),
            s.n.toLocaleString("en-US"),
            s.errors.toLocaleString("en-US"),
          ])}
          empty="No requests recorded in the last 24 hours."
        />
        <h3 className="mt-4 text-sm font-semibold">Slowest saves</h3>
        <Table
          caption="Form submissions by the action's own time, slowest p95 first, last 24 hours"
          head={["Route", "p50", "p75", "p95", "Submissions"]}
          rows={data.actions.map((a) => [a.route, formatMs(a.p50), formatMs(a.p75), formatMs(a.p95), a.n.toLocaleString("en-US")])}
          empty="Nothing was submitted in the last 24 hours."
        />
        <h3 className="mt-4 text-sm font-semibold">Page load by page</h3>
        <Table
          caption="Full page loads of every page, slowest p75 first, last 24 hours"
          head={["Page", "p50", "p75", "p95", "Loads"]}
          rows={data.pages.map((p) => [p.route, formatMs(p.p50), formatMs(p.p75), formatMs(p.p95), p.n.toLocaleString("en-US")])}
          empty="No page has reported a load in the last 24 hours."
        />
      </section>

      <section aria-labelledby="errors-heading" className={card}>
        <h2 id="errors-heading" className="text-lg font-semibold">
          Recent errors, last 24 hours
        </h2>
        <h3 className="mt-3 flex flex-wrap items-center gap-2 text-sm font-semibold">
          Server errors (5xx)
          {serverErrors > 0 ? (
            <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900 dark:bg-red-950 dark:text-red-200">{`${serverErrors.toLocaleString("en-US")} on ${data.errors.server.length} ${data.errors.server.length === 1 ? "route" : "routes"}`}</span>
          ) : null}
        </h3>
        <Table
          caption="Answers with a 5xx status by route, newest first, last 24 hours"
          head={["Route", "Status", "Count", "Last seen"]}
          rows={data.errors.server.map((e) => [e.route, e.status, e.n.toLocaleString("en-US"), formatDateTime(e.lastSeen, prefs)])}
          empty="No request was answered with a server error (5xx) in the last 24 hours."
        />
        <h3 className="mt-4 text-sm font-semibold">Client errors (4xx)</h3>
        {data.errors.client.total === 0 ? (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">No request was answered with a 4xx status in the last 24 hours.</p>
        ) : (
          <>
            <p className="text-sm text-stone-600 dark:text-stone-400">
              {`${data.errors.client.total.toLocaleString("en-US")} answers refused a request (a missing page, a sign-in needed, a bad form, a rate limit): by status, then the most frequent routes.`}
            </p>
            <Table
              caption="Answers with a 4xx status by status, last 24 hours"
              head={["Status", "Count", "Routes", "Last seen"]}
              rows={data.errors.client.byStatus.map((e) => [
                statusName(e.status),
                e.n.toLocaleString("en-US"),
                e.routes.toLocaleString("en-US"),
                formatDateTime(e.lastSeen, prefs),
              ])}
              empty=""
            />
            <Table
              caption="The routes answered with a 4xx status most often, last 24 hours"
              head={["Route", "Status", "Count", "Last seen"]}
              rows={data.errors.client.top.map((e) => [e.route, e.status, e.n.toLocaleString("en-US"), formatDateTime(e.lastSeen, prefs)])}
              empty=""
            />
          </>
        )}
      </section>

      <section aria-labelledby="probes-heading" className={card}>
        <h2 id="probes-heading" className="text-lg font-semibold">
          Probes
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {data.probes[0]
            ? `The scheduler's latest checks, ${formatDateTime(data.probes[0].at, prefs)}. The database, sessions and recorder are judged by the Slowest core probe threshold (${limits(w.probe_latency, (v) => formatMs(v))}).`
            : "The scheduler has not probed yet (it runs every 5 minutes)."}
        </p>
        <Table
          caption="Latest probe of each component"
          head={["Component", "State", "Time", "Reading"]}
          rows={data.probes.map((p) => [
            PROBE_LABELS[p.component] ?? p.component,
            probeState(p, w.probe_latency),
            formatMs(p.ms),
            [p.value === null ? null : String(Math.round(p.value * 10) / 10), p.detail].filter(Boolean).join(" · ") || "—",
          ])}
          empty=""
        />
      </section>

      <section aria-labelledby="runs-heading" className={card}>
        <h2 id="runs-heading" className="text-lg font-semibold">
          Scheduled jobs
        </h2>
        <p className="text-sm text-stone-600 dark:text-stone-400">{`Every job the scheduler runs every 5 minutes, with its latest run and its failures over the last ${FAILURE_DAYS} days.`}</p>
        <Table
          caption="Each scheduled job's latest run: when it started, how long it took, its outcome and result, and its recent failures"
          head={["Job", "Last run", "Took", "Outcome", "Result", `Failures, ${FAILURE_DAYS} days`]}
          rows={data.jobs.map((job) => [
            job.label,
            job.last ? formatDateTime(job.last.startedAt, prefs) : "Not run yet",
            job.last?.ms == null ? "—" : formatMs(job.last.ms),
            job.last ? (job.last.status === "ok" ? "OK" : "Failed") : "—",
            job.last?.detail ?? "—",
            job.failures === 0
              ? "None"
              : `${job.failures}, last ${formatDateTime(job.lastFailure!.at, prefs)}${job.lastFailure!.detail ? `: ${job.lastFailure!.detail}` : ""}`,
          ])}
          empty=""
          wrap={[4, 5]}
        />
      </section>

      <section aria-labelledby="alerts-heading" className={card}>
        <h2 id="alerts-heading" className="text-lg font-semibold">
          Alerts
        </h2>
        <Table
          caption="Open alerts and those of the last 7 days"
          head={["Reading", "Level", "Value", "Threshold", "Opened", "Resolved"]}
          rows={data.alerts.map((a) => [
            THRESHOLD_INFO[a.metricName as ThresholdMetric]?.label ?? a.metricName,
            a.level === "critical" ? "Critical" : "Warning",
            `${Math.round(a.reading * 10) / 10} ${THRESHOLD_INFO[a.metricName as ThresholdMetric]?.unit ?? ""}`.trim(),
            String(a.threshold),
            formatDateTime(a.openedAt, prefs),
            a.resolvedAt === null ? "Open" : formatDateTime(a.resolvedAt, prefs),
          ])}
          empty="No alerts in the last 7 days."
        />
      </section>
    </div>
  );
}
