import * as z from "zod";
import { DEAL_SIDES } from "~/db/enums";
import type { ActionResult } from "~/lib/action-result";
import { moneyCents, optionalDate, optionalMoneyCents, optionalPercent, optionalText } from "~/lib/schema-fields";
import { DEAL_MESSAGES } from "./deal.messages";

export const LOST_REASON_MAX = 500;

/**
 * The create/edit deal dialog and its server check. Blank rate, probability or overrides mean "use the
 * plan / the stage's default"; the server fills them in.
 */
export const DealInputSchema = z.object({
  title: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z.string({ error: DEAL_MESSAGES.titleRequired }).min(1, DEAL_MESSAGES.titleRequired).max(200, "The title must be at most 200 characters."),
  ),
  contactId: optionalText(64, "Contact"),
  stage: z.string({ error: DEAL_MESSAGES.stageRequired }).min(1, DEAL_MESSAGES.stageRequired).max(40),
  dealValueCents: moneyCents("Deal value", "Enter the deal value (the sale price), e.g. 650,000."),
  commissionRate: optionalPercent("Commission rate"),
  probability: z.preprocess(
    (v) => (typeof v === "string" ? (v.trim() === "" ? null : Number(v.trim().replace(/%$/, ""))) : (v ?? null)),
    z
      .number({ error: "Probability is a whole number from 0 to 100." })
      .int("Probability is a whole number from 0 to 100.")
      .min(0, "Probability is a whole number from 0 to 100.")
      .max(100, "Probability is a whole number from 0 to 100.")
      .nullable(),
  ),
  expectedCloseDate: optionalDate("Expected close date"),
  side: z.preprocess((v) => (v === "" ? null : (v ?? null)), z.enum(DEAL_SIDES, { error: "Choose buyer, seller or both." }).nullable()),
  propertyAddress: optionalText(300, "Property address"),
  inspectionDate: optionalDate("Inspection date"),
  appraisalDate: optionalDate("Appraisal date"),
  financingDate: optionalDate("Financing date"),
  closingDate: optionalDate("Closing date"),
  closedDate: optionalDate("Closed date"),
  lostReason: optionalText(LOST_REASON_MAX, "Lost reason"),
  notes: optionalText(10_000, "Notes"),
  referralFeePct: optionalPercent("Referral fee"),
  brokerageSplitPct: optionalPercent("Brokerage split"),
  teamSplitPct: optionalPercent("Team split"),
  transactionFeeCents: optionalMoneyCents("Transaction fee"),
  eoFeeCents: optionalMoneyCents("E&O fee"),
  franchiseFeePct: optionalPercent("Franchise fee"),
});
export type DealInput = z.infer<typeof DealInputSchema>;

/**
 * A move on the board: the new stage, the cards it lands between (ids in that stage), a lost reason, and for a move
 * into a closed stage the day it closed (blank: today in the agent's timezone). `fromStage`, when sent, is the stage
 * the deal must still be in (an Undo puts a deal back only if nothing moved it since).
 */
export const DealMoveSchema = z.object({
  stage: z.string({ error: DEAL_MESSAGES.stageRequired }).min(1, DEAL_MESSAGES.stageRequired).max(40),
  afterId: optionalText(64, "Card above"),
  beforeId: optionalText(64, "Card below"),
  lostReason: optionalText(LOST_REASON_MAX, "Lost reason"),
  closedDate: optionalDate("Closed date"),
  fromStage: optionalText(40, "Stage"),
});
export type DealMove = z.infer<typeof DealMoveSchema>;

export const SIDE_LABELS: Record<(typeof DEAL_SIDES)[number], string> = { buyer: "Buyer", seller: "Seller", both: "Both sides" };

/** Cents as a form value: "650000", "650000.5" → "650000.50". Null stays blank. */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "";
  return cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);
}

/** What the create and update actions answer. */
export type DealSaveResult = ActionResult<{ deal: { id: string; title: string } }>;

export const DEAL_SORTS = ["close", "value", "title", "newest", "probability"] as const;
export type DealSort = (typeof DEAL_SORTS)[number];
/** The list view shows at most this many deals (with the full count). */
export const LIST_LIMIT = 200;
