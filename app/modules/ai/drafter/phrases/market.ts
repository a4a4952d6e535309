import type { DraftTone } from "../../draft-types";

// The market notes' wording: plain data, chosen by ../writers/market.ts.

export type AreaLine = (area: string | null) => string;
export const MARKET_INTROS: Record<DraftTone, readonly AreaLine[]> = {
  friendly: [
    (a) => `Here's a starting point for your ${a ? `${a} ` : ""}market notes.`,
    (a) => `Let's put together your ${a ? `${a} ` : ""}market story.`,
    (a) => `A quick prep sheet for talking about ${a ?? "your market"}.`,
  ],
  professional: [
    (a) => `Market notes${a ? `: ${a}` : ""}.`,
    (a) => `Preparation notes for a market update${a ? ` on ${a}` : ""}.`,
    (a) => `Market briefing outline${a ? `: ${a}` : ""}.`,
  ],
  concise: [(a) => `Market notes${a ? `: ${a}` : ""}.`, (a) => `Market prep${a ? `: ${a}` : ""}.`, (a) => `Notes${a ? ` for ${a}` : ""}.`],
  enthusiastic: [
    (a) => `Let's get you ready to talk ${a ?? "your market"} like a pro!`,
    (a) => `Your ${a ? `${a} ` : ""}market prep is ready to go!`,
    (a) => `Time to own the ${a ? `${a} ` : "market "}conversation!`,
  ],
};

export const MLS_CHECKLIST = [
  "Median sale price over the last 90 days, against the same period a year ago",
  "Median days on market",
  "Active inventory and months of supply",
  "List-to-sale price ratio",
  "New listings against pending sales over the last 30 days",
];
