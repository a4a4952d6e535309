import * as z from "zod";

// Sending an e-mail to a contact (ADR 0071): the compose form's schema and the sentences it answers with. Browser-safe:
// the dialog checks with the same schema the server sends with.

export const COMPOSE_LIMITS = { subject: 150, body: 10_000 } as const;

export const SEND_MESSAGES = {
  subject: "Give the e-mail a subject.",
  subjectLong: `Keep the subject to ${COMPOSE_LIMITS.subject} characters.`,
  body: "Write the e-mail.",
  bodyLong: `Keep the e-mail to ${COMPOSE_LIMITS.body.toLocaleString("en-US")} characters.`,
  noAddress: (name: string) => `${name} has no e-mail address: add one to their details first.`,
  bounced: (name: string) => `${name}'s address bounced: nothing more goes to it until you change it in their details.`,
  optedOut: (name: string) => `${name} unsubscribed from automatic e-mails: action plans do not write to them.`,
  noPostalAddress: "Marketing e-mail must carry your postal address: add it in Settings → Account → Agent profile.",
  noOrigin: "The unsubscribe link needs the app's address, which is not set up yet.",
  fairHousing: "Review the highlighted phrases before sending: each can read as a Fair Housing problem.",
  tooMany: "That is a lot of e-mail for one day: the limit is there to protect your sending reputation. Try again tomorrow.",
  gmailReconnect: "Your Gmail needs reconnecting (Settings → E-mail). Until then, disconnect it there to send as “you via Porchlight”.",
  notQueued: "The e-mail could not be handed to our provider. Nothing was sent; try again in a minute.",
  sent: (name: string, via: string) => `E-mail to ${name} sent ${via}`,
} as const;

export const ComposeSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, SEND_MESSAGES.subject)
    .max(COMPOSE_LIMITS.subject, SEND_MESSAGES.subjectLong)
    .transform((s) => s.replace(/\s+/g, " ")),
  body: z.string().trim().min(1, SEND_MESSAGES.body).max(COMPOSE_LIMITS.body, SEND_MESSAGES.bodyLong),
  templateId: z
    .string()
    .max(64)
    .optional()
    .transform((v) => v || null),
  /** The agent saw the Fair Housing flags and sends as written. */
  reviewed: z
    .string()
    .optional()
    .transform((v) => v === "1" || v === "on"),
});
export type ComposeInput = z.infer<typeof ComposeSchema>;

/** What the compose dialog offers: the agent's e-mail templates, and who the e-mail comes from. */
export interface ComposeOptions {
  templates: { id: string; name: string; subject: string; body: string; scope: "mine" | "team" }[];
  /** Text templates, for a text written into the phone's messages app. */
  texts: { id: string; name: string; body: string; scope: "mine" | "team" }[];
  from: { via: "gmail" | "porchlight"; label: string; note: string };
}
