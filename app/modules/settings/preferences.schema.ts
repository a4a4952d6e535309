import * as z from "zod";
import { CURRENCIES, DATE_FORMATS, TIME_FORMATS } from "~/db/enums";
import { isKnownTimezone } from "~/lib/dates";

export const DisplayPreferencesSchema = z.object({
  dateFormat: z.enum(DATE_FORMATS, { error: "Choose US or EU dates." }),
  timeFormat: z.enum(TIME_FORMATS, { error: "Choose 12-hour or 24-hour time." }),
  timezone: z.string().trim().min(1, "Choose a timezone.").refine(isKnownTimezone, "That timezone is not recognised."),
  currency: z.enum(CURRENCIES, { error: "Choose one of the listed currencies." }),
});
export type DisplayPreferencesInput = z.infer<typeof DisplayPreferencesSchema>;
