import * as z from "zod";
import { CONTACT_SOURCES, type ContactSource } from "~/db/enums";
import { optionalMoneyCents } from "~/lib/schema-fields";
import { SOURCE_LABELS } from "~/modules/contacts/contacts.messages";

// Settings → Goals: the annual income goal Reports measures year-to-date agent net against, and what
// each lead source cost in a month, for cost per lead and return on spend. Both optional: blank means none.

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** The largest amount either form takes: $1 billion, in cents. */
const MAX_CENTS = 100_000_000_000;
const capped = (label: string) => optionalMoneyCents(label).refine((v) => v === null || v <= MAX_CENTS, `${label} can be at most 1,000,000,000.`);

export const IncomeGoalSchema = z.object({ incomeGoalCents: capped("Annual income goal") });
export type IncomeGoalInput = z.infer<typeof IncomeGoalSchema>;

export const SourceCostsSchema = z.object({
  month: z.string({ error: "Choose the month the costs are for." }).regex(MONTH, "Choose the month the costs are for, e.g. 2026-11."),
  ...(Object.fromEntries(CONTACT_SOURCES.map((source) => [`cost_${source}`, capped(`${SOURCE_LABELS[source]} cost`)])) as Record<
    `cost_${ContactSource}`,
    ReturnType<typeof capped>
  >),
});
export type SourceCostsInput = z.infer<typeof SourceCostsSchema>;
