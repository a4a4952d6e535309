import type { ActionResult } from "~/lib/action-result";

// A deal's messages and a move's answer, without zod: the Undo of a deal's move is in the signed-in shell, and
// importing the schema file from there shipped zod on every page. The forms' schemas are deal.schema.ts.

export const DEAL_MESSAGES = {
  titleRequired: "Give the deal a title.",
  stageRequired: "Choose a stage.",
  stageUnknown: "That stage no longer exists. Choose another.",
  contactUnknown: "That contact was not found. Pick one from the list.",
  lostReasonRequired: "Say why the deal was lost.",
  validationTitle: "Please check the deal",
  saveFailed: "The deal could not be saved. Please try again.",
  created: "Deal created",
  updated: "Deal saved",
  deleted: "Deal deleted",
  moveFailed: "The deal could not be moved, so it is back where it was.",
  notFound: "That deal was not found.",
  movedSince: "The deal has moved since, so it stays where it is now.",
} as const;

/** A deal's stage and what goes with it, before a move: what an Undo puts back. */
export interface DealStageState {
  stage: string;
  closedDate: string | null;
  lostReason: string | null;
}

/** What a move answers: on success, the stage it left (for an Undo) and the day it closed (a closed stage). */
export type DealMoveResult = ActionResult<{ from: DealStageState | null; closedDate: string | null }>;
