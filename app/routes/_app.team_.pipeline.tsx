import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useFetcher, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { PageHeader } from "~/components/PageHeader";
import { Button, buttonClass } from "~/components/ui/Button";
import type { DealStage } from "~/db/schema";
import { readForm } from "~/lib/body.server";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { serverTiming, serverTimingHeaders } from "~/lib/server-timing";
import type { DealMoveResult } from "~/modules/deals/deal.messages";
import { LOST_REASON_MAX } from "~/modules/deals/deal.schema";
import { ClosedDateField } from "~/modules/deals/components/ClosedDateField";
import { useSubmitClosingMove } from "~/modules/deals/components/MoveUndo";
import { KanbanBoard } from "~/modules/pipeline/components/KanbanBoard";
import { ViewSwitch, type PipelineView } from "~/modules/pipeline/components/ViewSwitch";
import { getDisplayPreferences } from "~/modules/settings/preferences.server";
import { loadBoard } from "~/modules/pipeline/board.server";
import { requireTeamMember } from "~/modules/team/guard.server";
import { moveTeamDeal, sharedTeamCards, teamDealList, type TeamCard } from "~/modules/team/pipeline.server";
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
  const { user, team } = await requireTeamMember(request, context);
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
    return data({ ...base, view, agent: one ?? EVERYONE, list, board: null }, { headers: serverTiming("team-pipeline", started) });
  }
  const scope = await agentInView(context, viewer, asked === EVERYONE ? null : asked);
  const board = await loadBoard(context, scope.agentId, { cards: true, expand: params.get("expand") });
  return data(
    {
      ...base,
      view,
      agent: scope.agentId as string,
      list: null,
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
  const { user, team } = await requireTeamMember(request, context);
  const form = await readForm(request);
  if (form.get("intent") !== "move") return data({ ok: false, error: "Unknown action." }, { status: 400 });
  return moveTeamDeal(context, { userId: user.id, team }, form);
}

export default function TeamPipelinePage() {
  const loaded = useLoaderData<typeof loader>();
  const agentName = loaded.members.find((m) => m.id === loaded.agent)?.name;
  const viewHref = (view: "board" | "list") =>
    `?${new URLSearchParams({ view, agent: view === "board" && loaded.agent === EVERYONE ? loaded.me : loaded.agent }).toString()}`;
  return (
    <>
      <PageHeader
        title="Team pipeline"
        description={
          loaded.wholeTeam
            ? `${loaded.teamName}: every member's deals, in each agent's own stages.`
            : `${loaded.teamName}: your deals. The team's owner and admins see everyone's.`
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
                {loaded.view === "list" ? <option value={EVERYONE}>Everyone</option> : null}
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

      {loaded.board ? (
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

function TeamDealList({
  list,
  prefs,
}: {
  list: { cards: TeamCard[]; total: number; stages: Record<string, DealStage[]> };
  prefs: DisplayPreferences;
}) {
  if (list.cards.length === 0)
    return <p className="rounded-xl border border-stone-200 bg-white p-3 text-sm dark:border-stone-800 dark:bg-stone-900">No open deals.</p>;
  return (
    <>
      <p className="mb-2 text-sm text-stone-700 dark:text-stone-300">
        {list.total > list.cards.length
          ? `The first ${list.cards.length} of ${list.total} open deals, soonest close first.`
          : `${list.total === 1 ? "1 open deal" : `${list.total} open deals`}, soonest close first.`}
      </p>
      <ul aria-label="Open deals" className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
        {list.cards.map((card) => (
          <TeamDealItem key={card.id} card={card} stages={list.stages[card.agentId] ?? []} prefs={prefs} />
        ))}
      </ul>
    </>
  );
}

function TeamDealItem({ card, stages, prefs }: { card: TeamCard; stages: DealStage[]; prefs: DisplayPreferences }) {
  const money = { ...prefs, currency: card.currency };
  const mover = useFetcher<DealMoveResult>();
  const lostKeys = stages.filter((s) => s.kind === "lost").map((s) => s.key);
  const fieldId = `move-${card.id}`;
  const [choice, setChoice] = useState(card.stage);
  const chosen = stages.find((s) => s.key === choice);
  const submitClosing = useSubmitClosingMove();
  const stageName = (key: string) => stages.find((s) => s.key === key)?.name ?? key;
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-3 dark:border-stone-800 dark:bg-stone-900">
      <h3 className="break-words font-semibold">{card.title}</h3>
      <p className="text-sm text-stone-600 dark:text-stone-400">{[card.agentName, card.contactName].filter(Boolean).join(" · ")}</p>
      <dl className="mt-2 grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
        <dt className="text-stone-600 dark:text-stone-400">Stage</dt>
        <dd className="text-right">{card.stageName}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Value</dt>
        <dd className="text-right tabular-nums">{formatCentsWhole(card.dealValueCents, money)}</dd>
        <dt className="text-stone-600 dark:text-stone-400">Expected close</dt>
        <dd className="text-right">{card.expectedCloseDate ? formatDay(card.expectedCloseDate, prefs) : "No date"}</dd>
        <dt className="text-stone-600 dark:text-stone-400">{card.sharePct === undefined ? "Agent net" : `Your net (${card.sharePct}% share)`}</dt>
        <dd className="text-right tabular-nums">{card.netCents === null ? "None" : formatCents(card.netCents, money)}</dd>
      </dl>
      <mover.Form
        method="post"
        action="/team/pipeline"
        className="mt-3 flex flex-wrap items-end gap-2"
        onSubmit={(event) => {
          // A move into a closed stage goes from the layout, whose toast says the day and offers Undo: the deal leaves
          // this list of open deals once it is saved.
          if (!chosen || chosen.kind === "open") return;
          event.preventDefault();
          const fields = Object.fromEntries([...new FormData(event.currentTarget)].map(([key, value]) => [key, String(value)]));
          submitClosing(fields, {
            dealId: card.id,
            title: card.title,
            toStage: chosen.key,
            toName: chosen.name,
            stageName,
            action: "/team/pipeline",
            fields: { agent: card.agentId },
            prefs,
          });
        }}
      >
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="agent" value={card.agentId} />
        <input type="hidden" name="id" value={card.id} />
        <label htmlFor={fieldId} className="flex flex-col text-sm font-medium">
          Move to
          <select
            id={fieldId}
            name="stage"
            value={choice}
            onChange={(event) => setChoice(event.target.value)}
            className="mt-1 min-h-12 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            {stages.map((s) => (
              <option key={s.key} value={s.key}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        {chosen && chosen.kind !== "open" && choice !== card.stage ? (
          <div className="w-full">
            <ClosedDateField id={`closed-${card.id}`} today={card.today} />
          </div>
        ) : null}
        {lostKeys.includes(choice) ? (
          <label className="flex flex-col text-sm font-medium">
            Reason (optional)
            <input
              name="lostReason"
              maxLength={LOST_REASON_MAX}
              className="mt-1 min-h-12 w-40 rounded-lg border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
            />
          </label>
        ) : null}
        <Button type="submit" variant="secondary" disabled={mover.state !== "idle"} aria-label={`Move ${card.title}`}>
          Move
        </Button>
      </mover.Form>
      {mover.data && !mover.data.ok ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">
          {mover.data.error}
        </p>
      ) : null}
    </li>
  );
}
