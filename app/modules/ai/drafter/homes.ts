import type { PropertyType } from "~/db/enums";
import type { DraftContact, DraftDeal, DraftEnvelope, ListingFacts } from "../draft-types";
import { positive } from "./money";
import { clean } from "./text";

// The property a contact is looking for or selling, in words, and the facts of a listing.

const TYPE_NOUNS: Record<PropertyType, { noun: string; article: boolean; rooms: boolean }> = {
  house: { noun: "home", article: true, rooms: true },
  condo: { noun: "condo", article: true, rooms: true },
  townhouse: { noun: "townhouse", article: true, rooms: true },
  land: { noun: "land", article: false, rooms: false },
  commercial: { noun: "commercial property", article: true, rooms: false },
  other: { noun: "property", article: true, rooms: true },
};

// "an 8-bedroom", "an 11-bedroom", "an 18,000 sq ft": numbers said with a vowel sound first.
export const article = (word: string) => (/^[aeiou]/i.test(word) || /^8/.test(word) || /^1[18](?![\d.])/.test(word) ? "an" : "a");

export function roomsOf(contact: Pick<DraftContact, "propertyType" | "bedrooms" | "bathrooms">, long: boolean): string[] {
  if (!TYPE_NOUNS[contact.propertyType].rooms) return [];
  const rooms: string[] = [];
  if (contact.bedrooms === 0) rooms.push("studio");
  else if (positive(contact.bedrooms)) rooms.push(`${contact.bedrooms}-bedroom`);
  if (positive(contact.bathrooms)) rooms.push(`${contact.bathrooms}-${long ? "bathroom" : "bath"}`);
  return rooms;
}

/** "a 3-bedroom, 2-bath condo in Maple Grove", "land in Maple Grove", "a home" (article: false drops the "a"). */
export function describeHome(contact: DraftContact, opts: { long?: boolean; location?: boolean; article?: boolean } = {}): string {
  const type = TYPE_NOUNS[contact.propertyType];
  const rooms = roomsOf(contact, opts.long ?? false);
  const noun = rooms.length ? `${rooms.join(", ")} ${type.noun}` : type.noun;
  const where = opts.location !== false && contact.location ? ` in ${clean(contact.location, 80)}` : "";
  return `${type.article && opts.article !== false ? `${article(noun)} ` : ""}${noun}${where}`;
}

/** Whether the contact is selling: a seller or listing tag, a listing or sale deal, a listing appointment. */
export function isSeller(contact: DraftContact | null, deals: DraftDeal[]): boolean {
  if (!contact) return false;
  return (
    contact.tags.some((t) => /sell|listing/i.test(t)) ||
    deals.some((d) => /\blisting\b|\bsale\b|\bsell/i.test(d.title)) ||
    /^\s*listing/i.test(contact.lastActivitySummary ?? "")
  );
}

/** Whether the contact's search says anything beyond the default "a home". */
export function hasSearch(contact: DraftContact | null): contact is DraftContact {
  if (!contact) return false;
  return Boolean(
    contact.location ||
      positive(contact.budgetMin) ||
      positive(contact.budgetMax) ||
      contact.bedrooms != null ||
      !["house", "other"].includes(contact.propertyType),
  );
}

const wholeOrHalf = (n: number | null | undefined): number | null =>
  typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.round(n * 2) / 2 : null;

/**
 * The listing's facts, one place for the drafter and the prompt: what the agent typed in the listing quick action,
 * else the contact's record for the rooms. Size and price come only from what the agent typed (a seller's contact
 * holds no list price, and a budget is a buyer's).
 */
export function listingFactsOf(env: Pick<DraftEnvelope, "listing" | "contact">): ListingFacts {
  const typed = env.listing;
  return {
    bedrooms: wholeOrHalf(typed?.bedrooms) ?? wholeOrHalf(env.contact?.bedrooms),
    bathrooms: wholeOrHalf(typed?.bathrooms) ?? wholeOrHalf(env.contact?.bathrooms),
    squareFeet: positive(typed?.squareFeet) ? Math.round(typed.squareFeet) : null,
    price: positive(typed?.price) ? typed.price : null,
  };
}

const areaFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
/** "1,850 sq ft". */
export const formatArea = (squareFeet: number) => `${areaFormat.format(squareFeet)} sq ft`;
