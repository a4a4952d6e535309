// Shapes the board's loader sends to the browser (shared by the server module and the components).

export interface BoardCard {
  id: string;
  title: string;
  contactId: string | null;
  contactName: string | null;
  stage: string;
  dealValueCents: number;
  expectedCloseDate: string | null;
  probability: number;
  /** What the deal pays the agent (actual when won, planned when open); null when it was lost: it pays nothing. */
  netCents: number | null;
}

/** Per stage: how many deals, their total value, and value x probability (each deal to the cent). */
export interface ColumnTotals {
  count: number;
  valueCents: number;
  weightedCents: number;
}

/** Where the board and the deal dialogs post creates and moves. */
export const PIPELINE_ACTION = "/pipeline?index";
