import type { DraftEnvelope } from "./draft-types";
import { contextOf, type Ctx } from "./drafter/context";
import { tidy } from "./drafter/text";
import { writeAdvice } from "./drafter/writers/advice";
import { writeDealReview } from "./drafter/writers/deal-review";
import { writeFollowUp } from "./drafter/writers/follow-up";
import { writeListing } from "./drafter/writers/listing";
import { writeMarket } from "./drafter/writers/market";
import { writeWeekPlan } from "./drafter/writers/week-plan";

/**
 * Porchlight's offline drafter: writes every AI task from the envelope's facts alone, with no model. It is
 * deterministic (the same envelope gives the same text) and `envelope.variant` picks among phrasings, so
 * "Regenerate" gives another version. It never invents a figure or a feature: what it does not know, it leaves
 * out or says it does not know. Pure TypeScript, no server imports: the browser can load it.
 *
 * This file is its entry: one writer per task in drafter/writers/, their wording as data in drafter/phrases/, and
 * the helpers they share (names, money, days, homes, the agent's input, deal risk, text) in drafter/.
 */
export function draft(envelope: DraftEnvelope): string {
  const ctx = contextOf(envelope);
  const text = WRITERS[envelope.task](ctx);
  return tidy(text);
}

const WRITERS: Record<DraftEnvelope["task"], (ctx: Ctx) => string> = {
  follow_up: writeFollowUp,
  listing: writeListing,
  market: writeMarket,
  deal_review: writeDealReview,
  week_plan: writeWeekPlan,
  advice: writeAdvice,
};

// The helpers prompt.ts, fallback.ts and the welcome e-mail share with the drafter, so every engine names, prices
// and dates things the same way.
export { listingHighlights } from "./drafter/agent-input";
export { daysBetween } from "./drafter/days";
export { weightedValue } from "./drafter/deal-risk";
export { isOpenDeal } from "./drafter/open-deal";
export { formatArea, listingFactsOf } from "./drafter/homes";
export { budgetRange, formatMoney } from "./drafter/money";
export { cleanName, firstNameOf } from "./drafter/names";
export { fitToLimit } from "./drafter/text";
