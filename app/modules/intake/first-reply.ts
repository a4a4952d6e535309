import * as z from "zod";
import { PORTAL_SOURCES, type ContactSource } from "~/db/enums";
import { firstNameOf, mergeFieldProblem, type MergeField, type MergeValues } from "~/modules/templates/merge";

// A new lead's instant first reply (ADR 0068): its words, merge fields and forms, shared by the server (sending,
// saving) and Settings → Lead sources (the forms and the preview). Browser-safe.

/** The sources a reply can be turned on for: where leads arrive on their own (portals, forms, ads, sign-in sheets). */
export const REPLY_SOURCES = [...PORTAL_SOURCES, "website", "social_media", "open_house", "other"] as const satisfies readonly ContactSource[];
export type ReplySource = (typeof REPLY_SOURCES)[number];
export const isReplySource = (source: string): source is ReplySource => (REPLY_SOURCES as readonly string[]).includes(source);

/** The merge fields a first reply offers (app/modules/templates/merge.ts has what each stands for). */
export const REPLY_FIELDS = ["first name", "property", "agent name", "agent phone"] as const satisfies readonly MergeField[];

export const DEFAULT_REPLY = {
  subject: "Thanks for asking about {property}",
  body: "Hi {first name},\n\nThanks for asking about {property}. I'll call you within the hour to answer your questions and set up a showing if you'd like one.\n\n{agent name}\n{agent phone}",
} as const;

export const FIRST_REPLY_MESSAGES = {
  source: "Choose a lead source.",
  hours: "Choose when replies may go out: the start must be before the end.",
  saved: "Instant reply saved",
  hoursSaved: "Sending hours saved",
} as const;

/** Every {field} in a template must be one of the reply's merge fields; the first that is not is named. */
function checkFields(text: string, ctx: z.RefinementCtx) {
  const problem = mergeFieldProblem(text, REPLY_FIELDS);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
}

export const ReplyTemplateSchema = z.object({
  source: z.string().refine(isReplySource, FIRST_REPLY_MESSAGES.source),
  enabled: z.boolean(),
  subject: z.string().trim().min(1, "Give the e-mail a subject.").max(150, "Keep the subject to 150 characters.").superRefine(checkFields),
  body: z
    .string()
    .trim()
    .min(1, "Write the e-mail.")
    .max(2_000, "Keep the e-mail to 2,000 characters: it is a first reply.")
    .superRefine(checkFields),
});
export type ReplyTemplateInput = z.infer<typeof ReplyTemplateSchema> & { source: ReplySource };

/** Sending hours on the quarter hour, minutes after local midnight; until may be 24:00. */
export const ReplyHoursSchema = z
  .object({
    from: z.coerce.number().int().min(0).max(1425).multipleOf(15),
    until: z.coerce.number().int().min(15).max(1440).multipleOf(15),
  })
  .refine((h) => h.from < h.until, { message: FIRST_REPLY_MESSAGES.hours, path: ["until"] });

/** The merge values for a lead: first name from the contact's name, the property's address, the agent's name and phone. */
export function mergeValues(lead: { name: string; property: string | null }, agent: { name: string; phone: string | null }): MergeValues {
  return {
    "first name": firstNameOf(lead.name),
    property: lead.property?.trim() || "the home you asked about",
    "agent name": agent.name,
    "agent phone": agent.phone?.trim() ?? "",
  };
}

/** "8:00 AM" for 480 minutes: the sending hours' options. */
export function minuteLabel(minute: number): string {
  if (minute === 1440) return "midnight";
  const h = Math.floor(minute / 60);
  const m = minute % 60;
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}
