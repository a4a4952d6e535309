import type { DraftTone } from "../../draft-types";
import { listingHighlights } from "../agent-input";
import { pick, type Ctx } from "../context";
import { formatArea, listingFactsOf, roomsOf } from "../homes";
import { formatMoney } from "../money";
import { CALLS_TO_ACTION, LISTING_NOUNS, LISTING_OPENINGS, LOCATION_LINES, PRICE_LINES, TYPE_LINES } from "../phrases/listing";
import { capitalise, clean, fitToLimit, listWords } from "../text";

// The listing description: an opening naming the property, the agent's highlights, the place, the price and a call to
// action, shrunk sentence by sentence to the MLS limit.

function listingSubject(ctx: Ctx): { thing: string; where: string } {
  const c = ctx.contact;
  const facts = listingFactsOf(ctx.env);
  const type = c?.propertyType ?? "house";
  const parts = roomsOf({ propertyType: type, bedrooms: facts.bedrooms, bathrooms: facts.bathrooms }, true);
  if (facts.squareFeet) parts.push(formatArea(facts.squareFeet));
  const noun = LISTING_NOUNS[type];
  return { thing: parts.length ? `${parts.join(", ")} ${noun}` : noun, where: c?.location ? ` in ${clean(c.location, 80)}` : "" };
}

type HighlightStyle = (items: readonly string[], mark: string) => string;
const asList =
  (lead: string): HighlightStyle =>
  (items, mark) =>
    `${lead} ${listWords(items)}${mark}`;
const asFragments: HighlightStyle = (items, mark) => items.map((item, i) => `${capitalise(item)}${i === items.length - 1 ? mark : "."}`).join(" ");
const HIGHLIGHT_STYLES: Record<DraftTone, readonly HighlightStyle[]> = {
  friendly: [asList("Highlights:"), asFragments, asList("What stands out:")],
  professional: [asList("Features:"), asList("Notable features:"), asList("Key features:")],
  concise: [asList("Features:"), asFragments, asList("Highlights:")],
  enthusiastic: [asList("Highlights you'll love:"), asList("Standout features:"), asFragments],
};

interface Segment {
  text: string;
  /** Lower numbers are kept longer when the text must shrink. */
  priority: number;
}

export function writeListing(ctx: Ctx): string {
  const { thing, where } = listingSubject(ctx);
  const highlights = listingHighlights(ctx.env.userInput);
  const c = ctx.contact;
  const opening = pick(LISTING_OPENINGS[ctx.tone], ctx.v)(thing, where);
  const mark = ctx.tone === "enthusiastic" ? "!" : ".";
  const style = pick(HIGHLIGHT_STYLES[ctx.tone], ctx.v, 1);
  const highlightText = (items: string[]) => (items.length ? style(items, mark) : "");
  const extras: Segment[] = [];
  if (ctx.tone !== "concise") {
    const place = c?.location ? clean(c.location, 80) : "";
    if (place && LOCATION_LINES[ctx.tone].length) extras.push({ text: pick(LOCATION_LINES[ctx.tone], ctx.v, 2)(place), priority: 3 });
    extras.push({ text: pick(TYPE_LINES[c?.propertyType ?? "house"], ctx.v, 1), priority: 4 });
  }
  const { price } = listingFactsOf(ctx.env);
  if (price) extras.push({ text: pick(PRICE_LINES[ctx.tone], ctx.v)(formatMoney(price, ctx.env.currency)), priority: 1 });
  const cta: Segment = { text: pick(CALLS_TO_ACTION[ctx.tone], ctx.v, 2), priority: 2 };
  const limit = ctx.env.mlsLimit;
  const compose = (items: string[], segs: Segment[]) => [opening, highlightText(items), ...segs.map((s) => s.text)].filter(Boolean).join(" ");
  let items = highlights;
  let segs = [...extras, cta];
  // Shrink to the MLS limit: drop the least important sentence first, then highlights from the end, then the
  // call to action, the last highlight and the price; only if the opening alone is still too long is it cut, at a
  // word boundary.
  while (limit !== null && compose(items, segs).length > limit) {
    const lowest = segs.reduce<Segment | null>((low, s) => (!low || s.priority > low.priority ? s : low), null);
    if (lowest && lowest.priority > 2) segs = segs.filter((s) => s !== lowest);
    else if (items.length > 1) items = items.slice(0, -1);
    else if (lowest && lowest.priority > 1) segs = segs.filter((s) => s !== lowest);
    else if (items.length) items = [];
    else if (lowest) segs = segs.filter((s) => s !== lowest);
    else break;
  }
  return fitToLimit(compose(items, segs), limit);
}
