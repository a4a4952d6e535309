import type { BusinessHoursJson, RouteTargetJson, TeamRoutingRule } from "~/db/schema";
import { PROPERTY_TYPE_LABELS, SOURCE_LABELS } from "~/modules/contacts/contacts.messages";

// Lead routing's pure rules (ADR 0078): reading a US address, matching a lead against a rule, business hours, the
// rotation within a group, and the words the pages use. Browser-safe: the routing page shows rules with these labels.

/** What a rule looks at on a lead. */
export interface RoutableLead {
  source: string;
  priceCents: number | null;
  address: string | null;
  language: string | null;
  propertyType: string | null;
}

export type RuleConditions = Pick<TeamRoutingRule, "sources" | "minPriceCents" | "maxPriceCents" | "areas" | "language" | "propertyType">;

const STATE_ZIP = /^([A-Za-z]{2})(?:\s+(\d{5})(?:-\d{4})?)?$/;
const TRAILING_STATE_ZIP = /^(.*?)\s+([A-Za-z]{2})\s+(\d{5})(?:-\d{4})?$/;

const normalCity = (city: string) => city.trim().replace(/\s+/g, " ").toLowerCase();

/**
 * The ZIP code and city of a US address, lower-cased: "12 Elm St, Austin, TX 78723" → { zip: "78723", city: "austin" }.
 * The address is cut at its commas; the part that is a two-letter state with an optional ZIP (+4 ignored) ends it, and the
 * part before that is the city. Without commas there, "Austin TX 78723" at the end is read as city, state, ZIP. Anything
 * else gives nulls: a rule's area then does not match (never a guess).
 */
export function parseUsAddress(address: string | null | undefined): { zip: string | null; city: string | null } {
  if (!address) return { zip: null, city: null };
  const parts = address
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "" && !/^(usa|us|united states)$/i.test(p));
  for (let i = parts.length - 1; i >= 1; i--) {
    const m = STATE_ZIP.exec(parts[i]!);
    if (m) return { zip: m[2] ?? null, city: normalCity(parts[i - 1]!) || null };
  }
  const last = parts.at(-1);
  const m = last ? TRAILING_STATE_ZIP.exec(last) : null;
  if (m) return { zip: m[3]!, city: parts.length > 1 ? normalCity(m[1]!) || null : null };
  return { zip: null, city: null };
}

/** An area as a rule keeps it: a five-digit ZIP, or a city lower-cased. */
export const normalArea = (area: string) => (/^\d{5}$/.test(area.trim()) ? area.trim() : normalCity(area));

/** Whether the lead meets every condition the rule sets (a rule with none matches every lead). */
function ruleMatches(rule: RuleConditions, lead: RoutableLead): boolean {
  if (rule.sources.length > 0 && !rule.sources.includes(lead.source as never)) return false;
  if (rule.minPriceCents !== null || rule.maxPriceCents !== null) {
    if (lead.priceCents === null) return false;
    if (rule.minPriceCents !== null && lead.priceCents < rule.minPriceCents) return false;
    if (rule.maxPriceCents !== null && lead.priceCents > rule.maxPriceCents) return false;
  }
  if (rule.areas.length > 0) {
    const { zip, city } = parseUsAddress(lead.address);
    if (!rule.areas.some((a) => (a === zip && zip !== null) || (a === city && city !== null))) return false;
  }
  if (rule.language && (!lead.language || lead.language.trim().toLowerCase() !== rule.language.toLowerCase())) return false;
  if (rule.propertyType && lead.propertyType !== rule.propertyType) return false;
  return true;
}

/** The first rule the lead matches, and its number (1-based), in the order given. */
export function firstMatch<R extends RuleConditions>(rules: readonly R[], lead: RoutableLead): { rule: R; number: number } | null {
  const index = rules.findIndex((r) => ruleMatches(r, lead));
  return index < 0 ? null : { rule: rules[index]!, number: index + 1 };
}

/** Whether `at` falls in business hours: one of the days, from ≤ time < to, on the team's wall clock. */
export function inBusinessHours(hours: BusinessHoursJson | null, wall: { date: string; time: string }): boolean {
  if (!hours) return true;
  const weekday = new Date(`${wall.date}T00:00:00Z`).getUTCDay();
  return hours.days.includes(weekday) && wall.time >= hours.from && wall.time < hours.to;
}

/**
 * The next member in `order` after `last` (wrapping) that `eligible` accepts; null when none does. A `last` no longer in
 * the order starts from the top.
 */
export function nextInOrder(order: readonly string[], last: string | null, eligible: (id: string) => boolean): string | null {
  const at = last ? order.indexOf(last) : -1;
  return [...order.slice(at + 1), ...order.slice(0, at + 1)].find(eligible) ?? null;
}

const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { maximumFractionDigits: 0 })}`;

/** A rule's conditions in words: "Zillow in 78723, $300,000–$500,000". */
export function conditionsLabel(rule: RuleConditions): string {
  const parts: string[] = [];
  if (rule.sources.length > 0) parts.push(rule.sources.map((s) => SOURCE_LABELS[s]).join(" or "));
  if (rule.areas.length > 0)
    parts.push(`in ${rule.areas.map((a) => (/^\d{5}$/.test(a) ? a : a.replace(/\b\w/g, (c) => c.toUpperCase()))).join(", ")}`);
  if (rule.minPriceCents !== null && rule.maxPriceCents !== null) parts.push(`${dollars(rule.minPriceCents)}–${dollars(rule.maxPriceCents)}`);
  else if (rule.minPriceCents !== null) parts.push(`from ${dollars(rule.minPriceCents)}`);
  else if (rule.maxPriceCents !== null) parts.push(`up to ${dollars(rule.maxPriceCents)}`);
  if (rule.language) parts.push(`speaks ${rule.language}`);
  if (rule.propertyType) parts.push(PROPERTY_TYPE_LABELS[rule.propertyType].toLowerCase());
  return parts.length > 0 ? parts.join(" ") : "Any lead";
}

/** A target in words, with members' names: "Ivy Agent", "Ivy Agent or Omar Admin in turn", "the pond". */
export function targetLabel(target: RouteTargetJson, names: ReadonlyMap<string, string>): string {
  if (target.kind === "pond") return "the pond";
  const who = target.agents.map((id) => names.get(id) ?? "a former member");
  return target.kind === "agent" ? who[0]! : `${who.join(", ")} in turn`;
}

export const ROUTING_MESSAGES = {
  managersOnly: "Only the team's owner and admins can change routing.",
  notFound: "That rule was not found.",
  target: "Choose where matching leads go: an agent, a group of agents, or the pond.",
  agent: "Choose one member of your team.",
  group: "Choose at least two members of your team for a group.",
  price: "Prices are whole dollars, 0 or more.",
  priceOrder: "The lowest price must not be above the highest.",
  area: "Areas are city names or five-digit ZIP codes, separated by commas (at most 20).",
  language: "A language is at most 40 letters.",
  source: "Choose sources from the list.",
  propertyType: "Choose a property type from the list.",
  days: "Choose at least one business day.",
  hours: "Business hours are from–to times like 09:00 and 17:30, the end after the start.",
  cap: "The daily cap is a whole number of leads from 1 to 500, or empty for no cap.",
  reassignMinutes: "Reassign after a whole number of minutes from 5 to 1,440, or leave it empty to turn it off.",
  reassignMax: "Reassign at most 1 to 10 times.",
  rules: "A team can have at most 50 routing rules.",
} as const;

export const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
