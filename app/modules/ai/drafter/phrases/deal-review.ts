import type { DraftTone } from "../../draft-types";

// The at-risk review's wording: plain data, chosen by ../writers/deal-review.ts and, for the next steps, ../deal-risk.ts.

/** Per stage: the next step, and the step when the deal has gone quiet (a call comes first). */
export const DEAL_STEPS: Record<string, { active: (who: string) => string; quiet: (who: string) => string }> = {
  lead: {
    active: (w) => `Call ${w} to qualify: timeline, budget and financing.`,
    quiet: (w) => `Call ${w} this week to qualify: timeline, budget and financing.`,
  },
  qualified: {
    active: (w) => `Confirm ${w}'s pre-approval and book the first showings.`,
    quiet: (w) => `Call ${w} this week to confirm pre-approval and book the first showings.`,
  },
  showing: {
    active: (w) => `Ask ${w} which homes are still in the running and book the next showings.`,
    quiet: (w) => `Call ${w} this week: ask which homes are still in the running and book the next showings.`,
  },
  offer: {
    active: (w) => `Get an answer on the offer from the other side and agree a response deadline with ${w}.`,
    quiet: (w) => `Call the other agent today for an answer on the offer, then update ${w}.`,
  },
  under_contract: {
    active: (w) => `Check inspection, appraisal and financing milestones with ${w}'s lender and the other agent.`,
    quiet: (w) => `Call ${w} and the lender this week to check inspection, appraisal and financing milestones.`,
  },
};

export const REVIEW_INTROS: Record<DraftTone, readonly string[]> = {
  friendly: [
    "Here's where your open deals stand, riskiest first.",
    "Let's look at what might be slipping, starting with the riskiest.",
    "A quick pass over your open deals, riskiest first.",
  ],
  professional: ["Open deals, ranked by risk.", "Pipeline risk review, highest risk first.", "Review of open deals by risk."],
  concise: ["Open deals by risk:", "Risk review:", "Deals, riskiest first:"],
  enthusiastic: [
    "Let's keep every deal on track! Here they are, riskiest first.",
    "Time to rescue anything that's slipping! Riskiest first.",
    "Let's tighten up the pipeline! Riskiest first.",
  ],
};

export const NOTHING_TO_REVIEW: Record<DraftTone, readonly string[]> = {
  friendly: ["There's nothing to review right now", "Nothing to review yet", "All quiet, nothing to review"],
  professional: ["There is nothing to review at present", "Nothing to review", "There is nothing to review"],
  concise: ["Nothing to review", "Nothing to review yet", "Nothing to review now"],
  enthusiastic: ["Nothing to review yet, a clean slate", "Nothing to review, time to fill the pipeline", "Nothing to review, so let's build"],
};

/** The next step when there is nothing to review, for `who` ("turn Zoë O'Brien into a deal"). */
export const NOTHING_TO_REVIEW_STEPS: readonly ((who: string) => string)[] = [
  (who) =>
    `Next step: ${who} and give it a value, a probability and an expected close date, so the review and your forecast have something to work with.`,
  (who) => `A good next step: ${who}, with a value, probability and close date, so Porchlight can track it.`,
  (who) => `Next step: ${who} today and set its expected close date.`,
];

/** The review's last line, naming the riskiest deal. */
export const REVIEW_CLOSERS: readonly ((deal: string) => string)[] = [
  (deal) => `Start with ${deal}: it carries the most risk.`,
  (deal) => `If you do one thing today, make it ${deal}.`,
  (deal) => `${deal} needs you first.`,
];
