import type { ContactInterest } from "~/db/enums";

// Spec sections 3, 5 and 8 (contact form), with decisions.md's single reply promise and setup time.
export const INTEREST_LABELS: Record<ContactInterest, string> = {
  "ai-content": "AI Content",
  "commission-tracking": "Commission Tracking",
  pipeline: "Pipeline Management",
  mobile: "Mobile CRM",
  other: "Other",
};

export const CONTACT_MESSAGES = {
  consentToast: { title: "Consent Required", description: "Please agree to be contacted about the product." },
  consentInline: "Consent is required to submit this form.",
  sentToast: {
    title: "Thanks! We'll reach out within 1 business day",
    description: "Message sent successfully! We'll respond within 1 business day.",
  },
  failed: "Your message could not be sent. Please try again in a moment, or write to hello@porchlight.app.",
  tooMany: "Too many messages from this connection. Please wait a while and try again, or write to hello@porchlight.app.",
} as const;

/** The hidden field bots fill in. */
export const CONTACT_HONEYPOT = "website_url";
