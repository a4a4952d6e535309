import * as z from "zod";
import { DRAFT_TASKS, DRAFT_TONES, LISTING_FACT_LIMITS as L, MLS_LIMITS } from "./draft-types";

/** A whole number from `min` to `max`, or null/absent for "not given". */
const count = (what: string, min: number, max: number) =>
  z
    .number({ error: `${what} must be a number.` })
    .int(`${what} must be a whole number.`)
    .min(min, `${what} must be at least ${min.toLocaleString("en-US")}.`)
    .max(max, `${what} must be at most ${max.toLocaleString("en-US")}.`)
    .nullish()
    .transform((n) => n ?? null);

/** The property's facts in the listing quick action; each may be left out. */
const ListingFactsSchema = z.object(
  {
    bedrooms: count("Bedrooms", 0, L.bedrooms),
    bathrooms: z
      .number({ error: "Bathrooms must be a number." })
      .min(0, "Bathrooms must be at least 0.")
      .max(L.bathrooms, `Bathrooms must be at most ${L.bathrooms}.`)
      .multipleOf(0.5, "Bathrooms go in whole or half baths, like 2 or 2.5.")
      .nullish()
      .transform((n) => n ?? null),
    squareFeet: count("Square feet", 1, L.squareFeet),
    price: count("The list price", 1, L.price),
  },
  { error: "Send the listing's facts as an object." },
);

/** What the browser may ask for. Ids are looked up in the signed-in user's own data, never trusted. */
export const GenerateRequestSchema = z
  .object({
    task: z.enum(DRAFT_TASKS, { error: "Choose what the coach should write." }),
    tone: z.enum(DRAFT_TONES, { error: "Choose a tone: friendly, professional, concise or enthusiastic." }).default("friendly"),
    userInput: z.string().max(2000, "Keep the request under 2,000 characters.").default(""),
    contactId: z.string().min(1).max(80).optional(),
    dealIds: z.array(z.string().min(1).max(80)).max(20, "Pick at most 20 deals.").optional(),
    location: z.string().trim().max(100, "Keep the location under 100 characters.").optional(),
    mlsLimit: z
      .union([z.literal(MLS_LIMITS[0]), z.literal(MLS_LIMITS[1]), z.literal(MLS_LIMITS[2]), z.literal(MLS_LIMITS[3]), z.null()], {
        error: "Choose one of the MLS limits offered.",
      })
      .default(null),
    listing: ListingFactsSchema.optional(),
    variant: z.number().int().min(0).max(10_000).default(0),
  })
  .superRefine((request, ctx) => {
    if (request.task === "advice" && !request.userInput.trim())
      ctx.addIssue({ code: "custom", path: ["userInput"], message: "Type a question for the coach first." });
  });
export type GenerateRequest = z.infer<typeof GenerateRequestSchema>;

export const AI_MESSAGES = {
  contactNotFound: "That contact was not found in your account.",
  dealNotFound: "One of those deals was not found in your account.",
  noHotLead: "You have no hot leads yet. Mark a contact as hot, or pick a contact for the follow-up.",
} as const;
