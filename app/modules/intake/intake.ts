import type { IntakeFormat } from "~/db/enums";

// Lead intake's words, shared by the server (bounces, results) and the Lead sources tab.

export const INTAKE_MESSAGES = {
  noSuchAddress: "No Porchlight lead intake address by that name: check the address in Settings → Lead sources.",
  inactive: "This Porchlight account is not taking leads: its subscription is not active.",
  tooLarge: "This e-mail is too large for Porchlight's lead intake (512 KB at most). Forward the lead's notification alone.",
  tooMany: "Too many e-mails to this Porchlight lead intake address in the last hour. Try again later.",
  notFound: "That lead e-mail is not waiting for review any more.",
  rotated: "Your lead intake address is new: e-mails to the old one now bounce. Update your forwarding rules.",
  confirmed: "Lead added",
  teamLead: "Lead added to your team's leads",
  discarded: "E-mail discarded",
} as const;

/** The formats by name, for the lists. */
export const INTAKE_FORMAT_LABELS: Record<IntakeFormat, string> = {
  zillow: "Zillow",
  realtor_com: "Realtor.com",
  homes_com: "Homes.com",
  redfin: "Redfin",
  trulia: "Trulia",
  website_form: "Website form",
  api: "Lead API",
  unknown: "Not recognised",
};

/**
 * How to send lead e-mails to the address, shown under it. Portals differ in where their lead-notification settings
 * are, and change them; these steps say what to look for rather than menus that may move.
 */
export const INTAKE_GUIDES: readonly { title: string; steps: string }[] = [
  {
    title: "Zillow, Trulia, Realtor.com, Homes.com, Redfin",
    steps:
      "In the portal's agent account, find where lead notifications are e-mailed and add this address as a recipient. Or leave them coming to your own mailbox and forward them with a rule (below).",
  },
  {
    title: "Your website or IDX",
    steps: "Add this address as a recipient of the form's lead notifications. Labelled fields (Name, Email, Phone, Message) are read.",
  },
  {
    title: "Gmail",
    steps:
      "Settings → See all settings → Forwarding and POP/IMAP → Add a forwarding address. Gmail e-mails a confirmation code to the address: it shows here under To review. Then make a filter (for example From: zillow.com) with Forward it to this address.",
  },
  {
    title: "Outlook",
    steps: "Settings → Mail → Rules → Add new rule: when the message is from the portal, Forward to this address.",
  },
];

/** What Settings' API key forms answer (the new key only here, once). */
export type ApiKeyResult =
  | { ok: true; intent: "create"; key: string; name: string }
  | { ok: true; intent: "revoke" }
  | { ok: false; intent: "create" | "revoke"; error: string };

export const API_KEYS_ACTION = "/settings/api-keys";
