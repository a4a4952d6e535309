// The team's public lead form (ADR 0040): what the form and the Team leads page say. Client-safe.

/** The hidden field bots fill in and people don't. */
export const LEAD_FORM_HONEYPOT = "website";

export const LEAD_FORM_MESSAGES = {
  fix: "Please correct the marked fields.",
  reachable: "Give a phone number or an e-mail address, so the team can answer you.",
  consent: "Tick the box to let the team contact you about your enquiry.",
  messageTooLong: "Keep the message under 2,000 characters.",
  tooMany: "Too many enquiries from this connection in the last hour. Please try again later.",
  failed: "Your message could not be sent just now. Please try again in a minute.",
  bot: "Please try again later.",
} as const;

export const leadFormPath = (key: string) => `/inquire/${key}`;
