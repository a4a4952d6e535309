import type { FairHousingFlag } from "./draft-types";

/**
 * A curated Fair Housing phrase check for listing copy and e-mails: it flags words that describe the buyer
 * (who should live there) instead of the property, after HUD's advertising guidance (24 CFR 100.75 and the
 * 1995 "Achtenberg memo") and the word lists MLSs publish. Pure and small: it runs in the browser too.
 *
 * Deliberately NOT flagged (the memo treats them as descriptions of the property, and agents use them daily):
 * "family room", "mother-in-law suite/unit", "master bedroom", "bachelor apartment", "walking distance",
 * "walk-in closet", "single-family home", "gated community", "55+" / "senior housing" (legal for qualified
 * housing for older persons), "close to schools" (a fact), "quiet street", "great location", place names
 * ("Fairfax County", "Chinatown", "Temple Terrace", "Christian County", "Orleans Parish"), and religions as bare
 * words (a client may be called Christian): they are flagged when they describe people or places ("Christian
 * community", "Jewish buyers"). "Integrated" only next to neighborhood words ("integrated appliances" is fine).
 * Flagged as a judgement that steers: "good/great/excellent/top-rated schools" (name the district instead and let
 * buyers check ratings), "safe / desirable / exclusive neighborhood". Flagged though some MLSs allow them:
 * "man cave" and "she shed" (gendered; "bonus room" and "garden studio" say the same about the property).
 */

type Category = FairHousingFlag["category"];

interface Rule {
  category: Category;
  pattern: RegExp;
  reason: string;
  /** The neutral wording; a function gets the match when the wording depends on it. */
  suggestion: string | ((match: RegExpExecArray) => string);
  /** Not a flag when the text just before the match fits (e.g. "single-" before "family home"). */
  unlessBefore?: RegExp;
  /** Not a flag when the text just after the match fits (e.g. " County" after "Christian"). */
  unlessAfter?: RegExp;
}

// "perfect for", "ideal for", "great for", "suited to" … before a description of the buyer.
const FOR = String.raw`(?:(?:perfect|ideal|great|excellent|suitable|well[- ]suited|suited|made|designed|tailor[- ]made)\s+(?:for|to)\s+(?:an?\s+|the\s+)?)`;
const AREA = String.raw`(?:neighbou?rhoods?|areas?|communit(?:y|ies)|enclaves?|streets?|part\s+of\s+town|side\s+of\s+town)`;
const w = (source: string) => new RegExp(String.raw`\b(?:${source})\b`, "gi");
/** "perfect for X" reads as a description of the home when rewritten; a bare "X" is replaced by "buyers". */
const buyerOr = (forPhrase: string) => (m: RegExpExecArray) => (m[1] ? forPhrase : "buyers");
/** Keeps the noun and drops the judgement: "safe neighborhood" → "neighborhood". */
const nounOnly = (m: RegExpExecArray) => m[1] ?? "";

const RULES: Rule[] = [
  // Familial status.
  {
    category: "familial_status",
    pattern: w(String.raw`(${FOR})?(?:(?:young|growing|large|big|small|new)\s+)?families`),
    reason: "Describing the buyer's family status can signal a preference based on familial status.",
    suggestion: buyerOr("roomy and flexible"),
  },
  {
    category: "familial_status",
    pattern: w(
      String.raw`(?:${FOR}(?:(?:young|growing|large|big|small|new)\s+)?|(?:young|growing|large|big|new)\s+)family(?!\s+(?:rooms?|gatherings?|dinners?|meals?|events?|holidays?|time|fun|games?|movies?|nights?)\b)`,
    ),
    reason: "Describing the buyer's family status can signal a preference based on familial status.",
    suggestion: (m) => (/^(?:young|growing|large|big|new)\s/i.test(m[0]) ? "buyer" : "roomy and flexible"),
  },
  {
    category: "familial_status",
    pattern: w(String.raw`(${FOR})(?:(?:young|newly\s*wed|married)\s+)?couples?(?!\s+of\b)|(?:young|newly\s*wed|married)\s+couples?|couples`),
    reason: "Naming couples as the intended buyers can signal a preference based on familial status.",
    suggestion: buyerOr("cozy and easy to live in"),
  },
  {
    category: "familial_status",
    pattern: w(String.raw`family[- ](?:friendly|oriented)|family\s+${AREA}|kid[- ]friendly|child[- ]friendly`),
    reason: "Calling a home or area family- or child-friendly suggests who should live there.",
    suggestion: "welcoming",
  },
  {
    category: "familial_status",
    pattern: w(String.raw`family\s+home`),
    reason: '"Family home" describes the buyer rather than the property.',
    suggestion: "home",
    unlessBefore: /(?:single|multi|two|2|one|1)[- ]$/i,
  },
  {
    category: "familial_status",
    pattern: w(String.raw`no\s+(?:children|kids|teenagers|teens|minors)|adults?[- ]only|adult\s+(?:community|building|living)|child[- ]free`),
    reason: "Excluding children discriminates on familial status (unless the property is qualified housing for older persons).",
    suggestion: "",
  },
  {
    category: "familial_status",
    pattern: w(String.raw`(${FOR})?(?:empty[- ]nesters?|newlyweds?|singles)`),
    reason: "Naming a household type as the intended buyer can signal a preference based on familial status.",
    suggestion: buyerOr("easy to care for"),
  },
  // Religion.
  {
    category: "religion",
    pattern: w(
      String.raw`(?:near|close\s+to|next\s+to|steps\s+(?:from|to)|minutes\s+(?:from|to)|(?:within\s+)?walking\s+distance\s+(?:to|of|from)|walk\s+to)\s+(?:the\s+|a\s+|local\s+)?(?:church(?:es)?|synagogues?|mosques?|temples?|cathedrals?|chapels?)`,
    ),
    reason: "Pointing to places of worship can signal a religious preference.",
    suggestion: "conveniently located",
    unlessAfter: /^\s+(?:university|college|terrace|street|st\b|road|rd\b|avenue|ave\b|hill|square|county|city)/i,
  },
  {
    // Religions describing people or places; a bare word is left alone so names ("Hi Christian,") and place
    // names ("Christian County") are not flagged.
    category: "religion",
    pattern: w(
      String.raw`(?:christian|jewish|muslim|islamic|catholic|protestant|hindu|buddhist|mormon|sikh|evangelical)\s+(?:${AREA}|buyers?|famil(?:y|ies)|tenants?|residents?|households?|owners?|neighbou?rs?|values|homes?|only|preferred)|no\s+(?:christians|jews|muslims|catholics|hindus|buddhists|mormons|sikhs)|(?:christians|jews|muslims|catholics|hindus|buddhists|mormons|sikhs)\s+(?:only|preferred|welcome)`,
    ),
    reason: "Mentioning a religion in an ad can signal a preference for or against buyers of that faith.",
    suggestion: (m) => (/\s(?:buyers?|famil|tenants?|residents?|households?|owners?|neighbou?rs?)/i.test(m[0]) ? "buyers" : ""),
  },
  // Race, color, national origin.
  {
    category: "race_color_national_origin",
    pattern: w(String.raw`(?:racially\s+)?(?:integrated|segregated|diverse|mixed|homogeneous)\s+(${AREA}|building)|racially\s+\w+`),
    reason: "Describing who lives in an area by race or origin can steer buyers.",
    suggestion: nounOnly,
  },
  {
    category: "race_color_national_origin",
    pattern: w(String.raw`ethnic|minorit(?:y|ies)|english[- ]speaking(?:\s+only)?|english\s+only|no\s+(?:immigrants|foreigners)`),
    reason: "References to ethnicity, minority status or language can signal a preference based on national origin or race.",
    suggestion: "",
  },
  {
    category: "race_color_national_origin",
    pattern: w(
      String.raw`(?:hispanic|latino|latina|latinx|asian|black|white|african[- ]american|caucasian|chinese|korean|japanese|vietnamese|mexican|irish|italian|indian|polish|arab|european|american|immigrant)\s+(${AREA}|famil(?:y|ies)|buyers?|tenants?|owners?|residents?|neighbou?rs?)`,
    ),
    reason: "Describing an area or its people by race or national origin can steer buyers.",
    suggestion: (m) => (/^(?:buyers?|tenants?|owners?|residents?|neighbou?rs?|famil(?:y|ies))$/i.test(m[1] ?? "") ? "buyers" : (m[1] ?? "")),
  },
  // Disability.
  {
    category: "disability",
    pattern: w(String.raw`handicap(?:ped)?(?:[- ]accessible)?`),
    reason: '"Handicapped" describes people; describe the property\'s accessibility instead.',
    suggestion: "accessible",
  },
  {
    category: "disability",
    pattern: w(
      String.raw`no\s+wheelchairs?|able[- ]bodied|physically\s+fit|mentally\s+(?:ill|handicapped|disabled|retarded)|mental\s+illness|crippled|must\s+(?:be\s+able\s+to\s+)?climb\s+stairs|no\s+(?:disabled|handicapped)(?:\s+(?:people|persons|buyers|tenants))?`,
    ),
    reason: "Excluding or describing people by ability discriminates on disability.",
    suggestion: "",
  },
  // Sex.
  {
    category: "sex",
    pattern: w(String.raw`(${FOR})(?:(?:a\s+)?single\s+)?(?:man|men|woman|women|gentlem[ae]n|lad(?:y|ies)|guys?|girls?|bachelors?|bachelorettes?)`),
    reason: "Naming the buyer's sex as the intended occupant discriminates on sex.",
    suggestion: "comfortable and easy to live in",
  },
  {
    category: "sex",
    pattern: w(String.raw`bachelor\s+pad|(?:fe)?males?\s+only|(?:wo)?men\s+only|(?:fe)?male\s+(?:roommates?|tenants?|buyers?)`),
    reason: "Describing the occupant's sex signals a preference based on sex.",
    suggestion: (m) => (/pad/i.test(m[0]) ? "efficient living space" : ""),
  },
  {
    category: "sex",
    pattern: w(String.raw`man\s+cave|she\s+shed`),
    reason: "Gendered room names describe the occupant; name the room by its use.",
    suggestion: (m) => (/cave/i.test(m[0]) ? "bonus room" : "garden studio"),
  },
  // Age.
  {
    category: "age",
    pattern: w(String.raw`(${FOR})?young\s+(?:professionals?|people|buyers|crowd)`),
    reason: "Naming an age group as the intended buyers can signal a preference based on age.",
    suggestion: buyerOr("easy to live in"),
  },
  {
    category: "age",
    pattern: w(
      String.raw`(${FOR})?(?:retirees?|seniors|the\s+elderly|elderly(?:\s+(?:people|persons|buyers|couples?))?|older\s+(?:buyers|people|persons|adults|couples?)|mature\s+(?:buyers|adults|persons|couples?)|retired\s+(?:couples?|people|persons))`,
    ),
    reason: "Naming an age group as the intended buyers can signal a preference based on age (unless the property is qualified senior housing).",
    suggestion: buyerOr("easy to live in"),
  },
  // Steering: judgements about a neighborhood that stand in for who lives there.
  {
    category: "steering",
    pattern: w(
      String.raw`(?:exclusive|safe|safer|desirable|prestigious|crime[- ]free|low[- ]crime|high[- ]crime|good|bad|better|rough|changing|traditional|up[- ]and[- ]coming)\s+(${AREA})`,
    ),
    reason: "Judging a neighborhood's character or safety can steer buyers; describe the home and let buyers research the area.",
    suggestion: nounOnly,
  },
  {
    category: "steering",
    pattern: w(
      String.raw`(?:(?:very\s+)?(?:good|great|excellent|best|top[- ]rated|highly[- ]rated|award[- ]winning|better)\s+)schools?(?:\s+district)?|(?:good|great|excellent|best|top[- ]rated)\s+school\s+district`,
    ),
    reason: "Rating the schools is a judgement that can steer; name the school district and let buyers check ratings.",
    suggestion: "nearby schools",
  },
];

/** Every flagged phrase in `text`, sorted by index; overlapping matches keep the earliest (then longest). */
export function checkFairHousing(text: string): FairHousingFlag[] {
  const found: FairHousingFlag[] = [];
  for (const rule of RULES) {
    rule.pattern.lastIndex = 0;
    for (let m = rule.pattern.exec(text); m; m = rule.pattern.exec(text)) {
      if (m[0].length === 0) {
        rule.pattern.lastIndex++;
        continue;
      }
      if (rule.unlessBefore?.test(text.slice(Math.max(0, m.index - 12), m.index))) continue;
      if (rule.unlessAfter?.test(text.slice(m.index + m[0].length, m.index + m[0].length + 12))) continue;
      const suggestion = typeof rule.suggestion === "function" ? rule.suggestion(m) : rule.suggestion;
      found.push({ phrase: m[0], index: m.index, category: rule.category, reason: rule.reason, suggestion });
    }
  }
  found.sort((a, b) => a.index - b.index || b.phrase.length - a.phrase.length);
  const flags: FairHousingFlag[] = [];
  let end = -1;
  for (const flag of found) {
    if (flag.index < end) continue;
    flags.push(flag);
    end = flag.index + flag.phrase.length;
  }
  return flags;
}

/** `text` with the flagged phrase replaced by its suggestion (capitalised at a sentence start), tidied. */
export function applySuggestion(text: string, flag: FairHousingFlag): string {
  let index = text.slice(flag.index, flag.index + flag.phrase.length) === flag.phrase ? flag.index : text.indexOf(flag.phrase);
  if (index < 0) index = text.toLowerCase().indexOf(flag.phrase.toLowerCase());
  if (index < 0) return text;
  const before = text.slice(0, index).replace(/[ \t]+$/, "");
  const after = text.slice(index + flag.phrase.length).replace(/^[ \t]+/, "");
  const sentenceStart = before === "" || /[.!?\n]$/.test(before);
  const capital = (s: string) => (sentenceStart ? s.charAt(0).toUpperCase() + s.slice(1) : s);
  const join = (left: string, right: string) =>
    left && right && !/\n$/.test(left) && !/^[.,;:!?)\n]/.test(right) ? `${left} ${right}` : left + right;
  if (flag.suggestion) return join(join(before, capital(flag.suggestion)), after);
  // Removing a phrase: no double space, no orphaned punctuation, no sentence starting in lower case.
  const rest = sentenceStart ? capital(after.replace(/^[.,;:!?]+[ \t]*/, "")) : after;
  return join(before, rest)
    .replace(/,\s*([.,;:!?])/g, "$1")
    .replace(/(\w)\s+(?:and|or|with)([.!?])/g, "$1$2");
}
