import type { DraftTone } from "../../draft-types";
import { capitalise } from "../text";

// This week's plan's wording: plain data, chosen by ../writers/week-plan.ts.

export const PLAN_INTROS: Record<DraftTone, readonly ((range: string) => string)[]> = {
  friendly: [(r) => `Here's your week at a glance, ${r}.`, (r) => `Your plan for ${r}.`, (r) => `Here's how ${r} shapes up.`],
  professional: [(r) => `Plan for ${r}.`, (r) => `Weekly plan, ${r}.`, (r) => `Schedule and priorities, ${r}.`],
  concise: [(r) => `This week, ${r}:`, (r) => `Week plan, ${r}:`, (r) => `${capitalise(r)}:`],
  enthusiastic: [
    (r) => `Let's make ${r} a great week!`,
    (r) => `Big week ahead, ${r}! Here's the plan.`,
    (r) => `Ready, set, go! Your plan for ${r}:`,
  ],
};

/** The habit the plan's focus ends with. */
export const DAILY_HABITS = [
  "Keep one hour a day for new leads and follow-ups.",
  "Protect a daily hour for prospecting.",
  "End each day by setting tomorrow's top three tasks.",
];
