import type { DraftDeal } from "../draft-types";

/** A deal not yet won or lost. */
export const isOpenDeal = (deal: DraftDeal) => deal.stage !== "closed_won" && deal.stage !== "closed_lost";
