import { applySuggestion, checkFairHousing } from "../fair-housing";
import { capitalise, clean, endSentence, fitToLimit } from "./text";

// What the agent typed, read as data: placeholders filled, prompt injection dropped, instructions about the client
// ("tell her she …") turned into sentences to the client, and Fair Housing phrases removed or reworded.

export const INJECTION =
  /\b(?:ignore|disregard|forget|override)\b[^.!?\n]{0,60}\b(?:instructions?|prompts?|rules?|above|previous)\b|\bsystem prompt\b|\byou are now\b|\bact as\b|\bjailbreak\b/i;
export const PLACEHOLDER =
  /\{\{?\s*(?:first[_ ]?name|name|client(?:[_ ]?name)?|contact(?:[_ ]?name)?|buyer|seller)\s*\}?\}|\[\s*(?:first[_ ]?name|name|client(?:[_ ]?name)?|contact(?:[_ ]?name)?|buyer|seller)\s*\]/gi;

/** The agent's input as safe sentences: placeholders filled (or dropped), prompt-injection sentences dropped. */
export function agentSentences(input: string, name: string | null, max: number): string[] {
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
  return fitToLimit(sentences.join(" "), max)
    .split(/(?<=[.!?])\s+/)
    .filter(Boolean);
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

const WHO = String.raw`(them|her|him|the\s+(?:client|buyers?|sellers?)|[A-Z][\p{L}'’-]*)`;
const LEAD = String.raw`^(?:please\s+)?`;
const MENTION = new RegExp(
  String.raw`${LEAD}(?:mention|note|say|add|include|stress|point\s+out|explain)\s+(?:to\s+${WHO}\s+)?(?:that\s+)?(.+)$`,
  "iu",
);
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

const ROOM_RENAMES = new Set(["bonus room", "garden studio"]);
const FAITHFUL_RENAMES = new Set([...ROOM_RENAMES, "accessible", "nearby schools", "home"]);
/** Replaces flagged phrases when the suggestion only removes or renames; null when a flag would need rewriting. */
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
export function agentPoint(input: string, name: string | null, max = 400): string | null {
  const sentences = agentSentences(input, name, max)
    .map(pointSentence)
    .map((s) => fairHousingClean(s))
    .filter((s): s is string => Boolean(s && /[\p{L}\p{N}]{2}/u.test(s)));
  return sentences.length ? sentences.join(" ") : null;
}

const WRITE_REQUEST =
  /^\s*(?:please\s+)?(?:write|create|draft|make|generate)\b[^,;\n]*?(?::|\b(?:listing|description|remarks)(?:\s+(?:description|remarks))?(?:\s+(?:for|of|about))?\b)/i;

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
