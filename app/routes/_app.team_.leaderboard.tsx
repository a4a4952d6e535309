import { Fragment } from "react";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { BarChart3, Download, Users } from "lucide-react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { formatCentsWhole, formatDay } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { formatMinutes } from "~/modules/reports/definitions";
import { PeriodPicker } from "~/modules/reports/components/PeriodPicker";
import { periodQuery } from "~/modules/reports/periods";
import { requireTeamSeller } from "~/modules/team/guard.server";
import { loadLeaderboard, type LeaderRow } from "~/modules/team/leaderboard.server";
import { seesWholeTeam } from "~/modules/team/visibility.server";

export const meta: MetaFunction = () => [{ title: "Team leaderboard — Porchlight" }];
export const headers = serverTimingHeaders;

// The team leaderboard (ADR 0034): every member's standings over a period. Team members only (404 for
// anyone else); agent net is each agent's own to see, and every member's for owners and admins.

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const { user, team } = await requireTeamSeller(request, context);
  const viewer = { userId: user.id, team };
  const board = await loadLeaderboard(context, viewer, new URL(request.url).searchParams);
  return data({ ...board, teamName: team.teamName, readsReports: seesWholeTeam(viewer) }, { headers: serverTiming("leaderboard", started) });
}

const PRIVATE = "Private";

export default function LeaderboardPage() {
  const board = useLoaderData<typeof loader>();
  const { prefs, period, rows } = board;
  const money = (row: LeaderRow, cents: number) => formatCentsWhole(cents, { currency: row.currency });
  const speed = (row: LeaderRow) => (row.medianResponseMinutes === null ? "None answered" : formatMinutes(row.medianResponseMinutes));
  const reportsOf = (row: LeaderRow) =>
    row.me
      ? `/reports?${periodQuery(period)}`
      : board.readsReports
        ? `/reports?${periodQuery(period)}&agent=${encodeURIComponent(row.userId)}`
        : null;
  const agentName = (row: LeaderRow) => {
    const to = reportsOf(row);
    const label = row.me ? `${row.name} (you)` : row.name;
    return to ? (
      <Link to={to} className="font-medium text-brand-700 underline underline-offset-4 dark:text-brand-400" aria-label={`${label}: reports`}>
        {label}
      </Link>
    ) : (
      <span className="font-medium">{label}</span>
    );
  };
  const net = (row: LeaderRow) =>
    row.netCents === null ? <span className="text-stone-600 dark:text-stone-400">{PRIVATE}</span> : money(row, row.netCents);
  const total = {
    label: board.total.label,
    money: (cents: number | null) => (cents === null ? PRIVATE : formatCentsWhole(cents, { currency: board.total.currency })),
  };
  const totalFigures = [
    ["Closed volume", total.money(board.total.closedVolumeCents)],
    ["Deals won", board.total.dealsWon],
    ["Agent net", total.money(board.total.netCents)],
    ["Speed to lead", board.total.medianResponseMinutes === null ? "None answered" : formatMinutes(board.total.medianResponseMinutes)],
    ["Activities", board.total.activities],
  ] as const;
  const empty = rows.every((row) => row.dealsWon === 0 && row.activities === 0 && row.answered === 0);

  return (
    <>
      <PageHeader
        title="Leaderboard"
        description={`${board.teamName} · ${period.label} · ${formatDay(period.from, prefs)} – ${formatDay(period.to, prefs)}`}
        actions={
          <div className="flex flex-wrap gap-2">
            <Link to="/team" className={buttonClass("secondary")}>
              <Users aria-hidden="true" className="h-5 w-5" />
              Members
            </Link>
            {board.readsReports ? (
              <Link to={`/team/reports?${periodQuery(period)}`} className={buttonClass("secondary")}>
                <BarChart3 aria-hidden="true" className="h-5 w-5" />
                Team reports
              </Link>
            ) : null}
            <a href={`/team/leaderboard.csv?${periodQuery(period)}`} download className={buttonClass("secondary")}>
              <Download aria-hidden="true" className="h-5 w-5" />
              Download CSV
            </a>
          </div>
        }
      />
      <PeriodPicker path="/team/leaderboard" period={period} />

      {empty ? (
        <p className="mb-4 rounded-xl border border-stone-200 bg-white p-3 text-sm dark:border-stone-800 dark:bg-stone-900">
          Nobody in the team closed a deal, answered a new contact or logged an activity in this period. Pick a longer period above.
        </p>
      ) : null}

      <ol aria-label="Standings" className="flex flex-col gap-3 md:hidden">
        {rows.map((row, index) => (
          <li key={row.userId} className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
            <p className="flex items-baseline gap-2">
              <span className="text-lg font-bold tabular-nums">{index + 1}.</span>
              {agentName(row)}
            </p>
            <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-stone-600 dark:text-stone-400">Closed volume</dt>
              <dd className="text-right tabular-nums">{money(row, row.closedVolumeCents)}</dd>
              <dt className="text-stone-600 dark:text-stone-400">Deals won</dt>
              <dd className="text-right tabular-nums">{row.dealsWon}</dd>
              <dt className="text-stone-600 dark:text-stone-400">Agent net</dt>
              <dd className="text-right tabular-nums">{net(row)}</dd>
              <dt className="text-stone-600 dark:text-stone-400">Speed to lead</dt>
              <dd className="text-right tabular-nums">{speed(row)}</dd>
              <dt className="text-stone-600 dark:text-stone-400">Activities</dt>
              <dd className="text-right tabular-nums">{row.activities}</dd>
            </dl>
          </li>
        ))}
      </ol>
      <section
        aria-label={total.label}
        className="mt-3 rounded-2xl border-2 border-stone-300 bg-white p-3 text-sm md:hidden dark:border-stone-700 dark:bg-stone-900"
      >
        <p className="font-semibold">{total.label}</p>
        <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1">
          {totalFigures.map(([label, value]) => (
            <Fragment key={label}>
              <dt className="text-stone-600 dark:text-stone-400">{label}</dt>
              <dd className="text-right tabular-nums">{value}</dd>
            </Fragment>
          ))}
        </dl>
      </section>

      <div className="hidden overflow-x-auto rounded-2xl border border-stone-200 bg-white md:block dark:border-stone-800 dark:bg-stone-900">
        <table className="w-full text-sm">
          <caption className="sr-only">{`Team standings, ${period.label}`}</caption>
          <thead>
            <tr className="border-b border-stone-200 text-left dark:border-stone-800">
              <th scope="col" className="p-3">
                Rank
              </th>
              <th scope="col" className="p-3">
                Agent
              </th>
              <th scope="col" className="p-3 text-right">
                Closed volume
              </th>
              <th scope="col" className="p-3 text-right">
                Deals won
              </th>
              <th scope="col" className="p-3 text-right">
                Agent net
              </th>
              <th scope="col" className="p-3 text-right">
                Speed to lead (median)
              </th>
              <th scope="col" className="p-3 text-right">
                Activities
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) => (
              <tr key={row.userId} className="border-b border-stone-100 last:border-0 dark:border-stone-800">
                <td className="p-3 tabular-nums">{index + 1}</td>
                <th scope="row" className="p-3 text-left font-normal">
                  {agentName(row)}
                </th>
                <td className="p-3 text-right tabular-nums">{money(row, row.closedVolumeCents)}</td>
                <td className="p-3 text-right tabular-nums">{row.dealsWon}</td>
                <td className="p-3 text-right tabular-nums">{net(row)}</td>
                <td className="p-3 text-right tabular-nums">{speed(row)}</td>
                <td className="p-3 text-right tabular-nums">{row.activities}</td>
              </tr>
            ))}
          </tbody>
          <tfoot className="border-t-2 border-stone-300 font-semibold dark:border-stone-700">
            <tr>
              <td className="p-3" />
              <th scope="row" className="p-3 text-left">
                {total.label}
              </th>
              {totalFigures.map(([label, value]) => (
                <td key={label} className="p-3 text-right tabular-nums">
                  {value}
                </td>
              ))}
            </tr>
          </tfoot>
        </table>
      </div>

      <section aria-labelledby="leaderboard-how" className="mt-4 text-sm text-stone-700 dark:text-stone-300">
        <h2 id="leaderboard-how" className="font-semibold text-stone-900 dark:text-stone-100">
          How the standings are counted
        </h2>
        <ul className="mt-1 list-disc pl-5">
          <li>
            Closed volume, deals won and agent net: deals each agent moved to Closed Won with a closed date in the period, priced by their own
            commission plan and cap, as on their Reports.
          </li>
          <li>
            Speed to lead: of the contacts each agent added in the period and answered, the median time from adding them to the first call, text,
            e-mail sent or meeting logged with them, as on Reports.
          </li>
          <li>
            Activities: everything each agent logged in the period (calls, e-mails, texts, showings, meetings, notes and the rest; stage changes are
            left out).
          </li>
          <li>
            {board.seesAllNet
              ? "As an owner or admin you see every member's agent net; agents see only their own."
              : "Agent net shows your split and cap, so each agent sees only their own; the team's owner and admins see everyone's."}
          </li>
        </ul>
      </section>
    </>
  );
}
