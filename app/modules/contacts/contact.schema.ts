import * as z from "zod";
import { CONTACT_SOURCES, CONTACT_STATUSES, PROPERTY_TYPES } from "~/db/enums";
import { optionalText } from "~/lib/schema-fields";
export { fieldErrors } from "~/lib/schema-fields";
import { EMAIL_PATTERN } from "~/modules/auth/auth.messages";
import { CONTACT_MESSAGES } from "./contacts.messages";

// Spec section 5: blank optional text becomes null (lib/schema-fields); numeric fields parse as integers, blank gives null;
// tags are trimmed, non-empty and unique. Forms send strings, JSON sends numbers and arrays: both are accepted.
const optionalInt = (label: string, max: number) =>
  z.preprocess(
    (value) => {
      if (value === null || value === undefined) return null;
      if (typeof value === "string") {
        const cleaned = value.trim().replace(/[$,\s]/g, "");
        return cleaned === "" ? null : Number(cleaned);
      }
      return value;
    },
    z
      .number({ error: `${label} must be a whole number.` })
      .int(`${label} must be a whole number.`)
      .min(0, `${label} cannot be negative.`)
      .max(max, `${label} is too large.`)
      .nullable(),
  );

/** Tags from an array, a JSON array string, or a comma-separated string: trimmed, non-empty, unique (case-insensitive). */
export function normaliseTags(value: unknown): string[] {
  let list: unknown[] = [];
  if (Array.isArray(value)) list = value;
  else if (typeof value === "string" && value.trim().startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(value);
      list = Array.isArray(parsed) ? parsed : [];
    } catch {
      list = value.split(",");
    }
  } else if (typeof value === "string") list = value.split(/[,;]/);
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const item of list) {
    if (typeof item !== "string") continue;
    // Commas and semicolons separate tags in forms and CSV files, so they never appear inside one.
    const tag = item.replace(/[,;]/g, " ").trim().replace(/\s+/g, " ").slice(0, 40);
    if (tag && !seen.has(tag.toLowerCase())) {
      seen.add(tag.toLowerCase());
      tags.push(tag);
    }
  }
  return tags.slice(0, 50);
}

const fields = {
  name: z.preprocess(
    (value) => (typeof value === "string" ? value.trim() : value),
    z.string({ error: CONTACT_MESSAGES.nameRequired }).min(1, CONTACT_MESSAGES.nameRequired).max(200, "Name must be at most 200 characters."),
  ),
  phone: optionalText(40, "Phone"),
  email: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() || null : (value ?? null)),
    z.string().max(254).regex(EMAIL_PATTERN, "Please enter a valid email address.").nullable(),
  ),
  status: z.enum(CONTACT_STATUSES, { error: "Choose hot, warm or cold." }).default("cold"),
  budgetMin: optionalInt("Minimum budget", 1_000_000_000),
  budgetMax: optionalInt("Maximum budget", 1_000_000_000),
  propertyType: z.enum(PROPERTY_TYPES, { error: "Choose a property type from the list." }).default("house"),
  bedrooms: optionalInt("Bedrooms", 100),
  bathrooms: optionalInt("Bathrooms", 100),
  location: optionalText(200, "Location"),
  source: z.enum(CONTACT_SOURCES, { error: "Choose a source from the list." }).default("other"),
  tags: z.preprocess(normaliseTags, z.array(z.string())),
  company: optionalText(200, "Company"),
  address: optionalText(300, "Address"),
  timeline: optionalText(200, "Timeline"),
  notes: optionalText(10_000, "Notes"),
};

const rules = <T extends { phone?: string | null; email?: string | null; budgetMin?: number | null; budgetMax?: number | null }>(
  value: T,
  ctx: z.RefinementCtx,
) => {
  if ("phone" in value && "email" in value && !value.phone && !value.email) {
    ctx.addIssue({ code: "custom", path: ["phone"], message: CONTACT_MESSAGES.phoneOrEmail });
  }
  if (value.budgetMin != null && value.budgetMax != null && value.budgetMin > value.budgetMax) {
    ctx.addIssue({ code: "custom", path: ["budgetMax"], message: "Maximum budget must be at least the minimum." });
  }
};

/** A whole contact: the Add New Contact dialog, the import, the JSON API. */
export const ContactInputSchema = z.object(fields).superRefine(rules);
export type ContactInput = z.output<typeof ContactInputSchema>;

/** Field errors keyed by field name, first message each. */

/** A contact as pickers and the palette show it (GET /api/search). */
export interface ContactOption {
  id: string;
  name: string;
  /** E-mail, else phone. */
  detail: string | null;
}
