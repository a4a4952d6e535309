import * as z from "zod";

// zod field builders for form and JSON input, shared by the domains' schemas. Forms send strings: blank
// optional fields become null.

const blankToNull = (value: unknown) => (typeof value === "string" ? value.trim() || null : (value ?? null));

export const optionalText = (max: number, label: string) =>
  z.preprocess(blankToNull, z.string().max(max, `${label} must be at most ${max} characters.`).nullable());

/** "650000", "650,000", "$650,000.50" → cents, as an exact string conversion (no float on the way). */
export function parseMoneyToCents(value: string): number | null {
  const cleaned = value
    .trim()
    .replace(/^\$\s*/, "")
    .replace(/\s/g, "");
  if (!/^(\d{1,3}(,\d{3})+|\d+)(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, fraction = ""] = cleaned.replace(/,/g, "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return Number.isSafeInteger(cents) ? cents : null;
}

const MAX_CENTS = 100_000_000_000_00; // $100 billion

/** Money typed in whole units (cents allowed), stored as integer cents. JSON may send cents as a number. */
export const moneyCents = (label: string, message = `Enter ${label.toLowerCase()} as an amount, e.g. 650,000.`) =>
  z.preprocess(
    (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : (parseMoneyToCents(value) ?? Number.NaN)) : value),
    z.number({ error: message }).int(message).min(0, message).max(MAX_CENTS, `${label} is too large.`),
  );

export const optionalMoneyCents = (label: string) =>
  z.preprocess((value) => (blankToNull(value) === null ? null : value), moneyCents(label).nullable());

/** A percentage from 0 to 100 with at most three decimals (2.125). */
export const percent = (label: string) => {
  const message = `${label} is a percentage from 0 to 100, e.g. 2.5.`;
  return z.preprocess(
    (value) => (typeof value === "string" ? (value.trim() === "" ? undefined : Number(value.trim().replace(/%$/, ""))) : value),
    z
      .number({ error: message })
      .min(0, message)
      .max(100, message)
      .refine((n) => Number.isFinite(n) && Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6, `${label} can have at most three decimals.`),
  );
};

export const optionalPercent = (label: string) => z.preprocess((value) => (blankToNull(value) === null ? null : value), percent(label).nullable());

/** A calendar date "YYYY-MM-DD" (what <input type="date"> sends), or null. */
export const optionalDate = (label: string) =>
  z.preprocess(
    blankToNull,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, `${label} must be a date.`)
      .refine(
        (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
        `${label} must be a real date.`,
      )
      .nullable(),
  );

/** The first message for each field (top-level path), for forms. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) errors[String(issue.path[0] ?? "form")] ??= issue.message;
  return errors;
}
