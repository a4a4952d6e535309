import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/components/PageHeader";
import { buttonClass } from "~/components/ui/Button";
import { readForm } from "~/lib/body.server";
import { dispatchIntent } from "~/lib/intents.server";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import { KanbanBoard } from "~/modules/pipeline/components/KanbanBoard";
import { ViewSwitch, type PipelineView } from "~/modules/pipeline/components/ViewSwitch";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { loadBoard } from "~/modules/pipeline/board.server";
import { requireTeamSeller } from "~/modules/team/guard.server";
import { moveTeamDeal, sharedTeamCards, teamDealList } from "~/modules/team/pipeline.server";
import { loadTeamBoard } from "~/modules/team/team-board.server";
import { localNow } from "~/modules/tasks/due";
import { TeamDealList } from "~/modules/team/components/TeamDealList";
import { agentInView, seesWholeTeam, visibleMembers } from "~/modules/team/visibility.server";

export const meta: MetaFunction = () => [{ title: "Team pipeline — Porchlight" }];
export const handle = { wide: true };
export const headers = serverTimingHeaders;

// The team pipeline (ADR 0034): one agent's board, or the open deals of everyone the viewer may see as a
// list, with an agent filter. Owners and admins see and move every member's deals; agents their own. Team members
// only (404 for anyone else).

const EVERYONE = "all";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const started = Date.now();
  const { user, team } = await requireTeamSeller(request, context);
  const viewer = { userId: user.id, team };
  const params = new URL(request.url).searchParams;
  const view: PipelineView = params.get("view") === "list" ? "list" : "board";
  const asked = params.get("agent");
  const [members, prefs] = await Promise.all([visibleMembers(context, viewer), getDisplayPreferences(context, user.id)]);
  const picker = members.map((m) => ({ id: m.userId, name: m.userId === user.id ? `${m.name} (you)` : m.name }));
  const base = { me: user.id, teamName: team.teamName, wholeTeam: seesWholeTeam(viewer), members: picker, prefs };
  if (view === "list") {
    const everyone = !asked || asked === EVERYONE;
    const one = everyone ? null : (await agentInView(context, viewer, asked)).agentId;
    const agents = everyone ? members : members.filter((m) => m.userId === one);
    const [own, shared] = await Promise.all([
      teamDealList(context, agents),
      // An agent's list adds the deals teammates share with them (owners and admins see those under their agent).
      !seesWholeTeam(viewer) ? sharedTeamCards(context, user.id) : Promise.resolve({ cards: [], stages: {} }),
    ]);
    const list = { cards: [...own.cards, ...shared.cards], total: own.total + shared.cards.length, stages: { ...own.stages, ...shared.stages } };
    return data({ ...base, view, agent: one ?? EVERYONE, list, board: null, teamBoard: null }, { headers: serverTiming("team-pipeline", started) });
  }
  if (!asked || asked === EVERYONE) {
    // The team board (ADR 0076): everyone the viewer may see, in the team's stages.
    const teamBoard = await loadTeamBoard(context, viewer, members, params.get("expand"));
    return data(
      { ...base, view, agent: EVERYONE, list: null, board: null, teamBoard: { ...teamBoard, today: localNow(prefs.timezone).date } },
      { headers: serverTiming("team-pipeline", started) },
    );
  }
  const scope = await agentInView(context, viewer, asked);
  const board = await loadBoard(context, scope.agentId, { cards: true, expand: params.get("expand") });
  return data(
    {
      ...base,
      view,
      agent: scope.agentId as string,
      list: null,
      teamBoard: null,
      board: {
        stages: board.commissions.stages,
        totals: board.totals,
        cards: board.cards,
        prefs: board.prefs,
        today: board.today,
        self: scope.self,
        empty: board.empty,
      },
    },
    { headers: serverTiming("team-pipeline", started) },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, team } = await requireTeamSeller(request, context);
  const form = await readForm(request);
  return dispatchIntent(form, { move: () => moveTeamDeal(context, { userId: user.id, team }, form) });
}

export default function TeamPipelinePage() {
  const loaded = useLoaderData<typeof loader>();
  const agentName = loaded.members.find((m) => m.id === loaded.agent)?.name;
  const viewHref = (view: "board" | "list") => `?${new URLSearchParams({ view, agent: loaded.agent }).toString()}`;
  return (
    <>
      <PageHeader
        title="Team pipeline"
        description={
          loaded.wholeTeam
            ? `${loaded.teamName}: every member's deals, on one board in the team's stages or on each agent's own.`
            : `${loaded.teamName}: your deals and those shared with you. The team's owner and admins see everyone's.`
        }
      />
      <div className="mb-4 flex flex-wrap items-end gap-2">
        <ViewSwitch view={loaded.view} href={viewHref} />
        {loaded.members.length > 1 ? (
          <Form method="get" aria-label="Whose deals" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="view" value={loaded.view} />
            <label className="flex flex-col text-sm font-medium">
              Agent
              <select
                name="agent"
                defaultValue={loaded.agent}
                className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
              >
                <option value={EVERYONE}>Everyone</option>
                {loaded.members.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className={buttonClass("secondary")}>
              Show deals
            </button>
          </Form>
        ) : null}
      </div>

      {loaded.teamBoard ? (
        <>
          <h2 className="mb-2 text-lg font-semibold">{loaded.wholeTeam ? "The team's board" : "Your deals and those shared with you"}</h2>
          <p className="mb-3 text-sm text-stone-600 dark:text-stone-400">
            In the team's stages. A card in a stage of its agent's own says which.
            {loaded.teamBoard.otherCurrency > 0
              ? ` Totals leave out ${loaded.teamBoard.otherCurrency} ${loaded.teamBoard.otherCurrency === 1 ? "deal" : "deals"} in another currency.`
              : ""}
          </p>
          {loaded.teamBoard.empty ? (
            <p className="mb-4 rounded-xl border border-stone-200 bg-white p-3 text-sm dark:border-stone-800 dark:bg-stone-900">
              No deals on the team yet.
            </p>
          ) : null}
          <KanbanBoard
            key={EVERYONE}
            stages={loaded.teamBoard.stages}
            cards={loaded.teamBoard.cards}
            totals={loaded.teamBoard.totals}
            prefs={loaded.teamBoard.prefs}
            today={loaded.teamBoard.today}
            target={{ action: "/team/pipeline", linkDeals: false, net: false, me: loaded.me, query: `agent=${EVERYONE}&` }}
          />
        </>
      ) : loaded.board ? (
        <>
          <h2 className="mb-2 text-lg font-semibold">{loaded.board.self ? "Your board" : `${agentName}'s board`}</h2>
          {loaded.board.empty ? (
            <p className="mb-4 rounded-xl border border-stone-200 bg-white p-3 text-sm dark:border-stone-800 dark:bg-stone-900">
              {loaded.board.self ? "You have no deals yet. Add one on your Pipeline." : `${agentName} has no deals yet.`}
            </p>
          ) : null}
          <KanbanBoard
            key={loaded.agent}
            stages={loaded.board.stages}
            cards={loaded.board.cards}
            totals={loaded.board.totals}
            prefs={loaded.board.prefs}
            today={loaded.board.today}
            target={{
              action: "/team/pipeline",
              fields: { agent: loaded.agent },
              linkDeals: loaded.board.self,
              query: `agent=${encodeURIComponent(loaded.agent)}&`,
            }}
          />
        </>
      ) : loaded.list ? (
        <TeamDealList list={loaded.list} prefs={loaded.prefs} />
      ) : null}
    </>
  );
}
