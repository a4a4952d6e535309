import { useFetcher } from "@remix-run/react";
import { createContext, useCallback, useContext, useMemo, useRef } from "react";
import { toast } from "~/components/ui/Toaster";
import { formatDay, type DisplayPreferences } from "~/lib/format";
import { useFetcherResult } from "~/lib/use-fetcher-result";
import { DEAL_MESSAGES, type DealMoveResult, type DealStageState } from "../deal.messages";

/** A move into a closed stage that was saved: what its toast says and what its Undo sends back. */
export interface ClosedMove {
  dealId: string;
  title: string;
  /** The closed stage the deal went to, and its name. */
  toStage: string;
  toName: string;
  closedDate: string;
  /** The stage it left, with its close date and lost reason. */
  from: DealStageState;
  fromName: string;
  /** Where the move was posted (the Undo posts there too), with the fields every move there carries. */
  action: string;
  fields?: Record<string, string>;
  /** The cards it sat between in the stage it left, so the Undo puts it back in its place. */
  afterId?: string | null;
  beforeId?: string | null;
  prefs: Pick<DisplayPreferences, "dateFormat">;
}

/** What a closing move needs besides the server's answer: everything in ClosedMove but what the server answers. */
export type ClosingMove = Omit<ClosedMove, "closedDate" | "from" | "fromName"> & { stageName: (key: string) => string };

interface MoveUndoApi {
  announce: (move: ClosedMove) => void;
  /** Posts a move into a closed stage from here, so its toast and Undo come even if the page drops the deal meanwhile. */
  submitClosing: (fields: Record<string, string>, move: ClosingMove) => void;
}
const MoveUndoContext = createContext<MoveUndoApi>({ announce: () => {}, submitClosing: () => {} });

/**
 * The toast after a deal is moved into a closed stage (from the board by drag, keyboard or menu, from the deal page,
 * from the team pipeline): it says the day it closed and offers Undo, which moves the deal back to the stage it left,
 * with its close date and lost reason, if nothing has moved it since. It lives in the signed-in layout, so the Undo
 * works after the page that made the move has changed (a list of open deals drops a deal that closed).
 */
export function MoveUndoProvider({ children }: { children: React.ReactNode }) {
  const undo = useFetcher<DealMoveResult>();
  const submit = useRef(undo.submit);
  submit.current = undo.submit;
  const undoing = useRef<ClosedMove | null>(null);
  const closer = useFetcher<DealMoveResult>();
  const submitClose = useRef(closer.submit);
  submitClose.current = closer.submit;
  const closing = useRef<ClosingMove | null>(null);

  useFetcherResult(undo, (result) => {
    const move = undoing.current;
    if (result.ok) toast({ title: move ? `${move.title} is back in ${move.fromName}` : "Move undone", variant: "success" });
    else toast({ title: "Undo failed", description: result.error, variant: "destructive" });
  });

  const announce = useCallback((move: ClosedMove) => {
    toast({
      title: `${move.title} moved to ${move.toName}`,
      description: `Closed ${formatDay(move.closedDate, move.prefs)}.`,
      variant: "success",
      actions: [
        {
          label: "Undo",
          altText: `Undo: move ${move.title} back to ${move.fromName}`,
          onClick: () => {
            undoing.current = move;
            submit.current(
              {
                ...move.fields,
                intent: "move",
                id: move.dealId,
                stage: move.from.stage,
                fromStage: move.toStage,
                closedDate: move.from.closedDate ?? "",
                lostReason: move.from.lostReason ?? "",
                afterId: move.afterId ?? "",
                beforeId: move.beforeId ?? "",
              },
              { method: "post", action: move.action },
            );
          },
        },
      ],
    });
  }, []);

  useFetcherResult(closer, (result) => {
    const move = closing.current;
    if (!move) return;
    if (!result.ok) toast({ title: DEAL_MESSAGES.moveFailed, description: result.error, variant: "destructive" });
    else if (result.from && result.closedDate)
      announce({ ...move, closedDate: result.closedDate, from: result.from, fromName: move.stageName(result.from.stage) });
  });

  const submitClosing = useCallback((fields: Record<string, string>, move: ClosingMove) => {
    closing.current = move;
    submitClose.current({ ...move.fields, ...fields, intent: "move", id: move.dealId, stage: move.toStage }, { method: "post", action: move.action });
  }, []);

  const api = useMemo(() => ({ announce, submitClosing }), [announce, submitClosing]);
  return <MoveUndoContext.Provider value={api}>{children}</MoveUndoContext.Provider>;
}

/** Raises the "moved to Closed Won, closed on …" toast with its Undo. */
export const useAnnounceClosedMove = () => useContext(MoveUndoContext).announce;
/** Posts a move into a closed stage whose toast (with Undo) must come even if the page drops the deal. */
export const useSubmitClosingMove = () => useContext(MoveUndoContext).submitClosing;
