import type { DraftContact, DraftDeal, DraftEnvelope, DraftTone } from "../draft-types";
import { isOpenDeal } from "./open-deal";
import { formatMoney } from "./money";
import { cleanName, firstNameOf } from "./names";

// What every writer reads: the envelope, with the names, open deals and money format worked out once.

export interface Ctx {
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

export function contextOf(env: DraftEnvelope): Ctx {
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

/** One of `options`, chosen by the variant; `salt` shifts paragraphs against each other. */
export function pick<T>(options: readonly T[], v: number, salt = 0): T {
  return options[(v + salt) % options.length] as T;
}
