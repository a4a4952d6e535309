import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { csvResponse } from "~/lib/csv-response";
import { toCsvRows } from "~/modules/contacts/csv";
import { csvRows } from "~/modules/reports/table";
import { requireTeamSeller } from "~/modules/team/guard.server";
import { leaderboardTable, loadLeaderboard } from "~/modules/team/leaderboard.server";

/** /team/leaderboard.csv?<period>: the leaderboard's rows and totals as the page shows them to this viewer (team members; 404 to others). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user, team } = await requireTeamSeller(request, context);
  const board = await loadLeaderboard(context, { userId: user.id, team }, new URL(request.url).searchParams);
  const { from, to } = board.period;
  return csvResponse(`\uFEFF${toCsvRows(csvRows(leaderboardTable(board)))}`, `porchlight-team-leaderboard-${from}-to-${to}.csv`);
}
