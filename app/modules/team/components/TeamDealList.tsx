import { useFetcher } from "@remix-run/react";
import { useState } from "react";
import { Button } from "~/components/ui/Button";
import type { DealStage } from "~/db/schema";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import type { DealMoveResult } from "~/modules/deals/deal.messages";
import { LOST_REASON_MAX } from "~/modules/deals/deal.schema";
import { ClosedDateField } from "~/modules/deals/components/ClosedDateField";
import { useSubmitClosingMove } from "~/modules/deals/components/MoveUndo";
import type { TeamCard } from "../pipeline.server";

// The team pipeline's list view: open deals of the agents in view, each with its own stage move.

/** The open deals, soonest close first, with how many are shown of how many. */
export function TeamDealList({
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
