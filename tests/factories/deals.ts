import { DealInputSchema, type DealInput } from "~/modules/deals/deal.schema";

/** A valid deal input (as the dialog would send it) with the given fields; strings parse like the form's. */
export function dealInput(fields: Record<string, unknown> = {}): DealInput {
  return DealInputSchema.parse({ title: "12 Oak St", stage: "lead", dealValueCents: "500000", ...fields });
}
