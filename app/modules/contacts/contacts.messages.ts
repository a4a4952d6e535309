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
} as const;

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
  other: "Other",
};
