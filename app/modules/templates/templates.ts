import * as z from "zod";
import { TEMPLATE_KINDS, type TemplateKind } from "~/db/enums";
import { mergeFieldProblem, TEMPLATE_FIELDS } from "./merge";
import { TEMPLATE_LIMITS } from "./template-kinds";

// E-mail and text templates (ADR 0070): the form's schema, the starters and the page's words. Browser-safe: the
// editor validates and previews with the same schema the server saves with.

export const TEMPLATE_MESSAGES = {
  name: "Give the template a name.",
  nameLong: `Keep the name to ${TEMPLATE_LIMITS.name} characters.`,
  subject: "Give the e-mail a subject.",
  subjectLong: `Keep the subject to ${TEMPLATE_LIMITS.subject} characters.`,
  body: "Write the message.",
  emailLong: `Keep the e-mail to ${TEMPLATE_LIMITS.email.toLocaleString("en-US")} characters.`,
  textLong: `Keep a text to ${TEMPLATE_LIMITS.text} characters: longer ones arrive in pieces.`,
  kind: "Choose e-mail or text.",
  saved: "Template saved",
  created: "Template created",
  deleted: (name: string) => `“${name}” deleted`,
  copied: (name: string) => `“${name}” copied to your templates`,
  shared: (name: string) => `“${name}” is now shared with your team`,
  starters: (count: number) => (count === 0 ? "You already have every starter template" : `${count} starter templates added`),
  notFound: "That template is gone or is not yours to change.",
  teamOnly: "Only your team's owner and admins can share or change the team's templates.",
} as const;

const withFields = (text: string, ctx: z.RefinementCtx) => {
  const problem = mergeFieldProblem(text, TEMPLATE_FIELDS);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
};

/** A template as the editor sends it: a subject only for e-mail, each text checked for its merge fields. */
export const TemplateSchema = z
  .object({
    kind: z.enum(TEMPLATE_KINDS, TEMPLATE_MESSAGES.kind),
    name: z.string().trim().min(1, TEMPLATE_MESSAGES.name).max(TEMPLATE_LIMITS.name, TEMPLATE_MESSAGES.nameLong),
    subject: z.string().trim().max(TEMPLATE_LIMITS.subject, TEMPLATE_MESSAGES.subjectLong).superRefine(withFields).default(""),
    body: z.string().trim().min(1, TEMPLATE_MESSAGES.body).superRefine(withFields),
  })
  .superRefine((t, ctx) => {
    if (t.kind === "email" && !t.subject) ctx.addIssue({ code: "custom", path: ["subject"], message: TEMPLATE_MESSAGES.subject });
    const max = t.kind === "email" ? TEMPLATE_LIMITS.email : TEMPLATE_LIMITS.text;
    if (t.body.length > max) {
      ctx.addIssue({ code: "custom", path: ["body"], message: t.kind === "email" ? TEMPLATE_MESSAGES.emailLong : TEMPLATE_MESSAGES.textLong });
    }
  });
export type TemplateInput = z.infer<typeof TemplateSchema>;

export interface StarterTemplate {
  key: string;
  kind: TemplateKind;
  name: string;
  subject: string | null;
  body: string;
}

/** Templates a new agent can start from: the moments of a buyer's and a seller's year an agent writes at. */
export const STARTER_TEMPLATES: readonly StarterTemplate[] = [
  {
    key: "new-buyer-lead",
    kind: "email",
    name: "New buyer lead",
    subject: "Your home search, {first name}",
    body: "Hi {first name},\n\nThanks for reaching out about {property address}. I'd love to help you find the right home. What matters most to you: the neighborhood, the schools, the commute, a yard?\n\nIf you have 15 minutes this week, I can go over what's on the market now and set up showings for the homes you like.\n\n{signature}",
  },
  {
    key: "new-seller-lead",
    kind: "email",
    name: "New seller lead",
    subject: "What your home could sell for",
    body: "Hi {first name},\n\nThanks for asking about selling {property address}. I'll put together what similar homes nearby have sold for recently, so you can see where yours could land before you decide anything.\n\nWhen would suit you for a short walk-through? It takes about 30 minutes.\n\n{signature}",
  },
  {
    key: "after-showing",
    kind: "email",
    name: "After a showing",
    subject: "How did {property address} feel?",
    body: "Hi {first name},\n\nThanks for seeing {property address} with me. I'd love to hear what you thought: what you liked, and anything that gave you pause.\n\nIf it's a contender, I can pull the sales nearby so we know what a strong offer looks like. If not, tell me what was missing and I'll line up the next ones.\n\n{signature}",
  },
  {
    key: "under-contract",
    kind: "email",
    name: "Under contract",
    subject: "We're under contract on {property address}",
    body: "Hi {first name},\n\nCongratulations: we're under contract on {property address} at {price}!\n\nHere is what happens next: the inspection, the appraisal and the loan approval, each with its date. I'll keep you posted at every step and remind you a few days before anything is due from you.\n\n{signature}",
  },
  {
    key: "closing-anniversary",
    kind: "email",
    name: "Closing anniversary",
    subject: "Happy home anniversary, {first name}!",
    body: "Hi {first name},\n\nIt's been a year since you got the keys to {property address}. Happy home anniversary!\n\nIf you're curious what your home is worth today, or if a friend is thinking of moving, I'm always glad to help.\n\n{signature}",
  },
  {
    key: "checking-in",
    kind: "email",
    name: "Checking in",
    subject: "Checking in, {first name}",
    body: "Hi {first name},\n\nJust checking in. Are you still thinking about a move? Whenever you're ready, I can send you the homes that fit what you're after, or tell you what yours could sell for today.\n\nNo rush at all: reply here whenever suits you.\n\n{signature}",
  },
  {
    key: "showing-reminder-text",
    kind: "text",
    name: "Showing reminder",
    subject: null,
    body: "Hi {first name}, it's {agent name}. Looking forward to seeing {property address} with you {appointment time}. Reply here if anything changes!",
  },
  {
    key: "new-lead-text",
    kind: "text",
    name: "New lead: first text",
    subject: null,
    body: "Hi {first name}, it's {agent name} — thanks for asking about {property address}. Is now a good time for a quick call?",
  },
];
