import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Printer, Trophy } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { formatDay } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { PeriodPicker } from "~/modules/reports/components/PeriodPicker";
import { periodQuery } from "~/modules/reports/periods";
import { TeamReportTable } from "~/modules/team/components/TeamReportTable";
import { teamReportsFor } from "~/modules/team/team-reports.server";

export const meta: MetaFunction = () => [{ title: "Team reports — Porchlight" }];
export const headers = serverTimingHeaders;

// Team reports (ADR 0077): per agent and per lead source over a period, for the team's owner and admins (404 to agents,
// who have their own Reports, and to anyone outside the team). Each table's CSV is built by the same function.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const reports = await teamReportsFor(request, context);
  return data(reports, { headers: serverTiming("team-reports", started) });
}

export default function TeamReportsPage() {
  const r = useLoaderData<typeof loader>();
  const { prefs, period } = r;
  const query = periodQuery(period);
  return (
    <>
      <PageHeader
        title="Team reports"
        description={`${r.teamName} · ${period.label} · ${formatDay(period.from, prefs)} – ${formatDay(period.to, prefs)}`}
        actions={
          <div className="flex flex-wrap gap-2 print:hidden">
            <button type="button" onClick={() => window.print()} className={buttonClass("secondary")}>
              <Printer aria-hidden="true" className="h-5 w-5" />
              Print
            </button>
            <Link to={`/team/leaderboard?${query}`} className={buttonClass("secondary")}>
              <Trophy aria-hidden="true" className="h-5 w-5" />
              Leaderboard
            </Link>
          </div>
        }
      />
      <PeriodPicker path="/team/reports" period={period} />

      {r.leftOut.length > 0 ? (
        <p className="mb-4 rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-700 dark:bg-amber-950">
          {`Totals of amounts are in ${prefs.currency}, your currency, and leave out ${r.leftOut.length === 1 ? "1 member" : `${r.leftOut.length} members`} who work in another: ${r.leftOut
            .map((m) => `${m.name} (${m.currency})`)
            .join(", ")}. Their own rows show their amounts in their currency.`}
        </p>
      ) : null}

      <div className="flex flex-col gap-4">
        <section
          aria-labelledby="agents-heading"
          className="report-section rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
        >
          <h2 id="agents-heading" className="mb-3 text-lg font-semibold">
            Per agent
          </h2>
          <TeamReportTable table={r.agents} csvHref={`/team/reports/agents.csv?${query}`} />
        </section>
        <section
          aria-labelledby="sources-heading"
          className="report-section rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900"
        >
          <h2 id="sources-heading" className="mb-3 text-lg font-semibold">
            Per lead source
          </h2>
          {r.sources.rows.length === 0 ? (
            <p className="text-sm">No new lead arrived for anyone in the team in this period. Pick a longer period above.</p>
          ) : (
            <TeamReportTable table={r.sources} csvHref={`/team/reports/sources.csv?${query}`} />
          )}
        </section>
      </div>

      <section aria-labelledby="team-reports-how" className="mt-4 text-sm text-stone-700 dark:text-stone-300">
        <h2 id="team-reports-how" className="font-semibold text-stone-900 dark:text-stone-100">
          How it is counted
        </h2>
        <ul className="mt-1 list-disc pl-5">
          <li>
            Leads, answered and speed to lead: the new leads that arrived in the period, each counted for the agent who holds it, as on each agent's
            Reports. The median is the middle time to the first call, text, e-mail sent or meeting of the answered leads; within 5 minutes is a share
            of every new lead. A total's median is taken over every lead of the team, not from the agents' medians.
          </li>
          <li>Activities: what each agent logged in the period, by kind; stage changes and other entries Porchlight writes are left out.</li>
          <li>
            Entered won and entered lost: deals that entered a won or a lost stage of the agent's own pipeline in the period, as Reports' pipeline
            conversion counts them; win rate is won ÷ (won + lost).
          </li>
          <li>
            Deals closed, closed volume and agent net: deals each agent moved to a won stage with a closed date in the period, priced by their own
            plan and cap, as on the leaderboard and their Reports. Amounts are in each agent's currency.
          </li>
          <li>
            Per lead source, deals won: of the new leads of the period, the deals now in a won stage of their agent's pipeline, whenever they closed;
            their volume adds up those deals' sale prices, only for agents in your currency.
          </li>
        </ul>
      </section>
    </>
  );
}
