import type { DraftTone } from "../../draft-types";

// The advice answer's wording: plain data, chosen by ../writers/advice.ts.

export const ADVICE_INTROS: Record<DraftTone, readonly string[]> = {
  friendly: ["Good question. Here's how I'd approach it.", "Happy to help. Here's my take.", "Let's work through it."],
  professional: ["Here is a recommended approach.", "Recommendations below.", "Here is how I would handle it."],
  concise: ["", "In short:", "Quick take:"],
  enthusiastic: ["Love this question! Here's the plan.", "Let's tackle it!", "Great one! Here's how to win it."],
};

export const DATA_HEADINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Here's what your data says", "What I see in your data", "From your pipeline"],
  professional: ["What your data shows", "Summary of your data", "Current position"],
  concise: ["Your data"],
  enthusiastic: ["Here's what your data is telling us", "Your numbers at a glance", "What we're working with"],
};

export const STEPS_HEADINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Suggested next steps", "What I'd do next", "Next steps"],
  professional: ["Recommended next steps", "Recommended actions", "Next steps, in order"],
  concise: ["Next steps", "Do next", "Steps"],
  enthusiastic: ["Your next moves", "Let's go", "Action plan"],
};
