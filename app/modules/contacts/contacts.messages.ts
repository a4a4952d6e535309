import type { ContactSource, ContactStatus, PropertyType } from "~/db/enums";

// Spec sections 5 and 8 (Add New Contact). zod-free, so the browser can use them.
export const CONTACT_MESSAGES = {
  nameRequired: "Name is required",
  phoneOrEmail: "Phone or email is required",
  validationTitle: "Validation Error",
  addFailed: "Failed to add contact. Please try again.",
  added: "Contact Added Successfully",
  removed: "Contact Removed",
  undoFailed: { title: "Undo Failed", description: "Could not remove the contact" },
  possibleDuplicate: "You may have this contact already. Open it instead, or save anyway to keep both.",
} as const;

/** Another contact with the same e-mail or phone, as the warning before a save names it (duplicates.server.ts). */
export interface PossibleDuplicate {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  reason: "email" | "phone";
}

/** "Ann Lee has the e-mail ann@example.com": what one possible duplicate shares with the contact being saved. */
export function duplicateLine(duplicate: PossibleDuplicate): string {
  return duplicate.reason === "email" ? `has the e-mail ${duplicate.email}` : `has the phone number ${duplicate.phone}`;
}

/** The form field a save anyway sends (value "1"): the agent saw the warning and saves on purpose. */
export const SAVE_ANYWAY_FIELD = "duplicateOk";

export const STATUS_LABELS: Record<ContactStatus, string> = { hot: "Hot", warm: "Warm", cold: "Cold" };
export const PROPERTY_TYPE_LABELS: Record<PropertyType, string> = {
  house: "House",
  condo: "Condo",
  townhouse: "Townhouse",
  land: "Land",
  commercial: "Commercial",
  other: "Other",
};
export const SOURCE_LABELS: Record<ContactSource, string> = {
  website: "Website",
  referral: "Referral",
  cold_call: "Cold call",
  social_media: "Social media",
  open_house: "Open house",
  zillow: "Zillow",
  realtor_com: "Realtor.com",
  homes_com: "Homes.com",
  redfin: "Redfin",
  trulia: "Trulia",
  other: "Other",
};
