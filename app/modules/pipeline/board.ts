import type { Currency } from "~/db/enums";
// Shapes the board's loader sends to the browser (shared by the server module and the components).

export interface BoardCard {
  id: string;
  title: string;
  contactId: string | null;
  contactName: string | null;
  stage: string;
  dealValueCents: number;
  expectedCloseDate: string | null;
  /** The day a closed (won or lost) deal closed; null while it is open. */
  closedDate: string | null;
  probability: number;
  /** What the deal pays the agent (actual when won, planned when open); null when it was lost: it pays nothing. */
  netCents: number | null;
  /** On a team's board (ADR 0076): whose deal it is (moves name them), who shares it, their own stage's name when the
   * team's column is not it, and their currency. */
  agentId?: string;
  agentName?: string;
  coAgents?: string[];
  stageLabel?: string | null;
  currency?: Currency;
}

/** Per stage: how many deals, their total value, and value x probability (each deal to the cent). */
export interface ColumnTotals {
  count: number;
  valueCents: number;
  weightedCents: number;
}

/** Where the board and the deal dialogs post creates and moves. */
export const PIPELINE_ACTION = "/pipeline?index";

/** A deal a teammate shares with the agent: in the teammate's stage, with the agent's share and net. */
export interface SharedCard {
  id: string;
  title: string;
  ownerName: string;
  stageName: string;
  kind: "open" | "won" | "lost";
  dealValueCents: number;
  expectedCloseDate: string | null;
  closedDate: string | null;
  sharePct: number;
  /** The agent's part: their share of the side through their own plan and cap; null when the deal was lost. */
  netCents: number | null;
}
