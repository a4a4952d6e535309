import {
  closestCorners,
  DndContext,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type KeyboardCoordinateGetter,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { Link, useFetcher } from "@remix-run/react";
import { createContext, useContext, useEffect, useMemo, useRef, useState } from "react";
import { Button } from "~/components/ui/Button";
import { Field } from "~/components/ui/Field";
import { Modal } from "~/components/ui/Modal";
import { toast } from "~/components/ui/Toaster";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import type { DealStage } from "~/db/schema";
import { formatCents, formatCentsWhole, formatDay, type DisplayPreferences } from "~/lib/format";
import { DEAL_MESSAGES, type DealMoveResult } from "~/modules/deals/deal.messages";
import { ClosedDateField } from "~/modules/deals/components/ClosedDateField";
import { useAnnounceClosedMove } from "~/modules/deals/components/MoveUndo";
import { PIPELINE_ACTION, type BoardCard, type ColumnTotals } from "../board";

type Columns = Record<string, string[]>;
/** A move into a closed stage waiting for its answer: what the toast's Undo needs. */
type PendingClose = { id: string; to: string; from: string; afterId: string | null; beforeId: string | null };

const columnId = (key: string) => `column:${key}`;
const columnHeadingId = (key: string) => `stage-${key}`;

// The two icons every card repeats, defined once per board and referenced by <use>: a board of 140 cards
// then renders 140 short references instead of 140 copies of each icon's circles (server render time).
const ICON_PATHS = { grip: [9, 15].flatMap((cx) => [5, 12, 19].map((cy) => ({ cx, cy }))), more: [5, 12, 19].map((cx) => ({ cx, cy: 12 })) };
function IconSprite() {
  return (
    <svg aria-hidden="true" className="hidden">
      {Object.entries(ICON_PATHS).map(([id, circles]) => (
        <symbol
          key={id}
          id={`board-${id}`}
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          {circles.map(({ cx, cy }) => (
            <circle key={`${cx}-${cy}`} cx={cx} cy={cy} r="1" />
          ))}
        </symbol>
      ))}
    </svg>
  );
}
const BoardIcon = ({ name }: { name: keyof typeof ICON_PATHS }) => (
  <svg aria-hidden="true" className="h-5 w-5">
    <use href={`#board-${name}`} />
  </svg>
);
const groupCards = (stages: DealStage[], cards: BoardCard[]): Columns =>
  Object.fromEntries(stages.map((s) => [s.key, cards.filter((c) => c.stage === s.key).map((c) => c.id)]));

/**
 * Where a board posts its moves and what its cards link to. The agent's own pipeline is the default; the team pipeline
 * posts to /team/pipeline with the agent whose board it is, and links a deal only when it is the viewer's.
 */
export interface BoardTarget {
  action: string;
  /** Sent with every move (the team pipeline's agent). */
  fields?: Record<string, string>;
  /** Whether a card opens its deal page (the deal pages are the agent's own). */
  linkDeals: boolean;
  /** Query kept by "Show all" links, ending in "&" when not empty. */
  query?: string;
  /** Whether cards show the agent's net (the team board shows whose deal it is instead). */
  net?: boolean;
  /** On the team board: the viewer, whose own cards link to their deal pages. */
  me?: string;
}
const OWN_BOARD: BoardTarget = { action: PIPELINE_ACTION, linkDeals: true };
/** Whether a card opens its deal page: every card on the agent's own board, the viewer's own on the team board. */
const opensDeal = (target: BoardTarget, card: BoardCard | null) => target.linkDeals || (target.me !== undefined && card?.agentId === target.me);
const Target = createContext<BoardTarget>(OWN_BOARD);

/**
 * The pipeline board: a column per stage; cards move by mouse, touch (press and hold) or keyboard
 * (Space on a card's handle, arrows, Space to drop), or from a card's menu. Moves show at once and roll
 * back if the server refuses; moving to a closed stage first asks the day it closed (`today`, the agent's, unless
 * changed) and, for a lost stage, why; once saved, its toast offers Undo.
 */
export function KanbanBoard({
  stages,
  cards,
  totals,
  prefs,
  today,
  target = OWN_BOARD,
}: {
  stages: DealStage[];
  cards: BoardCard[];
  totals: Record<string, ColumnTotals>;
  prefs: DisplayPreferences;
  today: string;
  target?: BoardTarget;
}) {
  const byId = useMemo(() => new Map(cards.map((c) => [c.id, c])), [cards]);
  const [columns, setColumns] = useState<Columns>(() => groupCards(stages, cards));
  const [activeId, setActiveId] = useState<string | null>(null);
  const [menuFor, setMenuFor] = useState<BoardCard | null>(null);
  const [askClose, setAskClose] = useState<{ id: string; stage: string } | null>(null);
  const snapshot = useRef<Columns | null>(null);
  const origin = useRef<string | null>(null);
  const pendingClose = useRef<PendingClose | null>(null);
  const mover = useFetcher<DealMoveResult>();
  const announceClosed = useAnnounceClosedMove();
  const stageName = (key: string) => stages.find((s) => s.key === key)?.name ?? key;

  // New data from the server (after any save) is the truth.
  useEffect(() => setColumns(groupCards(stages, cards)), [stages, cards]);

  // A phone shows one column at a time: the board opens on the first stage that has deals, not on an empty one.
  const board = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const list = board.current;
    const first = stages.find((s) => (totals[s.key]?.count ?? 0) > 0);
    if (!list || !first || first.key === stages[0]?.key) return;
    const column = list.querySelector<HTMLElement>(`[aria-labelledby="${columnHeadingId(first.key)}"]`);
    if (column) list.scrollLeft = column.offsetLeft - Number.parseFloat(getComputedStyle(list).paddingLeft || "0");
    // Only as the board opens: later moves and "Show all" leave the agent's scroll alone.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs once, on mount, with the stages and totals it opened with
  }, []);

  // A refused move puts the board back as it was before the drag; a close that was saved says so, with Undo.
  useFetcherResult(mover, (result) => {
    const closing = pendingClose.current;
    pendingClose.current = null;
    if (!result.ok) {
      if (snapshot.current) setColumns(snapshot.current);
      toast({ title: DEAL_MESSAGES.moveFailed, description: result.error, variant: "destructive" });
    } else if (closing && result.from && result.closedDate) {
      announceClosed({
        dealId: closing.id,
        title: byId.get(closing.id)?.title ?? "The deal",
        toStage: closing.to,
        toName: stageName(closing.to),
        closedDate: result.closedDate,
        from: result.from,
        fromName: stageName(result.from.stage),
        action: target.action,
        fields: target.fields,
        afterId: closing.afterId,
        beforeId: closing.beforeId,
        prefs,
      });
    }
    snapshot.current = null;
  });

  const columnOf = (id: string, cols: Columns = columns) =>
    id.startsWith("column:") ? id.slice(7) : Object.keys(cols).find((key) => cols[key]!.includes(id));
  const latest = useRef({ columns, stages });
  latest.current = { columns, stages };

  // Up and down move within a column (dnd-kit's sortable keys). Left and right go to the next stage's column,
  // empty or not: the default looks for the nearest card, which skips empty stages.
  const coordinateGetter: KeyboardCoordinateGetter = (event, args) => {
    if (event.code !== "ArrowRight" && event.code !== "ArrowLeft") return sortableKeyboardCoordinates(event, args);
    event.preventDefault();
    const { active, over, droppableRects, collisionRect } = args.context;
    if (!active || !collisionRect) return undefined;
    const keys = latest.current.stages.map((s) => s.key);
    const current = columnOf(String(over?.id ?? active.id), latest.current.columns);
    const target = current ? keys[keys.indexOf(current) + (event.code === "ArrowRight" ? 1 : -1)] : undefined;
    const rect = target ? droppableRects.get(columnId(target)) : undefined;
    return rect ? { x: rect.left + (rect.width - collisionRect.width) / 2, y: rect.top } : undefined;
  };
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 200, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter }),
  );

  function submitMove(id: string, stage: string, cols: Columns, close: { lostReason?: string; closedDate: string } | null = null) {
    const list = cols[stage]!;
    const index = list.indexOf(id);
    if (close && origin.current && snapshot.current) {
      // Where it sat before the move, for the toast's Undo.
      const before = snapshot.current[origin.current] ?? [];
      const at = before.indexOf(id);
      pendingClose.current = { id, to: stage, from: origin.current, afterId: before[at - 1] ?? null, beforeId: before[at + 1] ?? null };
    }
    const agentId = byId.get(id)?.agentId;
    mover.submit(
      {
        ...target.fields,
        ...(agentId ? { agent: agentId } : {}),
        intent: "move",
        id,
        stage,
        afterId: list[index - 1] ?? "",
        beforeId: list[index + 1] ?? "",
        lostReason: close?.lostReason ?? "",
        closedDate: close?.closedDate ?? "",
      },
      { method: "post", action: target.action },
    );
  }

  /** After the drop (or a menu choice): into a closed stage, ask the day it closed (and why, if lost), else save. */
  function settle(id: string, stage: string, cols: Columns) {
    const closed = stages.find((s) => s.key === stage)?.kind !== "open";
    if (closed && origin.current !== stage) {
      setAskClose({ id, stage });
      return;
    }
    submitMove(id, stage, cols);
  }

  function onDragStart({ active }: DragStartEvent) {
    setActiveId(String(active.id));
    snapshot.current = columns;
    origin.current = columnOf(String(active.id)) ?? null;
  }

  function onDragOver({ active, over }: DragOverEvent) {
    if (!over) return;
    const from = columnOf(String(active.id));
    const to = columnOf(String(over.id));
    if (!from || !to || from === to) return;
    setColumns((cols) => {
      const target = cols[to]!;
      const overIndex = target.indexOf(String(over.id));
      const index = overIndex >= 0 ? overIndex : target.length;
      return {
        ...cols,
        [from]: cols[from]!.filter((x) => x !== active.id),
        [to]: [...target.slice(0, index), String(active.id), ...target.slice(index)],
      };
    });
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    setActiveId(null);
    const id = String(active.id);
    const to = over ? columnOf(String(over.id)) : undefined;
    if (!to) {
      if (snapshot.current) setColumns(snapshot.current);
      return;
    }
    let next = columns;
    const list = columns[to]!;
    const from = list.indexOf(id);
    const overIndex = list.indexOf(String(over!.id));
    if (from >= 0 && overIndex >= 0 && from !== overIndex) next = { ...columns, [to]: arrayMove(list, from, overIndex) };
    const before = snapshot.current;
    if (before && origin.current === to && JSON.stringify(before[to]) === JSON.stringify(next[to])) return; // dropped where it was
    setColumns(next);
    settle(id, to, next);
  }

  function moveFromMenu(id: string, stage: string) {
    const from = columnOf(id);
    if (!from || from === stage) return;
    snapshot.current = columns;
    origin.current = from;
    const next = { ...columns, [from]: columns[from]!.filter((x) => x !== id), [stage]: [...columns[stage]!, id] };
    setColumns(next);
    settle(id, stage, next);
  }

  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${byId.get(String(active.id))?.title ?? "deal"} in ${stageName(columnOf(String(active.id)) ?? "")}.`,
    onDragOver: ({ active, over }) => {
      const to = over ? columnOf(String(over.id)) : undefined;
      if (!to) return `${byId.get(String(active.id))?.title ?? "Deal"} is not over a stage.`;
      // Within a column the order only changes on drop, so the place is where the card is over.
      const list = columns[to] ?? [];
      const at = list.indexOf(String(over!.id));
      return `${byId.get(String(active.id))?.title ?? "Deal"} is in ${stageName(to)}, position ${at >= 0 ? at + 1 : Math.max(1, list.length)} of ${Math.max(1, list.length)}.`;
    },
    onDragEnd: ({ active, over }) => {
      const to = over ? columnOf(String(over.id)) : undefined;
      return to ? `${byId.get(String(active.id))?.title ?? "Deal"} dropped in ${stageName(to)}.` : "Move cancelled.";
    },
    onDragCancel: ({ active }) => `Move of ${byId.get(String(active.id))?.title ?? "the deal"} cancelled. It is back where it was.`,
  };

  const active = activeId ? byId.get(activeId) : undefined;
  return (
    <Target.Provider value={target}>
      <DndContext
        id="pipeline-board"
        sensors={sensors}
        collisionDetection={closestCorners}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={() => {
          setActiveId(null);
          if (snapshot.current) setColumns(snapshot.current);
        }}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              "To move a deal, press Space or Enter on its handle, use the arrow keys to change its place or stage, then press Space or Enter to drop it, or Escape to cancel.",
          },
        }}
      >
        <IconSprite />
        <ul
          ref={board}
          className="relative -mx-4 flex snap-x snap-mandatory gap-3 overflow-x-auto px-4 pb-4 md:snap-none"
          aria-label="Pipeline stages"
        >
          {stages.map((stage) => (
            <Column
              key={stage.key}
              stage={stage}
              ids={columns[stage.key] ?? []}
              byId={byId}
              totals={totals[stage.key]}
              prefs={prefs}
              onMenuOpen={setMenuFor}
            />
          ))}
        </ul>
        <DragOverlay>{active ? <CardBody card={active} prefs={prefs} dragging /> : null}</DragOverlay>
      </DndContext>
      <MoveDialog
        card={menuFor}
        currentStage={menuFor ? columnOf(menuFor.id) : undefined}
        stages={stages}
        onClose={() => setMenuFor(null)}
        onMove={(id, stage) => {
          moveFromMenu(id, stage);
          // The card is now in another column: keyboard users carry on from its menu button there.
          requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-deal="${id}"] [aria-haspopup="dialog"]`)?.focus());
        }}
      />
      <CloseDialog
        open={askClose !== null}
        title={askClose ? (byId.get(askClose.id)?.title ?? "") : ""}
        stage={askClose ? stages.find((s) => s.key === askClose.stage) : undefined}
        today={today}
        onCancel={() => {
          if (snapshot.current) setColumns(snapshot.current);
          setAskClose(null);
        }}
        onConfirm={(close) => {
          if (askClose) submitMove(askClose.id, askClose.stage, columns, close);
          setAskClose(null);
        }}
      />
    </Target.Provider>
  );
}

function Column({
  stage,
  ids,
  byId,
  totals,
  prefs,
  onMenuOpen,
}: {
  stage: DealStage;
  ids: string[];
  byId: Map<string, BoardCard>;
  totals: ColumnTotals | undefined;
  prefs: DisplayPreferences;
  onMenuOpen: (card: BoardCard) => void;
}) {
  const { setNodeRef, isOver } = useDroppable({ id: columnId(stage.key) });
  const { query = "" } = useContext(Target);
  const shown = ids.filter((id) => byId.has(id));
  const count = totals?.count ?? 0;
  const headingId = columnHeadingId(stage.key);
  return (
    <li aria-labelledby={headingId} className="flex w-[17.5rem] shrink-0 snap-start flex-col rounded-2xl bg-stone-100 dark:bg-stone-900">
      <header className="rounded-t-2xl border-t-4 px-3 pb-2 pt-2" style={{ borderTopColor: stage.color }}>
        <h2 id={headingId} className="flex items-center justify-between gap-2 font-semibold">
          <span>{stage.name}</span>
          <span className="rounded-full bg-white px-2 text-sm dark:bg-stone-800" aria-label={`${count} ${count === 1 ? "deal" : "deals"}`}>
            {count}
          </span>
        </h2>
        <p className="text-sm text-stone-700 dark:text-stone-300">
          {formatCentsWhole(totals?.valueCents ?? 0, prefs)}{" "}
          <span className="text-stone-600 dark:text-stone-400">· weighted {formatCentsWhole(totals?.weightedCents ?? 0, prefs)}</span>
        </p>
      </header>
      <SortableContext id={stage.key} items={shown} strategy={verticalListSortingStrategy}>
        <ol
          ref={setNodeRef}
          aria-label={`${stage.name} deals`}
          className={`flex min-h-24 flex-1 flex-col gap-2 p-2 ${isOver ? "rounded-b-2xl bg-brand-50 dark:bg-brand-900/30" : ""}`}
        >
          {shown.map((id) => (
            <SortableCard key={id} card={byId.get(id)!} prefs={prefs} onMenuOpen={onMenuOpen} />
          ))}
          {shown.length === 0 ? <li className="px-2 py-4 text-center text-sm text-stone-600 dark:text-stone-400">No deals here</li> : null}
        </ol>
      </SortableContext>
      {count > shown.length ? (
        <Link
          to={`?${query}expand=${encodeURIComponent(stage.key)}`}
          preventScrollReset
          className="mx-2 mb-2 rounded-lg px-2 py-2 text-center text-sm font-medium underline underline-offset-4"
        >
          Show all {count} in {stage.name}
        </Link>
      ) : null}
    </li>
  );
}

function SortableCard({ card, prefs, onMenuOpen }: { card: BoardCard; prefs: DisplayPreferences; onMenuOpen: (card: BoardCard) => void }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: card.id });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? "opacity-40" : undefined}
      data-deal={card.id}
    >
      <CardBody
        card={card}
        prefs={prefs}
        handle={
          <button
            type="button"
            ref={setActivatorNodeRef}
            {...attributes}
            {...listeners}
            aria-label={`Move ${card.title}`}
            className="inline-flex h-11 w-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-stone-500 hover:bg-stone-100 active:cursor-grabbing dark:hover:bg-stone-800"
          >
            <BoardIcon name="grip" />
          </button>
        }
        menu={<CardMenu card={card} onOpen={onMenuOpen} />}
      />
    </li>
  );
}

/** An open deal's expected close; a closed deal's actual close (the day it was won or lost). */
function closeLabel(card: BoardCard, prefs: DisplayPreferences): string {
  if (card.closedDate) return `Closed ${formatDay(card.closedDate, prefs)}`;
  return card.expectedCloseDate ? `Closes ${formatDay(card.expectedCloseDate, prefs)}` : "No close date";
}

function CardBody({
  card,
  prefs,
  handle,
  menu,
  dragging = false,
}: {
  card: BoardCard;
  prefs: DisplayPreferences;
  handle?: React.ReactNode;
  menu?: React.ReactNode;
  dragging?: boolean;
}) {
  const target = useContext(Target);
  const linkDeals = opensDeal(target, card);
  const net = target.net ?? true;
  const money = card.currency ? { ...prefs, currency: card.currency } : prefs;
  return (
    <article
      className={`rounded-xl border border-stone-200 bg-white p-2 dark:border-stone-700 dark:bg-stone-950 ${dragging ? "rotate-1 shadow-xl" : "shadow-sm"}`}
      aria-label={card.title}
    >
      <div className="flex items-start gap-1">
        {handle ?? (
          <span className="inline-flex h-11 w-8 shrink-0 items-center justify-center text-stone-500">
            <BoardIcon name="grip" />
          </span>
        )}
        <div className="min-w-0 flex-1 py-1">
          {linkDeals ? (
            <Link to={`/deals/${card.id}`} className="line-clamp-2 break-words font-semibold underline-offset-4 hover:underline">
              {card.title}
            </Link>
          ) : (
            <p className="line-clamp-2 break-words font-semibold">{card.title}</p>
          )}
          {card.contactName ? <p className="truncate text-sm text-stone-600 dark:text-stone-400">{card.contactName}</p> : null}
          {card.agentName ? (
            <p className="truncate text-sm font-medium">
              {card.coAgents?.length ? `${card.agentName} · with ${card.coAgents.join(", ")}` : card.agentName}
            </p>
          ) : null}
          {card.stageLabel ? <p className="truncate text-sm text-stone-600 dark:text-stone-400">{`Their stage: ${card.stageLabel}`}</p> : null}
        </div>
        {menu}
      </div>
      {/* Plain text, no per-line elements: the board repeats this for every card it renders on the server. */}
      <p className="flex justify-between gap-2 px-1 pt-1 text-sm">
        <span className="font-medium">{formatCentsWhole(card.dealValueCents, money)}</span>
        <span className="text-stone-600 dark:text-stone-400">{closeLabel(card, prefs)}</span>
      </p>
      {!net ? null : card.netCents === null ? (
        <p className="px-1 text-sm text-stone-600 dark:text-stone-400">Lost: no commission</p>
      ) : (
        <p className={`px-1 text-sm font-medium ${card.netCents < 0 ? "text-red-700 dark:text-red-400" : "text-emerald-800 dark:text-emerald-300"}`}>
          Agent net {formatCents(card.netCents, prefs)}
        </p>
      )}
    </article>
  );
}

/**
 * The card's menu button. The choices open in one dialog for the whole board (MoveDialog): a menu inside the
 * card would be clipped by the board's sideways scroll area, and the last stages could not be reached.
 */
function CardMenu({ card, onOpen }: { card: BoardCard; onOpen: (card: BoardCard) => void }) {
  return (
    <button
      type="button"
      aria-label={`Actions for ${card.title}`}
      aria-haspopup="dialog"
      onClick={() => onOpen(card)}
      className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-md hover:bg-stone-100 dark:hover:bg-stone-800"
    >
      <BoardIcon name="more" />
    </button>
  );
}

/** Move a deal to any stage, or open it: every choice on screen, whatever the board's scroll position. */
function MoveDialog({
  card,
  currentStage,
  stages,
  onMove,
  onClose,
}: {
  card: BoardCard | null;
  currentStage: string | undefined;
  stages: DealStage[];
  onMove: (id: string, stage: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const linkDeals = opensDeal(useContext(Target), card);
  useEffect(() => {
    if (card && !ref.current?.open) ref.current?.showModal();
  }, [card]);
  return (
    <Modal ref={ref} id="move-deal" title={card ? `Move ${card.title}` : "Move deal"} onClose={onClose}>
      {card ? (
        <div className="flex flex-col gap-1">
          <p className="px-1 pb-1 text-sm font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400">Move to</p>
          {stages.map((s) => {
            const current = s.key === currentStage;
            return (
              <button
                key={s.key}
                type="button"
                disabled={current}
                onClick={() => {
                  ref.current?.close();
                  onMove(card.id, s.key);
                }}
                className="flex min-h-11 w-full items-center gap-2 rounded-lg px-3 text-left hover:bg-stone-200 disabled:cursor-default disabled:hover:bg-transparent dark:hover:bg-stone-800"
              >
                <span aria-hidden="true" className="h-3 w-3 shrink-0 rounded-full" style={{ backgroundColor: s.color }} />
                {s.name}
                {current ? <span className="ml-auto text-sm text-stone-600 dark:text-stone-400">Current stage</span> : null}
              </button>
            );
          })}
          {linkDeals ? (
            <Link
              to={`/deals/${card.id}`}
              className="mt-1 flex min-h-11 items-center rounded-lg border-t border-stone-200 px-3 font-medium underline-offset-4 hover:underline dark:border-stone-800"
            >
              Open deal
            </Link>
          ) : null}
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * Moving a deal into a closed stage: the day it closed (today unless changed) and, for a lost stage, why. Cancel puts
 * the card back where it was.
 */
function CloseDialog({
  open,
  title,
  stage,
  today,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  title: string;
  stage: DealStage | undefined;
  today: string;
  onCancel: () => void;
  onConfirm: (close: { closedDate: string; lostReason?: string }) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [reason, setReason] = useState("");
  const [dateError, setDateError] = useState<string | undefined>(undefined);
  const confirmed = useRef(false);
  const lost = stage?.kind === "lost";
  useEffect(() => {
    if (open && !ref.current?.open) {
      confirmed.current = false;
      setReason("");
      setDateError(undefined);
      ref.current?.showModal();
    }
  }, [open]);
  return (
    <Modal
      ref={ref}
      id="close-deal"
      title={`Move ${title} to ${stage?.name ?? ""}`}
      onClose={() => {
        if (!confirmed.current) onCancel();
      }}
    >
      {open ? (
        <form
          className="flex flex-col gap-4"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            const closedDate = String(new FormData(event.currentTarget).get("closedDate") ?? "");
            if (!/^\d{4}-\d{2}-\d{2}$/.test(closedDate)) {
              setDateError("Closed date must be a date.");
              return;
            }
            if (lost && !reason.trim()) return;
            confirmed.current = true;
            onConfirm({ closedDate, ...(lost ? { lostReason: reason.trim() } : {}) });
            ref.current?.close();
          }}
        >
          <ClosedDateField today={today} error={dateError} />
          {lost ? (
            <Field
              label="Why was it lost?"
              name="lostReason"
              value={reason}
              onChange={(event) => setReason(event.target.value)}
              required
              hint="For example: buyer chose another home, financing fell through."
            />
          ) : null}
          <div className="flex justify-end gap-3">
            <Button type="button" variant="secondary" onClick={() => ref.current?.close()}>
              Cancel
            </Button>
            <Button type="submit" disabled={lost && !reason.trim()}>
              {lost ? "Mark as lost" : `Move to ${stage?.name ?? ""}`}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
