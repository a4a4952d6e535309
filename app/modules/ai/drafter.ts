import { DAY_MS } from "~/lib/dates";
import type { PropertyType } from "~/db/enums";
import type { DraftContact, DraftDeal, DraftEnvelope, DraftTaskItem, DraftTone, ListingFacts } from "./draft-types";
import { applySuggestion, checkFairHousing } from "./fair-housing";

/**
 * Porchlight's offline drafter: writes every AI task from the envelope's facts alone, with no model. It is
 * deterministic (the same envelope gives the same text) and `envelope.variant` picks among phrasings, so
 * "Regenerate" gives another version. It never invents a figure or a feature: what it does not know, it leaves
 * out or says it does not know. Pure TypeScript, no server imports: the browser can load it.
 */
export function draft(envelope: DraftEnvelope): string {
  const ctx = contextOf(envelope);
  const text = WRITERS[envelope.task](ctx);
  return tidy(text);
}

// ─── Context ──────────────────────────────────────────────────────────────────────────────────────────────

interface Ctx {
  env: DraftEnvelope;
  tone: DraftTone;
  /** Non-negative whole variant, for picking phrasings. */
  v: number;
  contact: DraftContact | null;
  /** The contact's first name as one would greet them, or null. */
  first: string | null;
  /** The contact's full name, tidied, or null. */
  fullName: string | null;
  openDeals: DraftDeal[];
  money: (amount: number) => string;
}

function contextOf(env: DraftEnvelope): Ctx {
  const v = Number.isFinite(env.variant) ? Math.abs(Math.trunc(env.variant)) : 0;
  return {
    env,
    tone: env.tone,
    v,
    contact: env.contact,
    first: firstNameOf(env.contact?.name),
    fullName: cleanName(env.contact?.name),
    openDeals: env.deals.filter(isOpenDeal),
    money: (amount) => formatMoney(amount, env.currency),
  };
}

const WRITERS: Record<DraftEnvelope["task"], (ctx: Ctx) => string> = {
  follow_up: writeFollowUp,
  listing: writeListing,
  market: writeMarket,
  deal_review: writeDealReview,
  week_plan: writeWeekPlan,
  advice: writeAdvice,
};

/** One of `options`, chosen by the variant; `salt` shifts paragraphs against each other. */
function pick<T>(options: readonly T[], v: number, salt = 0): T {
  return options[(v + salt) % options.length] as T;
}

// ─── Shared formatting (also used by prompt.ts and fallback.ts) ──────────────────────────────────────────

const HONORIFICS = /^(?:mr|mrs|ms|miss|mx|dr|prof)\.?$/i;

export function cleanName(name: string | null | undefined): string | null {
  const tidy = (name ?? "").replace(/[{}[\]<>]/g, "").replace(/\s+/g, " ").trim();
  return tidy || null;
}

const GROUPS = /^(?:family|household|team|group|estate|trust|llc|inc\.?|ltd\.?)$/i;

/**
 * How to greet a contact: "Zoë O'Brien" → "Zoë"; "O'Brien, Zoë" → "Zoë"; "Dr. Ann Lee" → "Dr. Lee";
 * "The Okafor family" → "Okafor family"; "Ann & Raj Patel" → "Ann and Raj"; "" → null.
 */
export function firstNameOf(name: string | null | undefined): string | null {
  const full = cleanName(name)?.replace(/^the\s+(?=\S+\s)/i, "") ?? null;
  if (!full) return null;
  const parts = full.replace(/,/g, " , ").replace(/\s+/g, " ").trim().split(" ");
  const last = parts[parts.length - 1] ?? "";
  if (GROUPS.test(last)) return full;
  const head = parts[0] ?? "";
  const joined = parts.findIndex((p) => p === "&" || p.toLowerCase() === "and");
  if (joined > 0 && !full.includes(",")) {
    // "Mr. and Mrs. Lee" stays whole; "Ann & Raj Patel" → "Ann and Raj".
    if (HONORIFICS.test(head)) return full.replace(/\s&\s/g, " and ");
    return parts.slice(0, parts.length > joined + 2 ? -1 : undefined).join(" ").replace(/\s&\s/g, " and ");
  }
  if (full.includes(",")) {
    const given = full.split(",")[1]?.trim().split(" ")[0];
    if (given) return given;
  }
  if (HONORIFICS.test(head) && parts.length > 1) {
    const title = head.replace(/\.?$/, ".");
    return `${title.charAt(0).toUpperCase()}${title.slice(1).toLowerCase()} ${last}`;
  }
  return head || null;
}

const moneyFormats = new Map<string, (n: number) => string>();
/** Whole units in the display currency: "$650,000", "€650,000", "NOK 650,000". */
export function formatMoney(amount: number, currency: string): string {
  let format = moneyFormats.get(currency);
  if (!format) {
    try {
      const nf = new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 0, maximumFractionDigits: 0 });
      format = (n) => nf.format(n);
    } catch {
      const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
      const code = currency.replace(/[^A-Za-z]/g, "").toUpperCase().slice(0, 3);
      format = (n) => (code ? `${nf.format(n)} ${code}` : nf.format(n));
    }
    moneyFormats.set(currency, format);
  }
  return format(Math.round(amount));
}

const positive = (n: number | null | undefined): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/** "between $400,000 and $650,000", "up to $650,000", "starting at $400,000", "around $500,000", or null. */
export function budgetPhrase(min: number | null, max: number | null, currency: string): string | null {
  const lo = positive(min) ? min : null;
  const hi = positive(max) ? max : null;
  if (lo !== null && hi !== null) {
    const [a, b] = lo <= hi ? [lo, hi] : [hi, lo];
    return a === b ? `around ${formatMoney(a, currency)}` : `between ${formatMoney(a, currency)} and ${formatMoney(b, currency)}`;
  }
  if (hi !== null) return `up to ${formatMoney(hi, currency)}`;
  if (lo !== null) return `starting at ${formatMoney(lo, currency)}`;
  return null;
}

/** "$400,000–$650,000", "up to $650,000", "from $400,000", or null: for lists. */
export function budgetRange(min: number | null, max: number | null, currency: string): string | null {
  const lo = positive(min) ? min : null;
  const hi = positive(max) ? max : null;
  if (lo !== null && hi !== null && lo !== hi) {
    const [a, b] = lo < hi ? [lo, hi] : [hi, lo];
    return `${formatMoney(a, currency)}–${formatMoney(b, currency)}`;
  }
  if (lo !== null && hi === null) return `from ${formatMoney(lo, currency)}`;
  return budgetPhrase(min, max, currency);
}

const TYPE_NOUNS: Record<PropertyType, { noun: string; article: boolean; rooms: boolean }> = {
  house: { noun: "home", article: true, rooms: true },
  condo: { noun: "condo", article: true, rooms: true },
  townhouse: { noun: "townhouse", article: true, rooms: true },
  land: { noun: "land", article: false, rooms: false },
  commercial: { noun: "commercial property", article: true, rooms: false },
  other: { noun: "property", article: true, rooms: true },
};

// "an 8-bedroom", "an 11-bedroom", "an 18,000 sq ft": numbers said with a vowel sound first.
const article = (word: string) => (/^[aeiou]/i.test(word) || /^8/.test(word) || /^1[18](?![\d.])/.test(word) ? "an" : "a");

function roomsOf(contact: Pick<DraftContact, "propertyType" | "bedrooms" | "bathrooms">, long: boolean): string[] {
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
function hasSearch(contact: DraftContact | null): contact is DraftContact {
  if (!contact) return false;
  return Boolean(contact.location || positive(contact.budgetMin) || positive(contact.budgetMax) || contact.bedrooms != null || !["house", "other"].includes(contact.propertyType));
}

// ─── Days ─────────────────────────────────────────────────────────────────────────────────────────────────

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function dayTime(day: string | null | undefined): number | null {
  const m = day ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(day) : null;
  if (!m) return null;
  const t = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(t) ? null : t;
}

/** Whole days from `from` to `to` (negative when `to` is earlier), or null when either is not a day. */
export function daysBetween(from: string | null | undefined, to: string | null | undefined): number | null {
  const a = dayTime(from);
  const b = dayTime(to);
  return a === null || b === null ? null : Math.round((b - a) / DAY_MS);
}

export function addDays(day: string, n: number): string {
  const t = dayTime(day) ?? 0;
  return new Date(t + n * DAY_MS).toISOString().slice(0, 10);
}

/** "Nov 12", or "Nov 12, 2025" when it is not this year; null for a missing or malformed day. */
export function formatDay(day: string | null | undefined, today: string): string | null {
  const t = dayTime(day);
  if (t === null) return null;
  const d = new Date(t);
  const sameYear = day?.slice(0, 4) === today.slice(0, 4);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}${sameYear ? "" : `, ${d.getUTCFullYear()}`}`;
}

function weekday(day: string): string {
  return WEEKDAYS[new Date(dayTime(day) ?? 0).getUTCDay()] ?? "";
}

/** "today", "yesterday", "tomorrow", "on Wednesday" (within the week either side), else "on Nov 12". */
export function whenPhrase(day: string | null | undefined, today: string): string | null {
  const diff = daysBetween(today, day);
  if (diff === null || !day) return null;
  if (diff === 0) return "today";
  if (diff === -1) return "yesterday";
  if (diff === 1) return "tomorrow";
  if (Math.abs(diff) < 7) return `on ${weekday(day)}`;
  return `on ${formatDay(day, today)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ─── The agent's input ────────────────────────────────────────────────────────────────────────────────────

const INJECTION = /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,60}\b(?:instructions?|prompts?|rules?|above|previous)\b|\bsystem prompt\b|\byou are now\b|\bact as\b|\bjailbreak\b/i;
const PLACEHOLDER = /\{\{?\s*(?:first[_ ]?name|name|client(?:[_ ]?name)?|contact(?:[_ ]?name)?|buyer|seller)\s*\}?\}|\[\s*(?:first[_ ]?name|name|client(?:[_ ]?name)?|contact(?:[_ ]?name)?|buyer|seller)\s*\]/gi;

/** Trims and collapses white space, drops template braces and brackets, caps at `max` on a word boundary. */
export function clean(text: string, max: number): string {
  const flat = text.replace(/\{[^{}]*\}\}?/g, " ").replace(/[{}[\]<>]/g, " ").replace(/\s+/g, " ").trim();
  return flat.length > max ? cutAtWord(flat, max) : flat;
}

/** The agent's input as safe sentences: placeholders filled (or dropped), prompt-injection sentences dropped. */
function agentSentences(input: string, name: string | null, max: number): string[] {
  const filled = clean(input.replace(PLACEHOLDER, name ?? ""), Number.MAX_SAFE_INTEGER);
  const seen = new Set<string>();
  const sentences = filled
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => {
      const key = s.toLowerCase();
      if (!s || seen.has(key) || INJECTION.test(s) || !/[\p{L}\p{N}]/u.test(s)) return false;
      seen.add(key);
      return true;
    });
  return fitToLimit(sentences.join(" "), max).split(/(?<=[.!?])\s+/).filter(Boolean);
}

type Who = "plural" | "singular" | "all" | "none";
const PLURAL_YOU: [RegExp, string][] = [
  [/\bthey're\b/gi, "you're"],
  [/\bthey've\b/gi, "you've"],
  [/\bthey'll\b/gi, "you'll"],
  [/\bthey\b/gi, "you"],
  [/\bthem\b/gi, "you"],
  [/\btheirs\b/gi, "yours"],
  [/\btheir\b/gi, "your"],
];
const SINGULAR_YOU: [RegExp, string][] = [
  [/\b(?:he|she)'s\b/gi, "you're"],
  [/\b(?:he|she)'ll\b/gi, "you'll"],
  [/\b(?:he|she)\b/gi, "you"],
  [/\bhim\b/gi, "you"],
  [/\bhis\b/gi, "your"],
  [/\bher(?=\s+(?:a|an|the|to|and|tomorrow|today|on|at|in|if|that|about|know)\b|\s*[.,!?;:]|$)/gi, "you"],
  [/\bher\b/gi, "your"],
];
const AGREEMENT: [RegExp, string][] = [
  [/\byou is\b/gi, "you are"],
  [/\byou was\b/gi, "you were"],
  [/\byou has\b/gi, "you have"],
  [/\byou does\b/gi, "you do"],
  [/\byou doesn't\b/gi, "you don't"],
  [/\byou isn't\b/gi, "you aren't"],
  [/\byou wasn't\b/gi, "you weren't"],
  [/\byou (want|need|like|love|seem|think|get|make|prefer|plan|hope|know|feel)s\b/gi, "you $1"],
];
/** Turns the agent's words about the client ("tell her she …") into words to the client ("you …"). */
function toYou(s: string, who: Who): string {
  if (who === "none") return s;
  const fixes = [...(who !== "singular" ? PLURAL_YOU : []), ...(who !== "plural" ? SINGULAR_YOU : []), ...AGREEMENT];
  return fixes.reduce((acc, [re, to]) => acc.replace(re, to), s);
}
function whoOf(target: string | undefined, fallback: Who): Who {
  if (!target) return fallback;
  if (/^them$|^the\s+(?:buyers|sellers)$/i.test(target)) return "plural";
  return "singular";
}
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const endSentence = (s: string, mark = ".") => (/[.!?]$/.test(s) ? s : `${s.replace(/[,;:\s-]+$/, "")}${mark}`);

const WHO = String.raw`(them|her|him|the\s+(?:client|buyers?|sellers?)|[A-Z][\p{L}'’-]*)`;
const LEAD = String.raw`^(?:please\s+)?`;
const MENTION = new RegExp(String.raw`${LEAD}(?:mention|note|say|add|include|stress|point\s+out|explain)\s+(?:to\s+${WHO}\s+)?(?:that\s+)?(.+)$`, "iu");
const TELL = new RegExp(String.raw`${LEAD}(?:tell|inform|let)\s+${WHO}\s+(?:know\s+)?(?:that\s+)?(.+)$`, "iu");
const REMIND = new RegExp(String.raw`${LEAD}remind\s+${WHO}\s+(about|of|that|to)\s+(.+)$`, "iu");
const ASK = new RegExp(String.raw`${LEAD}ask\s+(?:${WHO}\s+)?(if|whether|about|when|what|how|why|where)\s+(.+)$`, "iu");
const ASK_TO = new RegExp(String.raw`${LEAD}ask\s+(?:${WHO}\s+)?to\s+(.+)$`, "iu");

/** One sentence of the agent's point, reworded from an instruction ("tell them …") into what the e-mail says. */
function pointSentence(sentence: string): string {
  let m = MENTION.exec(sentence) ?? TELL.exec(sentence);
  if (m?.[2]) return endSentence(capitalise(toYou(m[2], whoOf(m[1], "none"))));
  m = REMIND.exec(sentence);
  if (m?.[2] && m[3]) return endSentence(`Just a reminder ${m[2].toLowerCase()} ${toYou(m[3], whoOf(m[1], "all"))}`);
  m = ASK.exec(sentence);
  if (m?.[2] && m[3]) return endSentence(`I also wanted to ask ${m[2].toLowerCase()} ${toYou(m[3], whoOf(m[1], "all")).replace(/\?$/, "")}`);
  m = ASK_TO.exec(sentence);
  if (m?.[2]) return endSentence(`Could you ${toYou(m[2], whoOf(m[1], "all")).replace(/[.!?]$/, "")}`, "?");
  return endSentence(capitalise(sentence));
}

/** Replaces flagged phrases when the suggestion only removes or renames; null when a flag would need rewriting. */
const ROOM_RENAMES = new Set(["bonus room", "garden studio"]);
const FAITHFUL_RENAMES = new Set([...ROOM_RENAMES, "accessible", "nearby schools", "home"]);
function fairHousingClean(text: string): string | null {
  let out = text;
  for (let guard = 0; guard < 8; guard++) {
    const flag = checkFairHousing(out)[0];
    if (!flag) return out.trim();
    const s = flag.suggestion.toLowerCase();
    const faithful = s === "" || flag.phrase.toLowerCase().includes(s) || FAITHFUL_RENAMES.has(s);
    if (!faithful) return null;
    out = applySuggestion(out, flag);
  }
  return null;
}

/** The agent's point for an e-mail or an answer: at most `max` characters, clean of Fair Housing phrases. */
function agentPoint(input: string, name: string | null, max = 400): string | null {
  const sentences = agentSentences(input, name, max)
    .map(pointSentence)
    .map((s) => fairHousingClean(s))
    .filter((s): s is string => Boolean(s && /[\p{L}\p{N}]{2}/u.test(s)));
  return sentences.length ? sentences.join(" ") : null;
}

// ─── Deals ────────────────────────────────────────────────────────────────────────────────────────────────

export const isOpenDeal = (deal: DraftDeal) => deal.stage !== "closed_won" && deal.stage !== "closed_lost";

/** dealValue × probability / 100, or null when either is missing. */
export function weightedValue(deal: DraftDeal): number | null {
  return deal.dealValue != null && deal.probability != null ? (deal.dealValue * deal.probability) / 100 : null;
}

const dealName = (deal: DraftDeal) => clean(deal.title, 80) || "Untitled deal";
const stageLabel = (deal: DraftDeal) => clean(deal.stageName, 40) || clean(deal.stage.replace(/_/g, " "), 40);

/** Days a stage may sit before it is slipping. */
/** Days in a stage after which the review flags a deal: a coaching rule of thumb, stated as such in the text. */
const STAGE_PATIENCE: Record<string, number> = { lead: 30, qualified: 21, showing: 21, offer: 7, under_contract: 45 };

interface DealRisk {
  deal: DraftDeal;
  score: number;
  issues: string[];
  weighted: number | null;
  nextStep: string;
}

function assessDeal(deal: DraftDeal, ctx: Ctx): DealRisk {
  const today = ctx.env.today;
  const issues: string[] = [];
  let score = 0;
  const toClose = daysBetween(today, deal.expectedCloseDate);
  const closeDay = formatDay(deal.expectedCloseDate, today);
  if (toClose === null) {
    score += 1;
    issues.push("no expected close date set");
  } else if (toClose < 0) {
    score += 4 + Math.min(3, Math.floor(-toClose / 7));
    issues.push(`expected close date (${closeDay}) passed ${plural(-toClose, "day")} ago`);
  } else if (toClose <= 7 && deal.stage !== "under_contract") {
    score += 3;
    issues.push(`expected to close ${toClose === 0 ? "today" : `in ${plural(toClose, "day")}`} (${closeDay}) but still at ${stageLabel(deal)}`);
  } else if (toClose <= 14) {
    score += 1;
    issues.push(`closing ${toClose === 0 ? "today" : `in ${plural(toClose, "day")}`} (${closeDay})`);
  }
  const patience = STAGE_PATIENCE[deal.stage] ?? 21;
  if (deal.daysInStage > patience) {
    score += deal.daysInStage > patience * 2 ? 3 : 2;
    issues.push(`${plural(deal.daysInStage, "day")} in ${stageLabel(deal)} (this review flags ${stageLabel(deal)} after ${patience})`);
  }
  const quiet = daysBetween(deal.lastActivityDay, today);
  if (quiet === null) {
    score += 2;
    issues.push("no activity logged yet");
  } else if (quiet >= 14) {
    score += 2;
    issues.push(`no activity for ${plural(quiet, "day")} (last ${formatDay(deal.lastActivityDay, today)})`);
  } else if (quiet >= 7) {
    score += 1;
    issues.push(`quiet for ${plural(quiet, "day")}`);
  }
  if (deal.dealValue == null) {
    score += 0.5;
    issues.push("no deal value, so it is missing from your forecast");
  }
  return { deal, score, issues, weighted: weightedValue(deal), nextStep: dealNextStep(deal, toClose, quiet) };
}

/** Per stage: the next step, and the step when the deal has gone quiet (a call comes first). */
const DEAL_STEPS: Record<string, { active: (who: string) => string; quiet: (who: string) => string }> = {
  lead: {
    active: (w) => `Call ${w} to qualify: timeline, budget and financing.`,
    quiet: (w) => `Call ${w} this week to qualify: timeline, budget and financing.`,
  },
  qualified: {
    active: (w) => `Confirm ${w}'s pre-approval and book the first showings.`,
    quiet: (w) => `Call ${w} this week to confirm pre-approval and book the first showings.`,
  },
  showing: {
    active: (w) => `Ask ${w} which homes are still in the running and book the next showings.`,
    quiet: (w) => `Call ${w} this week: ask which homes are still in the running and book the next showings.`,
  },
  offer: {
    active: (w) => `Get an answer on the offer from the other side and agree a response deadline with ${w}.`,
    quiet: (w) => `Call the other agent today for an answer on the offer, then update ${w}.`,
  },
  under_contract: {
    active: (w) => `Check inspection, appraisal and financing milestones with ${w}'s lender and the other agent.`,
    quiet: (w) => `Call ${w} and the lender this week to check inspection, appraisal and financing milestones.`,
  },
};

function dealNextStep(deal: DraftDeal, toClose: number | null, quiet: number | null): string {
  const who = clean(deal.contactName ?? "", 60) || "the client";
  if (toClose !== null && toClose < 0) return `Agree a realistic close date with ${who} and update it, or move the deal to Closed Lost if it has fallen through.`;
  const steps = DEAL_STEPS[deal.stage];
  const isQuiet = quiet === null || quiet >= 14;
  if (!steps) return isQuiet ? `Call ${who} this week and put a dated task on the next step for ${stageLabel(deal)}.` : `Decide the next step for ${stageLabel(deal)} with ${who} and put a dated task on it.`;
  return isQuiet ? steps.quiet(who) : steps.active(who);
}

function riskLevel(score: number): "high" | "medium" | "low" {
  return score >= 5 ? "high" : score >= 2 ? "medium" : "low";
}

const rankings = new WeakMap<Ctx, DealRisk[]>();
/** The open deals, riskiest first (computed once per draft). */
function rankDeals(ctx: Ctx): DealRisk[] {
  let ranked = rankings.get(ctx);
  if (!ranked) {
    ranked = ctx.openDeals
      .map((deal) => assessDeal(deal, ctx))
      .sort((a, b) => b.score - a.score || (b.weighted ?? 0) - (a.weighted ?? 0) || a.deal.title.localeCompare(b.deal.title));
    rankings.set(ctx, ranked);
  }
  return ranked;
}

/** "$650,000 at 60% = $390,000 weighted", or what is missing. */
function weightedLine(deal: DraftDeal, ctx: Ctx): string {
  if (deal.dealValue == null) return "not set";
  const value = ctx.money(deal.dealValue);
  if (deal.probability == null) return `${value}, probability not set`;
  if (deal.probability === 0) return `${value} at 0% probability, so nothing weighted`;
  return `${value} at ${deal.probability}% = ${ctx.money(weightedValue(deal) ?? 0)} weighted`;
}

// ─── Sign-offs ────────────────────────────────────────────────────────────────────────────────────────────

function signature(ctx: Ctx, closings: Record<DraftTone, readonly string[]>): string {
  const { name, brokerage } = ctx.env.agent;
  const agent = clean(name ?? "", 80);
  const firm = clean(brokerage ?? "", 80);
  const lines = [pick(closings[ctx.tone], ctx.v, 1)];
  if (ctx.tone === "concise") {
    if (agent || firm) lines.push(agent || firm);
  } else {
    if (agent) lines.push(agent);
    if (firm) lines.push(firm);
  }
  return lines.join("\n");
}

// ─── Follow-up e-mail ─────────────────────────────────────────────────────────────────────────────────────

interface ActivityRef {
  /** "the showing on Nov 12", "our call yesterday", "our last conversation". */
  ref: string;
  /** Something one thanks the client for (a showing, a call), not an e-mail one sent. */
  thankable: boolean;
  /** Whole days since, when known. */
  daysAgo: number | null;
  showing: boolean;
}

const ACTIVITY_KINDS: [RegExp, string, boolean][] = [
  [/open[\s-]?house/i, "the open house", true],
  [/showing|tour|viewing|walk-?through/i, "the showing", true],
  [/meeting|consultation|coffee|appointment/i, "our meeting", true],
  [/\bcall|phone|spoke/i, "our call", true],
  [/e-?mail/i, "my last e-mail", false],
  [/\btext|sms|message/i, "my last message", false],
  [/offer/i, "the offer", false],
  [/contract/i, "the contract", false],
];

function lastActivity(ctx: Ctx): ActivityRef | null {
  const c = ctx.contact;
  if (!c || (!c.lastActivitySummary && !c.lastActivityDay)) return null;
  const summary = c.lastActivitySummary ?? "";
  // Only the kind of activity is used: the summary's note is the agent's, not something to quote to the client.
  const kind = ACTIVITY_KINDS.find(([re]) => re.test(summary.split(/[—–:]| - /)[0] ?? ""));
  const noun = kind?.[1] ?? "our last conversation";
  const when = whenPhrase(c.lastActivityDay, ctx.env.today);
  const daysAgo = daysBetween(c.lastActivityDay, ctx.env.today);
  const at = when && daysAgo !== null && daysAgo >= 0 ? ` ${when === "today" ? "earlier today" : when}` : "";
  return { ref: `${noun}${at}`, thankable: kind?.[2] ?? false, daysAgo, showing: noun === "the showing" };
}

type Opener = (ref: string) => string;
const OPENERS: Record<DraftTone, { any: readonly Opener[]; thanks: Opener; long: Opener }> = {
  friendly: {
    any: [(r) => `I hope you've had a chance to think things over since ${r}.`, (r) => `I wanted to follow up on ${r} and see how you're feeling.`, (r) => `I've been thinking about ${r} and wanted to check in.`],
    thanks: (r) => `Thanks again for your time during ${r}. It was great to catch up.`,
    long: (r) => `It's been a while since ${r}, so I wanted to check in and see how you're doing.`,
  },
  professional: {
    any: [(r) => `I am following up on ${r}.`, (r) => `I wanted to follow up on ${r} and outline the next steps.`, (r) => `Following ${r}, I wanted to check in on your plans.`],
    thanks: (r) => `Thank you again for your time during ${r}.`,
    long: (r) => `It has been some time since ${r}, and I wanted to check in on your plans.`,
  },
  concise: {
    any: [(r) => `Following up on ${r}.`, (r) => `Quick follow-up on ${r}.`, (r) => `Circling back on ${r}.`],
    thanks: (r) => `Thanks for your time during ${r}.`,
    long: (r) => `Checking in. It's been a while since ${r}.`,
  },
  enthusiastic: {
    any: [(r) => `I've been looking forward to following up on ${r}!`, (r) => `I'm excited to pick things up after ${r}!`, (r) => `I've been thinking about ${r} ever since!`],
    thanks: (r) => `It was so great spending time with you during ${r}!`,
    long: (r) => `It's been a while since ${r}, and I'd love to catch up!`,
  },
};

const SOURCE_OPENERS: Record<DraftTone, Record<DraftContact["source"], string>> = {
  friendly: {
    website: "Thanks for reaching out through my website.",
    referral: "I'm so glad we were introduced.",
    cold_call: "Thanks again for taking my call.",
    social_media: "Thanks for connecting with me online.",
    open_house: "It was great meeting you at the open house.",
    other: "I hope you're doing well.",
  },
  professional: {
    website: "Thank you for your inquiry through my website.",
    referral: "Thank you for the opportunity to help with your plans.",
    cold_call: "Thank you for taking my call.",
    social_media: "Thank you for connecting with me online.",
    open_house: "Thank you for visiting the open house.",
    other: "I hope this message finds you well.",
  },
  concise: {
    website: "Following up on your website inquiry.",
    referral: "Following up on the introduction.",
    cold_call: "Following up on our call.",
    social_media: "Following up from online.",
    open_house: "Following up from the open house.",
    other: "Checking in.",
  },
  enthusiastic: {
    website: "Thanks so much for reaching out through my website!",
    referral: "I'm thrilled we were introduced!",
    cold_call: "It was great talking with you!",
    social_media: "So glad we connected online!",
    open_house: "It was wonderful meeting you at the open house!",
    other: "I hope you're having a great week!",
  },
};

function openerLine(ctx: Ctx): string {
  const activity = lastActivity(ctx);
  const table = OPENERS[ctx.tone];
  if (!activity) return SOURCE_OPENERS[ctx.tone][ctx.contact?.source ?? "other"];
  if (activity.daysAgo !== null && activity.daysAgo >= 30) return table.long(activity.ref);
  if (activity.thankable && ctx.v % 3 === 2) return table.thanks(activity.ref);
  return pick(table.any, ctx.v)(activity.ref);
}

type Search = (home: string, budget: string) => string;
const SEARCH_LINES: Record<DraftTone, readonly Search[]> = {
  friendly: [
    (h, b) => `I've been keeping an eye out for ${h}${b}, and I'd love to send a few options your way.`,
    (h, b) => `I'm still watching for ${h}${b}, so you'll hear from me as soon as something fits.`,
    (h, b) => `I've been looking at ${h}${b} for you. Has anything on your wish list changed?`,
  ],
  professional: [
    (h, b) => `I continue to monitor new listings for ${h}${b}.`,
    (h, b) => `I am reviewing the market for ${h}${b} and will share any property that matches your criteria.`,
    (h, b) => `Your search for ${h}${b} remains a priority, and I will send matching listings as they come up.`,
  ],
  concise: [(h, b) => `Still watching for ${h}${b}.`, (h, b) => `Keeping an eye out for ${h}${b}.`, (h, b) => `Tracking ${h}${b} for you.`],
  enthusiastic: [
    (h, b) => `I'm on the lookout for ${h}${b}, and I can't wait to find the right one for you!`,
    (h, b) => `Finding ${h}${b} is at the top of my list!`,
    (h, b) => `I'm excited to keep searching for ${h}${b} with you!`,
  ],
};

type HomeLine = (home: string) => string;
const SELLER_LINES: Record<DraftTone, readonly HomeLine[]> = {
  friendly: [
    (h) => `I've been keeping an eye on the market around your ${h}, and I'll keep you posted on anything that matters for your sale.`,
    (h) => `I'm keeping a close watch on activity around your ${h}.`,
    (h) => `I've been thinking about the best next move for your ${h}.`,
  ],
  professional: [
    (h) => `I continue to monitor market activity relevant to your ${h}.`,
    (h) => `I am tracking activity around your ${h} and will keep you informed.`,
    (h) => `Your ${h} remains a priority, and I will keep you informed of any relevant activity.`,
  ],
  concise: [(h) => `Watching the market around your ${h}.`, (h) => `Tracking activity around your ${h}.`, (h) => `Keeping an eye on the market for your ${h}.`],
  enthusiastic: [(h) => `I'm so excited to get your ${h} in front of the right buyers!`, (h) => `Your ${h} is going to get the attention it deserves!`, (h) => `I can't wait to show off your ${h}!`],
};

const SINCE_CLOSING: Record<DraftTone, readonly string[]> = {
  friendly: ["It's been a little while since closing, and I wanted to see how everything is going.", "I hope everything has gone smoothly since closing."],
  professional: ["I wanted to check in and see how everything has been since closing.", "I trust everything has gone smoothly since closing."],
  concise: ["Checking in since closing."],
  enthusiastic: ["I hope you're loving life since closing!", "I hope everything has been wonderful since closing!"],
};

const NO_SEARCH: Record<DraftTone, readonly string[]> = {
  friendly: ["If anything about your plans has changed, just let me know so I can send you the right options.", "I'd love to hear what's at the top of your wish list right now."],
  professional: ["Please let me know if your requirements have changed so I can tailor my search.", "I would welcome an update on your priorities so I can focus my search."],
  concise: ["Let me know if your plans have changed."],
  enthusiastic: ["I'd love to hear what's on your wish list!", "Tell me everything you're hoping for, and I'll get to work!"],
};

interface Step {
  long: readonly string[];
  short: string;
}
/** A next step: the concise wording first, then the longer ones the variant picks from. */
const step = (short: string, ...long: string[]): Step => ({ short, long });
const NEXT_STEPS: Record<string, Step> = {
  lead: step("Free for a 15-minute call this week?", "Would you have 15 minutes this week for a quick call about your timeline and must-haves?", "Could we set up a short call this week to go over what matters most to you?"),
  qualified: step("Which days work for showings this week?", "The next step is getting you into a few homes. Which days work best for showings this week?", "I'd like to line up a first round of showings. Which days suit you?"),
  showing: step("Want me to book more showings this week?", "Shall I line up a few more showings? Let me know which days work for you this week.", "If any of the homes stood out, let's talk it through. Are you free for a quick call this week?"),
  offer: step("Can we talk about the offer tomorrow?", "Let's talk through the offer and our next move. Are you free for a quick call tomorrow?", "I'd like to walk you through where the offer stands. When is a good time to talk?"),
  under_contract: step("Closing{close}: I'll keep you posted.", "We're on the way to closing{close}. I'll keep you posted on each remaining step, so call me with any question along the way.", "Next up is getting everything ready for closing{close}. If anything comes up with your lender or paperwork, let me know right away."),
  closed_won: step("Let me know if you need anything.", "If friends or family are thinking about buying or selling, I'd be glad to help them too.", "If there's anything you need as you settle in, I'm only a call away."),
  closed_lost: step("Ready when you are to start again.", "Whenever you're ready to start looking again, I'd be glad to pick the search back up.", "When the timing feels right, I'm here to start fresh."),
  none: step("Free for a quick call this week?", "Would you have 15 minutes this week for a quick call?", "Would you like to see a few homes this week? Let me know which days work best.", "Let me know a good time to catch up this week."),
  after_showing: step("More showings this week?", "Would you like to see a few more homes this week? Let me know which days work best.", "Which homes are still on your mind? I'm happy to book second visits or new showings this week."),
  custom: step("Free to talk next steps this week?", "Could we find 15 minutes this week to go over the next step?", "Let me know a good time this week to talk about next steps."),
};

const SELLER_STEPS: Record<string, Step> = {
  lead: step("Free this week to walk through pricing and timing?", "Could we set up a time this week to walk through your home and talk about pricing and timing?", "I'd love to walk through your home and share a pricing plan. Which day works this week?"),
  qualified: step("Can we go over the listing plan this week?", "I'd like to go over the listing plan with you: photos, pricing and timing. When suits you this week?", "Next up is the listing plan. Could we meet this week to finalise photos and pricing?"),
  showing: step("Quick call this week about showing feedback?", "I'll pass along feedback from each showing as it comes in. Are you free for a quick call this week to go over it?", "Could we find 15 minutes this week to go over the showing feedback so far?"),
  none: step("Free this week to talk timing and pricing?", "Would you have 15 minutes this week to talk about timing and pricing?", "Let me know a good time this week to talk through your plans for the sale."),
};

/** The deal a follow-up is about: the first open one, else the first closed one. */
const primaryDeal = (ctx: Ctx): DraftDeal | null => ctx.openDeals[0] ?? ctx.env.deals[0] ?? null;

function nextStepLine(ctx: Ctx): string {
  const deal = primaryDeal(ctx);
  const activity = lastActivity(ctx);
  const key = deal ? (NEXT_STEPS[deal.stage] ? deal.stage : "custom") : activity?.showing ? "after_showing" : "none";
  const step = (isSeller(ctx.contact, ctx.env.deals) ? SELLER_STEPS[key] : undefined) ?? (NEXT_STEPS[key] as Step);
  const toClose = daysBetween(ctx.env.today, deal?.expectedCloseDate);
  const close = deal && toClose !== null && toClose >= 0 ? ` ${whenPhrase(deal.expectedCloseDate, ctx.env.today)}` : "";
  return (ctx.tone === "concise" ? step.short : pick(step.long, ctx.v, 2)).replace("{close}", close);
}

const GREETINGS: Record<DraftTone, { named: readonly string[]; anon: readonly string[] }> = {
  friendly: { named: ["Hi {n},", "Hey {n},", "Hello {n},"], anon: ["Hi there,", "Hello,", "Hi,"] },
  professional: { named: ["Dear {n},", "Hello {n},", "Dear {n},"], anon: ["Hello,", "Good day,", "Greetings,"] },
  concise: { named: ["Hi {n},", "{n},", "Hello {n},"], anon: ["Hi,", "Hello,", "Hi there,"] },
  enthusiastic: { named: ["Hi {n}!", "Hey {n}!", "Hello {n}!"], anon: ["Hi there!", "Hello!", "Hey there!"] },
};

const EMAIL_CLOSINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Talk soon,", "Warmly,", "Cheers,"],
  professional: ["Best regards,", "Kind regards,", "Sincerely,"],
  concise: ["Thanks,", "Best,", "Thanks,"],
  enthusiastic: ["Can't wait to hear from you!", "Talk soon!", "Excited for what's next!"],
};

const WRAP_UPS: Record<DraftTone, readonly string[]> = {
  friendly: ["Just reply here or give me a call anytime.", "Looking forward to hearing from you.", "Have a great rest of your week!"],
  professional: ["Please do not hesitate to contact me with any questions.", "I look forward to hearing from you.", "Thank you, and I look forward to speaking soon."],
  concise: [],
  enthusiastic: ["This is going to be great!", "Let's make it happen!", "I'm here whenever you're ready!"],
};

const POINT_LEADS: Record<DraftTone, readonly string[]> = {
  friendly: ["", "One more thing: ", "Also, a quick note: "],
  professional: ["", "Please also note: ", "In addition: "],
  concise: [""],
  enthusiastic: ["", "And one more thing: ", "Also: "],
};

function subjectLine(ctx: Ctx): string {
  const deal = primaryDeal(ctx);
  const activity = lastActivity(ctx);
  const place = ctx.contact?.location ? clean(ctx.contact.location, 40) : null;
  let options: readonly string[];
  if (deal?.stage === "under_contract") options = ["Next steps before closing", "Your closing: where things stand", "On the road to closing"];
  else if (deal?.stage === "closed_won") options = ["Checking in after closing", "How are things since closing?", "A quick hello"];
  else if (deal?.stage === "offer") options = ["About the offer", "Where the offer stands", "Next steps on the offer"];
  else if (activity?.showing) options = ["Following up on the showing", "Thoughts after the showing?", "After our showing"];
  else if (place) options = [`Your ${place} search`, `Homes in ${place}`, `Following up on ${place}`];
  else options = ["Checking in", "Following up", "A quick hello"];
  const subject = pick(options, ctx.v);
  return ctx.tone === "enthusiastic" && !subject.endsWith("?") ? `${subject}!` : subject;
}

/** What the client is looking for (or selling), or how things are since closing. */
/**
 * Stages past the search (issue 19): the offer is in or the home is under contract. The e-mail names the home
 * the deal is about and never says the agent is still looking; the next-step line says what comes.
 */
type PastSearch = "offer" | "under_contract";
const PAST_SEARCH_LINES: Record<"buyer" | "seller", Record<PastSearch, Record<DraftTone, HomeLine>>> = {
  buyer: {
    offer: {
      friendly: (h) => `Your offer on ${h} is in, and I'll let you know the moment the sellers answer.`,
      professional: (h) => `Your offer on ${h} has been submitted, and I will share the sellers' response as soon as I receive it.`,
      concise: (h) => `Your offer on ${h} is in.`,
      enthusiastic: (h) => `Your offer on ${h} is in, and I'm hopeful!`,
    },
    under_contract: {
      friendly: (h) => `Your purchase of ${h} is under contract.`,
      professional: (h) => `Your purchase of ${h} is under contract.`,
      concise: (h) => `Your purchase of ${h} is under contract.`,
      enthusiastic: (h) => `Your purchase of ${h} is under contract. Congratulations!`,
    },
  },
  seller: {
    offer: {
      friendly: (h) => `We have an offer on your ${h}, and I'll walk you through it.`,
      professional: (h) => `An offer has come in on your ${h}, and I will review it with you.`,
      concise: (h) => `There's an offer on your ${h}.`,
      enthusiastic: (h) => `Great news: there's an offer on your ${h}!`,
    },
    under_contract: {
      friendly: (h) => `Your ${h} is under contract.`,
      professional: (h) => `Your ${h} is under contract.`,
      concise: (h) => `Your ${h} is under contract.`,
      enthusiastic: (h) => `Your ${h} is under contract. Congratulations!`,
    },
  },
};
const isPastSearch = (stage: string): stage is PastSearch => stage === "offer" || stage === "under_contract";

function searchLine(ctx: Ctx): string {
  const contact = ctx.contact;
  const deal = primaryDeal(ctx);
  if (deal?.stage === "closed_won") return pick(SINCE_CLOSING[ctx.tone], ctx.v);
  // A client whose offer is in or who is under contract is not told the agent is still looking (issue 19).
  if (deal && isPastSearch(deal.stage)) {
    const seller = isSeller(contact, ctx.env.deals);
    if (!contact || (!seller && !hasSearch(contact))) return "";
    return PAST_SEARCH_LINES[seller ? "seller" : "buyer"][deal.stage][ctx.tone](describeHome(contact, { article: !seller }));
  }
  if (contact && isSeller(contact, ctx.env.deals)) return pick(SELLER_LINES[ctx.tone], ctx.v, 1)(describeHome(contact, { article: false }));
  if (!hasSearch(contact)) return pick(NO_SEARCH[ctx.tone], ctx.v);
  const budget = budgetPhrase(contact.budgetMin, contact.budgetMax, ctx.env.currency);
  return pick(SEARCH_LINES[ctx.tone], ctx.v, 1)(describeHome(contact), budget ? ` ${budget}` : "");
}

function writeFollowUp(ctx: Ctx): string {
  const greet = GREETINGS[ctx.tone];
  const greeting = ctx.first ? pick(greet.named, ctx.v).replace("{n}", ctx.first) : pick(greet.anon, ctx.v);
  const search = searchLine(ctx);
  const point = agentPoint(ctx.env.userInput, ctx.first, ctx.tone === "concise" ? 240 : 400);
  const wrapUp = WRAP_UPS[ctx.tone].length ? pick(WRAP_UPS[ctx.tone], ctx.v, 2) : "";
  const body =
    ctx.tone === "concise"
      ? [[openerLine(ctx), search].filter(Boolean).join(" "), point, nextStepLine(ctx)]
      : [[openerLine(ctx), search].filter(Boolean).join(" "), point ? `${pick(POINT_LEADS[ctx.tone], ctx.v)}${point}` : null, `${nextStepLine(ctx)}${wrapUp ? ` ${wrapUp}` : ""}`];
  return [`Subject: ${subjectLine(ctx)}`, "", greeting, "", body.filter(Boolean).join("\n\n"), "", signature(ctx, EMAIL_CLOSINGS)].join("\n");
}

// ─── Listing description ──────────────────────────────────────────────────────────────────────────────────

const WRITE_REQUEST = /^\s*(?:please\s+)?(?:write|create|draft|make|generate)\b[^,;\n]*?(?::|\b(?:listing|description|remarks)(?:\s+(?:description|remarks))?(?:\s+(?:for|of|about))?\b)/i;

/** The features the agent typed, one per comma, semicolon, bullet, sentence or line, cleaned of Fair Housing phrases. */
export function listingHighlights(input: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const body = input.replace(PLACEHOLDER, "").replace(WRITE_REQUEST, "").replace(/^\s*:/, "");
  for (const raw of body.split(/[,;\n•|]+|(?<=[.!?])\s+|\s+[-–—]\s+/)) {
    const item = clean(raw, 100)
      .replace(/^(?:[-*•·]+\s*|\d+[.)]\s+)/, "")
      .replace(/^(?:and|with|plus|so|but|also)\s+/i, "")
      .replace(/[.!?:]+$/, "")
      .trim();
    if (!item || INJECTION.test(item) || seen.has(item.toLowerCase())) continue;
    seen.add(item.toLowerCase());
    const fair = fairHousingClean(item);
    // A highlight that was nothing but a flagged phrase ("safe neighborhood" → "neighborhood") says nothing,
    // unless the rewording names a room ("man cave" → "bonus room").
    if (!fair || checkFairHousing(item).some((f) => f.phrase.length === item.length && !ROOM_RENAMES.has(f.suggestion))) continue;
    const kept = (/^[a-z]/.test(item) ? fair.charAt(0).toLowerCase() + fair.slice(1) : fair).replace(/[.,;:!?]+$/, "").trim();
    if (!/[\p{L}\p{N}]{2}/u.test(kept)) continue;
    if (out.some((o) => o.toLowerCase() === kept.toLowerCase())) continue;
    out.push(kept);
    if (out.length >= 12) break;
  }
  return out;
}

const LISTING_NOUNS: Record<PropertyType, string> = {
  house: "home",
  condo: "condo",
  townhouse: "townhouse",
  land: "parcel of land",
  commercial: "commercial property",
  other: "property",
};

const wholeOrHalf = (n: number | null | undefined): number | null => (typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.round(n * 2) / 2 : null);

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

function listingSubject(ctx: Ctx): { thing: string; where: string } {
  const c = ctx.contact;
  const facts = listingFactsOf(ctx.env);
  const type = c?.propertyType ?? "house";
  const parts = roomsOf({ propertyType: type, bedrooms: facts.bedrooms, bathrooms: facts.bathrooms }, true);
  if (facts.squareFeet) parts.push(formatArea(facts.squareFeet));
  const noun = LISTING_NOUNS[type];
  return { thing: parts.length ? `${parts.join(", ")} ${noun}` : noun, where: c?.location ? ` in ${clean(c.location, 80)}` : "" };
}

const PRICE_LINES: Record<DraftTone, readonly ((price: string) => string)[]> = {
  friendly: [(p) => `Offered at ${p}.`, (p) => `Priced at ${p}.`, (p) => `Listed at ${p}.`],
  professional: [(p) => `Offered at ${p}.`, (p) => `List price: ${p}.`, (p) => `Offered at ${p}.`],
  concise: [(p) => `Offered at ${p}.`, (p) => `List price ${p}.`, (p) => `${p}.`],
  enthusiastic: [(p) => `Offered at ${p}!`, (p) => `All this for ${p}!`, (p) => `Priced at ${p}!`],
};

type ListingOpen = (thing: string, where: string) => string;
const LISTING_OPENINGS: Record<DraftTone, readonly ListingOpen[]> = {
  friendly: [(t, w) => `Welcome to this ${t}${w}.`, (t, w) => `Come see this ${t}${w}.`, (t, w) => `Meet your next ${t}${w}.`],
  professional: [(t, w) => `Offered for sale: ${article(t)} ${t}${w}.`, (t, w) => `Presenting ${article(t)} ${t}${w}.`, (t, w) => `Now available: ${article(t)} ${t}${w}.`],
  concise: [(t, w) => `${capitalise(t)} for sale${w}.`, (t, w) => `${capitalise(article(t))} ${t}${w}.`, (t, w) => `For sale: ${t}${w}.`],
  enthusiastic: [(t, w) => `Welcome to this ${t}${w}!`, (t, w) => `Don't miss this ${t}${w}!`, (t, w) => `Say hello to this ${t}${w}!`],
};

/** "a and b", "a, b, and c" (the serial comma, since features often contain "and" themselves). */
function listWords(items: readonly string[]): string {
  if (items.length <= 2) return items.join(" and ");
  return `${items.slice(0, -1).join(", ")}, and ${items[items.length - 1]}`;
}

type HighlightStyle = (items: readonly string[], mark: string) => string;
const asList = (lead: string): HighlightStyle => (items, mark) => `${lead} ${listWords(items)}${mark}`;
const asFragments: HighlightStyle = (items, mark) => items.map((item, i) => `${capitalise(item)}${i === items.length - 1 ? mark : "."}`).join(" ");
const HIGHLIGHT_STYLES: Record<DraftTone, readonly HighlightStyle[]> = {
  friendly: [asList("Highlights:"), asFragments, asList("What stands out:")],
  professional: [asList("Features:"), asList("Notable features:"), asList("Key features:")],
  concise: [asList("Features:"), asFragments, asList("Highlights:")],
  enthusiastic: [asList("Highlights you'll love:"), asList("Standout features:"), asFragments],
};

const LOCATION_LINES: Record<DraftTone, readonly ((place: string) => string)[]> = {
  friendly: [(p) => `Make ${p} home.`, (p) => `Your next chapter in ${p} starts here.`, (p) => `Discover life in ${p}.`],
  professional: [(p) => `An opportunity to own in ${p}.`, (p) => `A ${p} address.`, (p) => `An opportunity in ${p}.`],
  concise: [],
  enthusiastic: [(p) => `Your ${p} address awaits!`, (p) => `${p} living starts here!`, (p) => `Make ${p} yours!`],
};

const TYPE_LINES: Record<PropertyType, readonly string[]> = {
  house: ["A home to settle into and make your own.", "Ready for its next chapter.", "A place to put down roots."],
  condo: ["Condo living with room to make it your own.", "A condo ready for its next owner.", "An easy place to call home."],
  townhouse: ["Townhouse living with space to make your own.", "A townhouse ready for its next owner.", "A place to settle in and make your own."],
  land: ["Bring your plans and your builder.", "A blank canvas for your plans.", "Room for your vision."],
  commercial: ["A commercial opportunity worth a closer look.", "Ready for its next business.", "A property worth a closer look for your business."],
  other: ["A property worth a closer look.", "Ready for its next owner.", "A place with possibilities."],
};

const CALLS_TO_ACTION: Record<DraftTone, readonly string[]> = {
  friendly: ["Schedule your private showing today.", "Book a showing and see it for yourself.", "Come take a look."],
  professional: ["Private showings are available by appointment.", "Contact the listing agent to arrange a showing.", "Showings by appointment."],
  concise: ["Showings by appointment.", "Book a showing.", "Showings available."],
  enthusiastic: ["Book your showing today!", "Come see it before it's gone!", "Schedule your private tour today!"],
};

interface Segment {
  text: string;
  /** Lower numbers are kept longer when the text must shrink. */
  priority: number;
}

function writeListing(ctx: Ctx): string {
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

/**
 * Fits text to a character limit without cutting a word or a sentence: keeps whole sentences from the start
 * while they fit; when even the first does not, cuts it at the last word boundary, drops dangling punctuation
 * and connecting words, and ends it with a full stop. null means no limit.
 */
export function fitToLimit(text: string, limit: number | null): string {
  const trimmed = text.trim();
  if (limit === null || !Number.isFinite(limit) || trimmed.length <= limit) return trimmed;
  if (limit <= 0) return "";
  const sentences = trimmed.match(/[^.!?\n]+(?:[.!?]+["')\]]*|\n+|$)\s*/g) ?? [trimmed];
  let kept = "";
  for (const sentence of sentences) {
    if ((kept + sentence).trimEnd().length > limit) break;
    kept += sentence;
  }
  kept = kept.trimEnd();
  if (kept && /[.!?"')\]]$/.test(kept)) return kept;
  return cutAtWord(trimmed, limit);
}

const DANGLING = /(?:[\s,;:—–(-]+|\s+(?:and|or|with|the|a|an|of|to|in|for|at|on|by|from|plus|&))+$/i;
/** The text cut to at most `max` characters at a word boundary, ending cleanly with a full stop. */
function cutAtWord(text: string, max: number): string {
  if (max <= 1) return text.slice(0, Math.max(0, max));
  let cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  if (space > 0 && /\S/.test(text.charAt(max - 1))) cut = cut.slice(0, space);
  let prev = "";
  while (prev !== cut) {
    prev = cut;
    cut = cut.replace(DANGLING, "").replace(/[.,;:!?—–-]+$/, "");
  }
  return cut ? `${cut}.` : text.slice(0, max - 1).trimEnd() + ".";
}

// ─── Market notes ─────────────────────────────────────────────────────────────────────────────────────────

/** The area the agent asked about: a place named in the input, the input itself if short, the contact's, the agent's. */
function marketArea(ctx: Ctx): string | null {
  const input = clean(ctx.env.userInput.replace(PLACEHOLDER, ""), 200);
  if (input && !INJECTION.test(input)) {
    const named = /\b(?:in|for|around|near|of)\s+((?:[A-Z][\p{L}'’.-]*|[A-Z]{2})(?:[\s,]+(?:[A-Z][\p{L}'’.-]*|[A-Z]{2}))*)/u.exec(input);
    if (named?.[1]) return named[1].replace(/[,.]+$/, "");
    if (input.length <= 60 && !/[?]/.test(input) && input.split(" ").length <= 6) return input.replace(/[.!]+$/, "");
  }
  const fromContact = ctx.contact?.location ? clean(ctx.contact.location, 80) : "";
  if (fromContact) return fromContact;
  const market = clean(ctx.env.agent.market ?? "", 80);
  return market || null;
}

type AreaLine = (area: string | null) => string;
const MARKET_INTROS: Record<DraftTone, readonly AreaLine[]> = {
  friendly: [(a) => `Here's a starting point for your ${a ? `${a} ` : ""}market notes.`, (a) => `Let's put together your ${a ? `${a} ` : ""}market story.`, (a) => `A quick prep sheet for talking about ${a ?? "your market"}.`],
  professional: [(a) => `Market notes${a ? `: ${a}` : ""}.`, (a) => `Preparation notes for a market update${a ? ` on ${a}` : ""}.`, (a) => `Market briefing outline${a ? `: ${a}` : ""}.`],
  concise: [(a) => `Market notes${a ? `: ${a}` : ""}.`, (a) => `Market prep${a ? `: ${a}` : ""}.`, (a) => `Notes${a ? ` for ${a}` : ""}.`],
  enthusiastic: [(a) => `Let's get you ready to talk ${a ?? "your market"} like a pro!`, (a) => `Your ${a ? `${a} ` : ""}market prep is ready to go!`, (a) => `Time to own the ${a ? `${a} ` : "market "}conversation!`],
};

const MLS_CHECKLIST = [
  "Median sale price over the last 90 days, against the same period a year ago",
  "Median days on market",
  "Active inventory and months of supply",
  "List-to-sale price ratio",
  "New listings against pending sales over the last 30 days",
];

function writeMarket(ctx: Ctx): string {
  const area = marketArea(ctx);
  const concise = ctx.tone === "concise";
  const lines: string[] = [pick(MARKET_INTROS[ctx.tone], ctx.v)(area)];
  lines.push(
    concise
      ? "Porchlight has no MLS statistics: the figures below are from your own pipeline."
      : "Porchlight doesn't have MLS statistics, so there are no market figures here to repeat. Everything below comes from your own pipeline; pull the market numbers from your MLS before sharing any.",
  );
  lines.push("", area ? `What your pipeline shows for ${area}` : "What your pipeline shows");
  lines.push(...pipelineFacts(ctx, area));
  const budget = ctx.contact ? budgetRange(ctx.contact.budgetMin, ctx.contact.budgetMax, ctx.env.currency) : null;
  lines.push("", `Pull from the MLS${area ? ` for ${area}` : ""}`);
  const checklist = concise ? MLS_CHECKLIST.slice(0, 4) : MLS_CHECKLIST;
  lines.push(...checklist.map((item) => `- ${item}`));
  if (budget && !concise) lines.push(`- The same figures for homes priced ${budget}, ${ctx.first ?? "your client"}'s range`);
  lines.push("", "Talking points");
  lines.push(...marketTalkingPoints(ctx, area, budget).map((p) => `- ${p}`));
  return lines.join("\n");
}

function pipelineFacts(ctx: Ctx, area: string | null): string[] {
  const facts: string[] = [];
  const deals = ctx.env.deals;
  const needle = area?.split(",")[0]?.trim().toLowerCase() ?? "";
  const local = needle ? deals.filter((d) => d.title.toLowerCase().includes(needle)) : [];
  const scope = local.length ? local : deals;
  if (!deals.length) facts.push("- No deals in your pipeline yet, so there is nothing of your own to quote.");
  else {
    const open = scope.filter(isOpenDeal);
    const won = scope.filter((d) => d.stage === "closed_won");
    const lost = scope.filter((d) => d.stage === "closed_lost");
    const where = local.length ? ` mentioning ${area}` : area ? " (none of their titles mention this area, so this is your whole pipeline)" : "";
    const counts = [[open.length, "open"], [won.length, "closed won"], [lost.length, "closed lost"]].filter(([n]) => n).map(([n, label]) => `${n} ${label}`);
    facts.push(`- ${plural(scope.length, "deal")}${where}: ${counts.join(", ")}.`);
    const valued = scope.filter((d) => positive(d.dealValue));
    if (valued.length) {
      const values = valued.map((d) => d.dealValue as number).sort((a, b) => a - b);
      const total = values.reduce((s, n) => s + n, 0);
      const range = values.length > 1 ? `, from ${ctx.money(values[0] as number)} to ${ctx.money(values[values.length - 1] as number)}` : "";
      facts.push(`- Deal values: ${ctx.money(total)} in total${range}${valued.length < scope.length ? ` (${scope.length - valued.length} without a value)` : ""}.`);
    }
    const stages = new Map<string, number>();
    for (const d of open) stages.set(stageLabel(d), (stages.get(stageLabel(d)) ?? 0) + 1);
    if (stages.size) facts.push(`- Open deals by stage: ${[...stages].map(([s, n]) => `${s} ${n}`).join(", ")}.`);
  }
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const budget = budgetRange(c.budgetMin, c.budgetMax, ctx.env.currency);
    const selling = isSeller(c, ctx.env.deals);
    facts.push(`- ${ctx.fullName} (${c.status}) is ${selling ? "selling" : "looking for"} ${describeHome(c)}${c.location ? "" : " (no location set)"}${selling ? "" : budget ? `, budget ${budget}` : ", no budget set"}.`);
  }
  return facts;
}

function marketTalkingPoints(ctx: Ctx, area: string | null, budget: string | null): string[] {
  const place = area ?? "the area";
  const points = [
    `Lead with the median price and days on market for ${place}, then what they mean for timing.`,
    "Compare this year with last year rather than month to month: it is steadier and easier to explain.",
    "Explain what the list-to-sale ratio means for how to price or how to offer.",
  ];
  if (budget) points.push(`Place ${ctx.first ?? "your client"}'s budget (${budget}) against the median once you have it.`);
  const closed = ctx.env.deals.filter((d) => d.stage === "closed_won").length;
  if (closed) points.push(`Mention your ${closed === 1 ? "closed deal" : `${closed} closed deals`} as your own experience, not as market data.`);
  points.push("Stick to figures you can source, and say where each one comes from.");
  const shown = ctx.tone === "concise" ? points.slice(0, 3) : points;
  return ctx.v % 2 === 1 ? [...shown.slice(1), shown[0] as string] : shown;
}

// ─── At-risk deals review ─────────────────────────────────────────────────────────────────────────────────

const REVIEW_INTROS: Record<DraftTone, readonly string[]> = {
  friendly: ["Here's where your open deals stand, riskiest first.", "Let's look at what might be slipping, starting with the riskiest.", "A quick pass over your open deals, riskiest first."],
  professional: ["Open deals, ranked by risk.", "Pipeline risk review, highest risk first.", "Review of open deals by risk."],
  concise: ["Open deals by risk:", "Risk review:", "Deals, riskiest first:"],
  enthusiastic: ["Let's keep every deal on track! Here they are, riskiest first.", "Time to rescue anything that's slipping! Riskiest first.", "Let's tighten up the pipeline! Riskiest first."],
};

const NOTHING_TO_REVIEW: Record<DraftTone, readonly string[]> = {
  friendly: ["There's nothing to review right now", "Nothing to review yet", "All quiet, nothing to review"],
  professional: ["There is nothing to review at present", "Nothing to review", "There is nothing to review"],
  concise: ["Nothing to review", "Nothing to review yet", "Nothing to review now"],
  enthusiastic: ["Nothing to review yet, a clean slate", "Nothing to review, time to fill the pipeline", "Nothing to review, so let's build"],
};

function writeNothingToReview(ctx: Ctx): string {
  const closed = ctx.env.deals.length;
  const why = closed === 0 ? "there are no open deals" : closed === 1 ? "the only deal here is closed" : closed === 2 ? "both deals here are closed" : `all ${closed} deals here are closed`;
  const mark = ctx.tone === "enthusiastic" ? "!" : ".";
  const who = ctx.fullName ? `turn ${ctx.fullName} into a deal` : "add a deal for your warmest contact";
  const step =
    ctx.tone === "concise"
      ? `Next step: ${who}.`
      : pick(
          [
            `Next step: ${who} and give it a value, a probability and an expected close date, so the review and your forecast have something to work with.`,
            `A good next step: ${who}, with a value, probability and close date, so Porchlight can track it.`,
            `Next step: ${who} today and set its expected close date.`,
          ],
          ctx.v,
        );
  return [`${pick(NOTHING_TO_REVIEW[ctx.tone], ctx.v)}: ${why}${mark}`, step].join("\n");
}

function writeDealReview(ctx: Ctx): string {
  const ranked = rankDeals(ctx);
  const closedCount = ctx.env.deals.length - ctx.openDeals.length;
  if (!ranked.length) return writeNothingToReview(ctx);
  const totals = ranked.reduce((t, r) => ({ value: t.value + (r.deal.dealValue ?? 0), weighted: t.weighted + (r.weighted ?? 0) }), { value: 0, weighted: 0 });
  const missing = ranked.filter((r) => r.deal.dealValue == null).length;
  const summary = `${plural(ranked.length, "open deal")}${totals.value > 0 ? `, ${ctx.money(totals.value)} in pipeline, ${ctx.money(totals.weighted)} weighted` : ""}${missing ? ` (${missing} without a value)` : ""}${closedCount ? `; ${plural(closedCount, "closed deal")} left out` : ""}.`;
  const lines = [pick(REVIEW_INTROS[ctx.tone], ctx.v), summary];
  ranked.forEach((r, i) => {
    const who = r.deal.contactName ? `, ${clean(r.deal.contactName, 60)}` : "";
    const head = `${i + 1}. ${dealName(r.deal)} (${stageLabel(r.deal)}${who}): ${riskLevel(r.score)} risk`;
    if (ctx.tone === "concise") {
      lines.push("", `${head}. ${r.issues[0] ? `${capitalise(r.issues[0])}. ` : ""}Value: ${weightedLine(r.deal, ctx)}. Next: ${r.nextStep}`);
      return;
    }
    lines.push("", head);
    lines.push(r.issues.length ? `- ${r.score >= 2 ? "Slipping" : "Watch"}: ${r.issues.join("; ")}` : "- Nothing slipping: on schedule and active");
    lines.push(`- Value: ${weightedLine(r.deal, ctx)}`);
    lines.push(`- Next step: ${r.nextStep}`);
  });
  if (ctx.tone !== "concise") {
    const top = ranked[0] as DealRisk;
    lines.push("", pick([`Start with ${dealName(top.deal)}: it carries the most risk.`, `If you do one thing today, make it ${dealName(top.deal)}.`, `${dealName(top.deal)} needs you first.`], ctx.v));
  }
  return lines.join("\n");
}

// ─── This week's plan ─────────────────────────────────────────────────────────────────────────────────────

const PLAN_INTROS: Record<DraftTone, readonly ((range: string) => string)[]> = {
  friendly: [(r) => `Here's your week at a glance, ${r}.`, (r) => `Your plan for ${r}.`, (r) => `Here's how ${r} shapes up.`],
  professional: [(r) => `Plan for ${r}.`, (r) => `Weekly plan, ${r}.`, (r) => `Schedule and priorities, ${r}.`],
  concise: [(r) => `This week, ${r}:`, (r) => `Week plan, ${r}:`, (r) => `${capitalise(r)}:`],
  enthusiastic: [(r) => `Let's make ${r} a great week!`, (r) => `Big week ahead, ${r}! Here's the plan.`, (r) => `Ready, set, go! Your plan for ${r}:`],
};

function dayHeading(day: string, today: string, short = false): string {
  const diff = daysBetween(today, day) ?? 0;
  const label = short ? `${weekday(day).slice(0, 3)} ${formatDay(day, today)}` : `${weekday(day)}, ${formatDay(day, today)}`;
  if (short && diff <= 1) return diff === 0 ? "Today" : "Tomorrow";
  return diff === 0 ? `Today (${label})` : diff === 1 ? `Tomorrow (${label})` : label;
}

function taskLine(task: DraftTaskItem): string {
  const title = clean(task.title, 120) || "Untitled task";
  const who = task.contactName ? clean(task.contactName, 60) : "";
  return `- ${title}${who && !title.toLowerCase().includes(who.toLowerCase()) ? ` (${who})` : ""}`;
}

function writeWeekPlan(ctx: Ctx): string {
  const today = ctx.env.today;
  const end = addDays(today, 6);
  const concise = ctx.tone === "concise";
  const lines = [pick(PLAN_INTROS[ctx.tone], ctx.v)(`${formatDay(today, today)} to ${formatDay(end, today)}`)];
  const tasks = ctx.env.tasks.filter((t) => (daysBetween(t.dueDate, end) ?? -1) >= 0).sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  const overdue = tasks.filter((t) => (daysBetween(today, t.dueDate) ?? 0) < 0);
  const byDay = new Map<string, DraftTaskItem[]>();
  for (const t of tasks) if (!overdue.includes(t)) byDay.set(t.dueDate, [...(byDay.get(t.dueDate) ?? []), t]);
  lines.push("", "Tasks");
  if (!tasks.length) lines.push("- No tasks due this week. Block two hours for prospecting calls and add follow-up tasks for your hot contacts.");
  if (concise) {
    // One line a day: "Today: a; b".
    const oneLine = (label: string, items: DraftTaskItem[]) => `- ${label}: ${items.map((t) => taskLine(t).slice(2)).join("; ")}`;
    if (overdue.length) lines.push(oneLine("Overdue", overdue));
    for (const [day, items] of byDay) lines.push(oneLine(dayHeading(day, today, true), items));
  } else {
    if (overdue.length) lines.push(`Overdue (${overdue.length})`, ...overdue.map(taskLine));
    for (const [day, items] of byDay) lines.push(dayHeading(day, today), ...items.map(taskLine));
  }
  const follow = followUps(ctx);
  if (follow.length) lines.push("", "Follow up", ...follow);
  const closing = ctx.openDeals
    .filter((d) => {
      const diff = daysBetween(today, d.expectedCloseDate);
      return diff !== null && diff <= 7;
    })
    .sort((a, b) => (a.expectedCloseDate ?? "").localeCompare(b.expectedCloseDate ?? ""));
  if (closing.length) {
    lines.push("", "Deals closing");
    for (const d of closing) {
      const diff = daysBetween(today, d.expectedCloseDate) ?? 0;
      const when = diff < 0 ? `was due ${formatDay(d.expectedCloseDate, today)}: agree a new date` : `expected ${whenPhrase(d.expectedCloseDate, today)}`;
      lines.push(`- ${dealName(d)} (${stageLabel(d)}${d.dealValue != null ? `, ${ctx.money(d.dealValue)}` : ""}): ${when}`);
    }
  }
  if (!concise) {
    const busiest = [...byDay].sort((a, b) => b[1].length - a[1].length)[0];
    const focus: string[] = [];
    if (overdue.length) focus.push(`Clear ${overdue.length === 1 ? "the overdue task" : `the ${overdue.length} overdue tasks`} first thing today.`);
    if (busiest && busiest[1].length >= 4) focus.push(`${weekday(busiest[0])} is your busiest day (${plural(busiest[1].length, "task")}): move anything you can earlier.`);
    if (closing.length) focus.push("Confirm every closing's remaining steps with the lender and the other agent early in the week.");
    focus.push(pick(["Keep one hour a day for new leads and follow-ups.", "Protect a daily hour for prospecting.", "End each day by setting tomorrow's top three tasks."], ctx.v));
    lines.push("", "Focus", ...focus.map((f) => `- ${f}`));
  }
  return lines.join("\n");
}

function followUps(ctx: Ctx): string[] {
  const out: string[] = [];
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const when = whenPhrase(c.lastActivityDay, ctx.env.today);
    const last = when ? `last contact ${when}` : "no activity logged yet";
    out.push(`- ${ctx.fullName} (${c.status}): ${last}${c.status === "hot" ? "; reach out early in the week" : ""}`);
  }
  for (const d of ctx.openDeals) {
    const quiet = daysBetween(d.lastActivityDay, ctx.env.today);
    if (quiet !== null && quiet < 7) continue;
    const who = d.contactName ? clean(d.contactName, 60) : "";
    if (c && ctx.fullName && who === ctx.fullName) continue;
    out.push(`- ${who ? `${who} (${dealName(d)})` : dealName(d)}: ${quiet === null ? "no activity logged yet" : `quiet for ${plural(quiet, "day")}`}`);
  }
  return out;
}

// ─── Advice ───────────────────────────────────────────────────────────────────────────────────────────────

type Intent = "open_house" | "negotiation" | "objection" | "referral" | "at_risk" | "listing" | "follow_up" | "market" | "plan" | "general";
const INTENTS: [Intent, RegExp][] = [
  ["open_house", /open[\s-]?house/i],
  ["negotiation", /negotiat|counter[\s-]?offer|lowball|multiple offers|bidding war|concession|inspection (?:issues|repairs)|offer/i],
  ["objection", /objection|push ?back|too expensive|commission|hesitat|not ready|think about it|wait(?:ing)? (?:for|until)|rates? (?:are|is) too high/i],
  ["referral", /referr|past clients?|sphere|word of mouth|testimonial|reviews?\b/i],
  ["at_risk", /stall|stuck|at[\s-]risk|slipping|losing|going cold|gone cold|ghost|falling through|fell through/i],
  ["listing", /listing|description|remarks|write[\s-]?up|\bmls\b/i],
  ["follow_up", /follow[\s-]?up|e-?mail|reach out|check in|touch base|haven'?t heard|text (?:him|her|them)/i],
  ["market", /price|pricing|market|comps?\b|valuation|worth|\bcma\b|interest rates?/i],
  ["plan", /plan|week|priorit|schedule|today|focus|organi[sz]e|time management/i],
];

export function adviceIntent(question: string): Intent {
  return INTENTS.find(([, re]) => re.test(question))?.[0] ?? "general";
}

const ADVICE_INTROS: Record<DraftTone, readonly string[]> = {
  friendly: ["Good question. Here's how I'd approach it.", "Happy to help. Here's my take.", "Let's work through it."],
  professional: ["Here is a recommended approach.", "Recommendations below.", "Here is how I would handle it."],
  concise: ["", "In short:", "Quick take:"],
  enthusiastic: ["Love this question! Here's the plan.", "Let's tackle it!", "Great one! Here's how to win it."],
};

const DATA_HEADINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Here's what your data says", "What I see in your data", "From your pipeline"],
  professional: ["What your data shows", "Summary of your data", "Current position"],
  concise: ["Your data"],
  enthusiastic: ["Here's what your data is telling us", "Your numbers at a glance", "What we're working with"],
};

const STEPS_HEADINGS: Record<DraftTone, readonly string[]> = {
  friendly: ["Suggested next steps", "What I'd do next", "Next steps"],
  professional: ["Recommended next steps", "Recommended actions", "Next steps, in order"],
  concise: ["Next steps", "Do next", "Steps"],
  enthusiastic: ["Your next moves", "Let's go", "Action plan"],
};

/** The deal the question is most likely about: one at the stage the intent names, else the riskiest. */
function focusDeal(intent: Intent, ctx: Ctx): DraftDeal | null {
  if (intent === "negotiation") return ctx.openDeals.find((d) => d.stage === "offer") ?? ctx.openDeals.find((d) => d.stage === "under_contract") ?? rankDeals(ctx)[0]?.deal ?? null;
  return rankDeals(ctx)[0]?.deal ?? null;
}

/** One or two sentences that answer the question from the facts, before the steps. */
function adviceAnswer(intent: Intent, ctx: Ctx): string {
  const c = ctx.contact;
  const name = ctx.fullName;
  const top = rankDeals(ctx)[0] ?? null;
  const closed = ctx.env.deals.filter((d) => d.stage === "closed_won").length;
  switch (intent) {
    case "follow_up": {
      const when = whenPhrase(c?.lastActivityDay, ctx.env.today);
      const lead = name ? `${name} was last in touch ${when ?? "a while ago (no activity is logged)"}. ` : "";
      return `${lead}A short, specific e-mail beats a generic check-in: mention what they are looking for and ask one easy question.`;
    }
    case "listing":
      return "Strong listing copy leads with what buyers search for and describes the property, never the buyer.";
    case "market":
      return "Porchlight has no MLS statistics, so build the conversation on figures you pull from your MLS, and use your own deals only as experience.";
    case "at_risk":
      return top ? `${dealName(top.deal)} looks most at risk: ${top.issues[0] ?? "it scores highest on the checks"}.` : "There are no open deals to rank yet.";
    case "plan": {
      const toClose = ctx.openDeals.map((d) => daysBetween(ctx.env.today, d.expectedCloseDate)).filter((n): n is number => n !== null);
      const soon = toClose.filter((n) => n >= 0 && n <= 7).length;
      const late = toClose.filter((n) => n < 0).length;
      const tasks = ctx.env.tasks.length ? `You have ${plural(ctx.env.tasks.length, "task")} due in the next 7 days` : "You have no tasks due in the next 7 days";
      const deals = [soon ? `${plural(soon, "deal")} due to close` : "", late ? `${plural(late, "deal")} past ${late === 1 ? "its" : "their"} close date` : ""].filter(Boolean);
      return `${tasks}${deals.length ? `, ${deals.join(" and ")}` : ""}.`;
    }
    case "objection":
      return "Most objections are about timing, money or trust: find out which before you answer.";
    case "referral":
      return closed ? `Your ${closed === 1 ? "closed deal is" : `${closed} closed deals are`} the best place to start: happy clients are the likeliest to refer.` : "Past clients and your sphere are the likeliest sources of referrals.";
    case "open_house":
      return "An open house pays off in the follow-up, not on the day.";
    case "negotiation": {
      const deal = focusDeal(intent, ctx);
      return deal ? `For ${dealName(deal)} (${stageLabel(deal)}${deal.dealValue != null ? `, ${ctx.money(deal.dealValue)}` : ""}), decide what matters most before you counter.` : "Decide what matters most before you counter.";
    }
    default:
      return top ? `Your riskiest open deal is ${dealName(top.deal)}${top.issues[0] ? ` (${top.issues[0]})` : ""}.` : name ? `Here is where things stand with ${name}.` : "Here is a general plan to keep your business moving.";
  }
}

function adviceSteps(intent: Intent, ctx: Ctx): string[] {
  const who = ctx.first ?? "your client";
  const top = focusDeal(intent, ctx);
  const deal = top ? dealName(top) : null;
  const search = hasSearch(ctx.contact) ? describeHome(ctx.contact) : null;
  switch (intent) {
    case "open_house":
      return [
        "Promote it 5 to 7 days ahead: the listing portals, your social accounts, and a note to neighbours.",
        "Use a sign-in sheet (or a QR code form) and ask each visitor one question: are you working with an agent?",
        "Follow up with every visitor within 24 hours, and add each one to Porchlight with the open house as the source.",
        ctx.fullName ? `Invite ${ctx.fullName} if the home fits their search${search ? ` for ${search}` : ""}.` : "Invite any contacts whose search matches the home.",
      ];
    case "negotiation":
      return [
        `Agree ${who}'s walk-away number and priorities (price, dates, repairs, contingencies) before you respond.`,
        "Ask the other agent what matters most to their client: terms can be worth more than price.",
        "Trade concessions rather than give them: every ask gets something back.",
        deal ? `Put a dated task on ${deal} for the response deadline.` : "Put every response deadline in Porchlight as a dated task.",
      ];
    case "objection":
      return [
        "Acknowledge the concern first, then ask a question to find what is behind it.",
        "Answer with facts you can show: recent sales, your plan, your track record from your own deals.",
        `Offer ${who} a small next step (a call, a tour, a quick market review) rather than a big decision.`,
        "Log the objection as a note on the contact so your next follow-up addresses it.",
      ];
    case "referral":
      return [
        "Ask closed clients at the moments they are happiest: at closing and on the first anniversary.",
        "Make it specific: \"Who do you know who is thinking about moving this year?\"",
        "Thank every referral within a day, whether it turns into business or not.",
        "Tag referral contacts with their source in Porchlight so you can see which relationships send business.",
      ];
    case "at_risk":
      return deal
        ? [
            `Start with ${deal}: ${rankDeals(ctx)[0]?.issues[0] ?? "it carries the most risk"}.`,
            rankDeals(ctx)[0]?.nextStep ?? "Call the client today.",
            "Update the expected close date and probability so your forecast stays honest.",
          ]
        : ["Run the at-risk deals review once your deals have close dates and activity logged.", "Call any client you have not spoken to in two weeks.", "Update each deal's expected close date and probability."];
    case "listing":
      return [
        "Lead with the two or three features buyers will search for, then the location.",
        "Describe the property, never the buyer: Fair Housing rules rule out phrases like \"perfect for\" a type of person.",
        "Stay within your MLS remarks limit and check the copy with the Fair Housing checker.",
        "Use the Listing description task with the features typed in, separated by commas.",
      ];
    case "follow_up":
      return [
        ctx.fullName ? `Follow up with ${ctx.fullName} today${ctx.contact?.lastActivityDay ? `; your last contact was ${whenPhrase(ctx.contact.lastActivityDay, ctx.env.today)}` : ""}.` : "Follow up with your hot contacts first, then anyone quiet for more than a week.",
        search ? `Reference their search (${search}) and propose one concrete next step.` : "Reference what they told you last time and propose one concrete next step.",
        "Keep it short and end with a question that is easy to answer.",
        "Set a follow-up task for three days out in case you do not hear back.",
      ];
    case "market":
      return [
        "Pull the median sale price, days on market, inventory and list-to-sale ratio from your MLS; Porchlight has no market statistics.",
        ctx.contact?.location ? `Focus on ${clean(ctx.contact.location, 80)} and ${who}'s price range.` : "Focus on the area and price range your client cares about.",
        "Compare with the same period last year, and say where each figure comes from.",
      ];
    case "plan":
      return [
        "Start each day with the calls that move money: deals under contract and offers first.",
        "Then hot contacts quiet for more than a week.",
        "Keep an hour a day for prospecting and new leads.",
        "Use the This week's plan task for a day-by-day list from your tasks.",
      ];
    default:
      return [
        deal ? `Check in on ${deal} first: it carries the most risk in your pipeline.` : "Add your active deals with values and close dates so Porchlight can rank them.",
        ctx.fullName ? `Follow up with ${ctx.fullName} and propose one concrete next step.` : "Follow up with your hot contacts.",
        "Put a dated task on every next step, so nothing depends on memory.",
      ];
  }
}

function dataSummary(ctx: Ctx): string[] {
  const facts: string[] = [];
  const c = ctx.contact;
  if (c && ctx.fullName) {
    const budget = budgetRange(c.budgetMin, c.budgetMax, ctx.env.currency);
    const when = whenPhrase(c.lastActivityDay, ctx.env.today);
    const selling = isSeller(c, ctx.env.deals);
    const parts = [`${c.status} contact`, selling ? `selling ${describeHome(c)}` : hasSearch(c) ? `looking for ${describeHome(c)}` : null, budget && !selling ? `budget ${budget}` : null, when ? `last contact ${when}` : "no activity logged"];
    facts.push(`- ${ctx.fullName}: ${parts.filter(Boolean).join(", ")}.`);
  }
  for (const r of rankDeals(ctx).slice(0, 5)) {
    facts.push(`- ${dealName(r.deal)} (${stageLabel(r.deal)}): ${weightedLine(r.deal, ctx)}${r.issues[0] ? `; ${r.issues[0]}` : ""}.`);
  }
  const closed = ctx.env.deals.length - ctx.openDeals.length;
  if (closed) facts.push(`- ${plural(closed, "closed deal")}.`);
  if (ctx.env.tasks.length) facts.push(`- ${plural(ctx.env.tasks.length, "open task")} due in the next 7 days.`);
  return facts;
}

function writeAdvice(ctx: Ctx): string {
  const question = agentSentences(ctx.env.userInput, ctx.first, 500).join(" ");
  const intent = adviceIntent(question);
  const steps = adviceSteps(intent, ctx);
  const flags = checkFairHousing(question);
  // A general question gets no "good question" opener: the answer itself comes first.
  const intro = (intent === "general" && !question) || flags.length ? "" : pick(ADVICE_INTROS[ctx.tone], ctx.v);
  const answer = flags.length
    ? `A Fair Housing note first: ${flags.map((f) => `"${f.phrase}" (${f.category.replace(/_/g, " ")})${f.suggestion ? `: try "${f.suggestion}"` : ": leave it out"}`).join("; ")}. Describe the property, not the people you picture living there.`
    : adviceAnswer(intent, ctx);
  const lines: string[] = [`${intro ? `${intro} ` : ""}${answer}`];
  const facts = dataSummary(ctx);
  if (ctx.tone !== "concise") {
    lines.push("", pick(DATA_HEADINGS[ctx.tone], ctx.v));
    lines.push(...(facts.length ? facts : ["- No contact or deals were included, so this answer is general."]));
  }
  lines.push("", pick(STEPS_HEADINGS[ctx.tone], ctx.v));
  const shown = ctx.tone === "concise" ? steps.slice(0, 3) : steps;
  lines.push(...shown.map((s, i) => `${i + 1}. ${s}`));
  return lines.join("\n");
}

// ─── Tidying ──────────────────────────────────────────────────────────────────────────────────────────────

/** No double spaces, no trailing spaces, no empty bullets, at most one blank line in a row. */
function tidy(text: string): string {
  return text
    .split("\n")
    .map((line) => line.replace(/[ \t]{2,}/g, " ").replace(/\s+$/, ""))
    .filter((line) => !/^\s*(?:[-*•]|\d+\.)\s*$/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
