import type { PropertyType } from "~/db/enums";
import type { DraftTone } from "../../draft-types";
import { article } from "../homes";
import { capitalise } from "../text";

// The listing description's wording: plain data (strings, and one-line templates for the facts they name), chosen by
// ../writers/listing.ts by tone, property type and variant.

export const LISTING_NOUNS: Record<PropertyType, string> = {
  house: "home",
  condo: "condo",
  townhouse: "townhouse",
  land: "parcel of land",
  commercial: "commercial property",
  other: "property",
};

export const PRICE_LINES: Record<DraftTone, readonly ((price: string) => string)[]> = {
  friendly: [(p) => `Offered at ${p}.`, (p) => `Priced at ${p}.`, (p) => `Listed at ${p}.`],
  professional: [(p) => `Offered at ${p}.`, (p) => `List price: ${p}.`, (p) => `Offered at ${p}.`],
  concise: [(p) => `Offered at ${p}.`, (p) => `List price ${p}.`, (p) => `${p}.`],
  enthusiastic: [(p) => `Offered at ${p}!`, (p) => `All this for ${p}!`, (p) => `Priced at ${p}!`],
};

type ListingOpen = (thing: string, where: string) => string;
export const LISTING_OPENINGS: Record<DraftTone, readonly ListingOpen[]> = {
  friendly: [(t, w) => `Welcome to this ${t}${w}.`, (t, w) => `Come see this ${t}${w}.`, (t, w) => `Meet your next ${t}${w}.`],
  professional: [
    (t, w) => `Offered for sale: ${article(t)} ${t}${w}.`,
    (t, w) => `Presenting ${article(t)} ${t}${w}.`,
    (t, w) => `Now available: ${article(t)} ${t}${w}.`,
  ],
  concise: [(t, w) => `${capitalise(t)} for sale${w}.`, (t, w) => `${capitalise(article(t))} ${t}${w}.`, (t, w) => `For sale: ${t}${w}.`],
  enthusiastic: [(t, w) => `Welcome to this ${t}${w}!`, (t, w) => `Don't miss this ${t}${w}!`, (t, w) => `Say hello to this ${t}${w}!`],
};

export const LOCATION_LINES: Record<DraftTone, readonly ((place: string) => string)[]> = {
  friendly: [(p) => `Make ${p} home.`, (p) => `Your next chapter in ${p} starts here.`, (p) => `Discover life in ${p}.`],
  professional: [(p) => `An opportunity to own in ${p}.`, (p) => `A ${p} address.`, (p) => `An opportunity in ${p}.`],
  concise: [],
  enthusiastic: [(p) => `Your ${p} address awaits!`, (p) => `${p} living starts here!`, (p) => `Make ${p} yours!`],
};

export const TYPE_LINES: Record<PropertyType, readonly string[]> = {
  house: ["A home to settle into and make your own.", "Ready for its next chapter.", "A place to put down roots."],
  condo: ["Condo living with room to make it your own.", "A condo ready for its next owner.", "An easy place to call home."],
  townhouse: ["Townhouse living with space to make your own.", "A townhouse ready for its next owner.", "A place to settle in and make your own."],
  land: ["Bring your plans and your builder.", "A blank canvas for your plans.", "Room for your vision."],
  commercial: ["A commercial opportunity worth a closer look.", "Ready for its next business.", "A property worth a closer look for your business."],
  other: ["A property worth a closer look.", "Ready for its next owner.", "A place with possibilities."],
};

export const CALLS_TO_ACTION: Record<DraftTone, readonly string[]> = {
  friendly: ["Schedule your private showing today.", "Book a showing and see it for yourself.", "Come take a look."],
  professional: ["Private showings are available by appointment.", "Contact the listing agent to arrange a showing.", "Showings by appointment."],
  concise: ["Showings by appointment.", "Book a showing.", "Showings available."],
  enthusiastic: ["Book your showing today!", "Come see it before it's gone!", "Schedule your private tour today!"],
};
