import * as z from "zod";
import { CONTACT_INTERESTS } from "~/db/enums";
import { EMAIL_PATTERN } from "~/modules/auth/auth.messages";
import { CONTACT_MESSAGES } from "./contact.messages";

const required = (label: string, max: number) =>
  z
    .string({ error: `${label} is required.` })
    .trim()
    .min(1, `${label} is required.`)
    .max(max, `${label} must be at most ${max} characters.`);

/** contact-submit's input (spec section 3): the same field names in the form and the JSON endpoint. */
export const ContactSubmissionSchema = z.object({
  firstName: required("First name", 100),
  lastName: required("Last name", 100),
  email: z.string({ error: "Email is required." }).trim().max(254).regex(EMAIL_PATTERN, "Please enter a valid email address."),
  phone: z
    .string()
    .trim()
    .max(40, "Phone must be at most 40 characters.")
    .optional()
    .transform((value) => (value ? value : null)),
  company: required("Company (brokerage)", 200),
  interest: z.enum(CONTACT_INTERESTS, { error: "Choose what you are interested in." }),
  message: required("Message", 5000),
  consent: z.preprocess((value) => value === true || value === "true" || value === "on", z.literal(true, { error: CONTACT_MESSAGES.consentInline })),
});
